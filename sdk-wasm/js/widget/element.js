// The `<docs-assistant>` element: what a page loads before the reader asks anything. A launcher button in
// a Shadow DOM, the Cmd/Ctrl+I shortcut, `?ask=` deep links and the page's own open buttons; the panel
// and the SDK (wasm) are imported only when the reader opens it (`loadPanel`), so this stays small.
import { readConfig } from './config.js';
import { sheet } from './sheet.js';

const LAUNCHER_CSS = `
:host{all:initial;color-scheme:light;--da-accent:#2563eb;--da-accent-text:#fff;--da-bg:#fff;--da-text:#1f2328;--da-muted:#59636e;
--da-border:#d1d9e0;--da-soft:#f0f3f6;--da-hover:#e6eaef;--da-link:#0550ae;--da-error:#cf222e;--da-radius:12px;--da-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--da-z:2147483000}
:host([data-theme=dark]){color-scheme:dark;--da-accent:#4493f8;--da-accent-text:#0d1117;--da-bg:#151b23;--da-text:#f0f6fc;--da-muted:#9198a1;--da-border:#3d444d;--da-soft:#212830;--da-hover:#2a313c;--da-link:#4493f8;--da-error:#f85149}
.launcher{position:fixed;inset-block-end:20px;inset-inline-end:20px;z-index:var(--da-z);display:flex;align-items:center;gap:8px;
padding:10px 16px;border:0;border-radius:999px;background:var(--da-accent);color:var(--da-accent-text);font:600 15px/1.2 var(--da-font);
cursor:pointer;box-shadow:0 4px 16px rgba(0,0,0,.2)}
.launcher:focus-visible{outline:3px solid var(--da-text);outline-offset:3px}
.launcher svg{width:18px;height:18px;fill:currentColor}
.launcher[hidden],:host([data-open]) .launcher{display:none}`;

const SPARK = 'M12 2l2.4 6.6L21 11l-6.6 2.4L12 20l-2.4-6.6L3 11l6.6-2.4z';
const EVENTS = ['open', 'close', 'answer', 'error', 'feedback', 'source-click'];

/** True when a key press belongs to a field the reader is typing in (Cmd/Ctrl+I is italics there). */
function typing(event) {
  const target = event.composedPath()[0];
  return target instanceof Element && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** The text the reader has selected on the page, if any (at most what a context item holds). */
function pageSelection() {
  const text = String(document.getSelection() ?? '').trim();
  return text ? text.slice(0, 8000) : '';
}

/** Follows the page's theme: `data-theme`/`class="dark"` on <html>, else the system preference. */
function pageTheme() {
  const root = document.documentElement;
  const said = root.dataset.theme ?? root.getAttribute('data-color-mode') ?? (root.classList.contains('dark') ? 'dark' : '');
  if (said === 'dark' || said === 'light') return said;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Defines `<docs-assistant>` once. `loadPanel()` resolves to the panel module (`mountPanel`); the
 * script-tag build imports it from the service, the npm build from the package. `defaultApi`: the
 * service an element without `api` talks to (the script's origin; else the page's).
 */
export function defineAssistant(loadPanel, { name = 'docs-assistant', defaultApi } = {}) {
  const existing = customElements.get(name);
  if (existing) return existing;

  class DocsAssistantElement extends HTMLElement {
    #root;
    #launcher;
    #panel;
    #loading;
    #trigger;
    #cleanups = [];
    #connected = false;

    connectedCallback() {
      if (this.#connected) return;
      this.#connected = true;
      this.config = readConfig(this, defaultApi);
      this.#root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      sheet(this.#root, LAUNCHER_CSS, this.config.nonce);
      this.#follow();
      const button = document.createElement('button');
      button.className = 'launcher';
      button.type = 'button';
      button.setAttribute('aria-haspopup', 'dialog');
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('viewBox', '0 0 24 24');
      svg.setAttribute('aria-hidden', 'true');
      const path = document.createElementNS(svg.namespaceURI, 'path');
      path.setAttribute('d', SPARK);
      svg.append(path);
      button.append(svg, this.config.launcherLabel);
      this.setAttribute('data-surface', this.config.surface);
      button.hidden = this.config.launcher === false;
      // The selection is read before the click moves focus (and, on some pages, clears it).
      button.addEventListener('pointerdown', () => (this.#pendingSelection = pageSelection()));
      button.addEventListener('click', () => this.open({ selection: this.#pendingSelection }));
      this.#launcher = button;
      this.#root.append(button);
      this.#listen(document, 'keydown', (event) => {
        if ((event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'i' && (!typing(event) || event.composedPath().includes(this))) {
          event.preventDefault();
          if (this.hasAttribute('data-open')) this.close();
          else this.open({ selection: pageSelection() });
        }
      });
      if (this.config.openSelector) {
        this.#listen(document, 'click', (event) => {
          const opener = event.target instanceof Element && event.target.closest(this.config.openSelector);
          if (opener) {
            event.preventDefault();
            this.open({ trigger: opener });
          }
        });
      }
      const ask = new URL(location.href).searchParams.get('ask');
      if (ask) this.open({ query: ask, submit: true });
    }

    #pendingSelection = '';

    disconnectedCallback() {
      this.destroy();
    }

    #listen(target, type, handler, options) {
      target.addEventListener(type, handler, options);
      this.#cleanups.push(() => target.removeEventListener(type, handler, options));
    }

    #follow() {
      const apply = () => this.setAttribute('data-theme', this.config.theme ?? pageTheme());
      apply();
      const observer = new MutationObserver(apply);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class', 'data-color-mode'] });
      const media = matchMedia('(prefers-color-scheme: dark)');
      this.#listen(media, 'change', apply);
      this.#cleanups.push(() => observer.disconnect());
      if (!this.hasAttribute('dir')) this.setAttribute('dir', document.documentElement.dir || getComputedStyle(document.documentElement).direction || 'ltr');
    }

    /** Emits a widget event on the element (`detail` carries its data). */
    emit(type, detail) {
      this.dispatchEvent(new CustomEvent(type, { detail }));
    }

    #load() {
      this.#loading ??= loadPanel().then(({ mountPanel }) => {
        this.#panel = mountPanel(this, this.#root);
        return this.#panel;
      });
      this.#loading.catch((err) => {
        this.#loading = undefined;
        this.emit('error', { error: err, message: String(err?.message ?? err) });
      });
      return this.#loading;
    }

    /** Opens the panel; `query` fills the question box, `submit` also asks it. */
    async open({ query, submit = false, selection, trigger } = {}) {
      const active = document.activeElement;
      this.#trigger = trigger ?? (active && active !== document.body && active !== this ? active : this.#launcher);
      const wasOpen = this.hasAttribute('data-open');
      this.setAttribute('data-open', '');
      let panel;
      try {
        panel = await this.#load();
      } catch {
        // Reported as an `error` event; the launcher comes back for another try.
        this.removeAttribute('data-open');
        return;
      }
      panel.show({ query, submit, selection });
      if (!wasOpen) this.emit('open', {});
    }

    close() {
      if (!this.hasAttribute('data-open')) return;
      this.removeAttribute('data-open');
      this.#panel?.hide();
      const back = this.#trigger?.isConnected && this.#trigger !== this.#launcher ? this.#trigger : this.#launcher;
      if (!back.hidden) back.focus();
      this.emit('close', {});
    }

    /** Opens the panel and asks `text`. */
    ask(text) {
      return this.open({ query: text, submit: true });
    }

    /** Starts a new conversation (forgets the kept one). */
    async reset() {
      if (this.#panel) this.#panel.reset();
      else localStorage.removeItem(this.config.storageKey);
    }

    /** Removes the launcher, the panel and every listener. */
    destroy() {
      for (const cleanup of this.#cleanups.splice(0)) cleanup();
      this.#panel?.destroy();
      this.#panel = undefined;
      this.#loading = undefined;
      this.#root?.replaceChildren();
      this.#connected = false;
      if (this.isConnected) this.remove();
    }

    static get events() {
      return EVENTS;
    }
  }
  customElements.define(name, DocsAssistantElement);
  return DocsAssistantElement;
}
