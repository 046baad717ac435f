// The panel's stylesheet (adopted by the widget's shadow root, so it never touches the page). Colours,
// radius and font are custom properties a site sets on the element: `docs-assistant { --da-accent: … }`.
export const PANEL_CSS = `
.panel{position:fixed;inset-block:0;inset-inline-end:0;z-index:var(--da-z);box-sizing:border-box;width:min(440px,100vw);
display:flex;flex-direction:column;background:var(--da-bg);color:var(--da-text);font:15px/1.55 var(--da-font);
border-inline-start:1px solid var(--da-border);box-shadow:0 0 32px rgba(0,0,0,.18)}
.panel[hidden],.backdrop[hidden]{display:none}
:host([data-surface=push]) .panel{box-shadow:none}
:host([data-surface=modal]) .panel{inset:50% auto auto 50%;transform:translate(-50%,-50%);width:min(720px,calc(100vw - 32px));
height:min(760px,calc(100vh - 48px));border:1px solid var(--da-border);border-radius:var(--da-radius);overflow:hidden;box-shadow:0 16px 48px rgba(0,0,0,.3)}
.backdrop{position:fixed;inset:0;z-index:var(--da-z);background:rgba(0,0,0,.45)}
@media (max-width:640px){.panel,:host([data-surface=modal]) .panel{inset:0;transform:none;width:100vw;height:auto;border:0;border-radius:0}}
*,*::before,*::after{box-sizing:border-box}
button,textarea,input{font:inherit;color:inherit}
button{cursor:pointer}
:focus-visible{outline:2px solid var(--da-accent);outline-offset:2px}
svg{width:18px;height:18px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;flex:none}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.head{display:flex;align-items:center;gap:4px;padding:10px 12px 10px 16px;border-block-end:1px solid var(--da-border)}
h2{flex:1;margin:0;font-size:16px;font-weight:650}
.icon{display:inline-flex;align-items:center;justify-content:center;gap:6px;min-width:32px;min-height:32px;padding:6px;border:0;
border-radius:calc(var(--da-radius) / 2);background:none;color:var(--da-muted)}
.icon:hover{background:var(--da-hover);color:var(--da-text)}
.icon[aria-pressed=true]{color:var(--da-accent)}
.down svg{transform:rotate(180deg)}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:16px;overscroll-behavior:contain}
.intro{color:var(--da-muted);margin:0 0 12px}
.starters{display:flex;flex-direction:column;align-items:flex-start;gap:8px;margin:0;padding:0;list-style:none}
.starter{padding:8px 12px;border:1px solid var(--da-border);border-radius:var(--da-radius);background:none;text-align:start}
.starter:hover{border-color:var(--da-accent)}
.after .follow-ups{margin-block-start:10px}
.support{margin:8px 0 0;color:var(--da-muted);font-size:13px}
.support a{color:var(--da-link)}
.user{align-self:flex-end;max-width:85%;padding:8px 12px;border-radius:var(--da-radius);background:var(--da-soft);white-space:pre-wrap;overflow-wrap:anywhere}
.user .context{display:block;font-size:13px;color:var(--da-muted);border-inline-start:3px solid var(--da-border);padding-inline-start:8px;margin-block-end:4px}
.answer{overflow-wrap:anywhere}
.md>:first-child{margin-block-start:0}
.md p,.md ul,.md ol,.md blockquote,.md .table,.md .code{margin:0 0 10px}
.md ul,.md ol{padding-inline-start:22px}
.md h3,.md h4,.md h5,.md h6{margin:14px 0 6px;font-size:15px;font-weight:650}
.md h3{font-size:17px}
.md a{color:var(--da-link)}
.md code{font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--da-soft);padding:1px 4px;border-radius:4px}
.md blockquote{margin-inline:0;padding-inline-start:12px;border-inline-start:3px solid var(--da-border);color:var(--da-muted)}
.md hr{border:0;border-block-start:1px solid var(--da-border)}
.md .table{overflow-x:auto}
.md table{border-collapse:collapse;font-size:14px}
.md th,.md td{border:1px solid var(--da-border);padding:4px 8px;text-align:start}
.md .align-center{text-align:center}.md .align-end{text-align:end}
.md .code{border:1px solid var(--da-border);border-radius:calc(var(--da-radius) / 2);overflow:hidden}
.code-bar{display:flex;align-items:center;justify-content:space-between;padding:2px 4px 2px 10px;background:var(--da-soft);font-size:12px;color:var(--da-muted)}
.md pre{margin:0;padding:10px;overflow-x:auto;direction:ltr;text-align:left}
.md pre code{background:none;padding:0}
a.cite{display:inline-block;min-width:18px;margin-inline:1px;padding:0 4px;border-radius:9px;background:var(--da-soft);color:var(--da-link);
font-size:12px;line-height:18px;text-align:center;text-decoration:none;vertical-align:1px}
a.cite:hover{text-decoration:underline}
.sources{margin:4px 0 0;font-size:13px}
.sources h3{margin:0 0 4px;font-size:13px;font-weight:600;color:var(--da-muted)}
.sources ol{margin:0;padding-inline-start:22px}
.sources a{color:var(--da-link)}
.actions{display:flex;flex-wrap:wrap;gap:2px;margin-block-start:6px}
.status{color:var(--da-muted);font-size:13px;margin:0}
.error{color:var(--da-error)}
.reason{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-block-start:6px}
.reason input{flex:1;min-width:160px;padding:6px 8px;border:1px solid var(--da-border);border-radius:calc(var(--da-radius) / 2);background:var(--da-bg)}
.text-button{padding:6px 12px;border:1px solid var(--da-border);border-radius:calc(var(--da-radius) / 2);background:none}
.composer{padding:10px 12px 12px;border-block-start:1px solid var(--da-border)}
.chips{display:flex;flex-wrap:wrap;gap:6px;margin-block-end:8px}
.chip{display:inline-flex;align-items:center;gap:6px;max-width:100%;padding:2px 4px 2px 10px;border:1px solid var(--da-border);border-radius:999px;font-size:13px;color:var(--da-muted)}
.chip input{margin:0;accent-color:var(--da-accent)}
.chip label{display:inline-flex;gap:6px;align-items:center;padding-inline-end:6px;cursor:pointer}
.chip .text{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:260px}
.chip .icon{min-width:24px;min-height:24px;padding:2px}
.row{display:flex;gap:8px;align-items:flex-end}
textarea{flex:1;resize:none;min-height:42px;max-height:160px;padding:9px 12px;border:1px solid var(--da-border);border-radius:var(--da-radius);background:var(--da-bg);line-height:1.45}
textarea::placeholder{color:var(--da-muted);opacity:1}
.send{min-width:42px;min-height:42px;border-radius:var(--da-radius);background:var(--da-accent);color:var(--da-accent-text)}
.send:hover{background:var(--da-accent);color:var(--da-accent-text);filter:brightness(1.1)}
.send[hidden]{display:none}
.send:disabled{opacity:.5;cursor:default}
`;
