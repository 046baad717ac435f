// The script-tag build (`<script src="…/widget.js" data-domain=… data-key=… defer>`): defines
// `<docs-assistant>`, mounts one with the script's `data-*` attributes, and exposes it as
// `window.DocsAssistant`. The panel and the SDK come from the same folder as this script, under
// versioned names (__PANEL__ is set by scripts/build-widget.mjs), only when the reader opens it.
import { defineAssistant } from './element.js';

const script = document.currentScript;
const src = script?.src ?? location.href;
// The API defaults to the service this script came from.
defineAssistant(() => import(new URL(`widget/${__PANEL__}`, src).href), { defaultApi: new URL(src).origin });

function mount() {
  let element = document.querySelector('docs-assistant');
  if (!element && script?.hasAttribute('data-domain')) {
    element = document.createElement('docs-assistant');
    for (const { name, value } of script.attributes) if (name.startsWith('data-')) element.setAttribute(name, value);
    if (script.nonce) element.setAttribute('data-nonce', script.nonce);
    document.body.append(element);
  }
  if (!element) return;
  window.DocsAssistant = {
    open: (options) => element.open(options),
    close: () => element.close(),
    ask: (text) => element.ask(text),
    reset: () => element.reset(),
    destroy: () => {
      element.destroy();
      delete window.DocsAssistant;
    },
    on(type, handler) {
      const listener = (e) => handler(e.detail);
      element.addEventListener(type, listener);
      return () => element.removeEventListener(type, listener);
    },
    element,
  };
}

if (document.body) mount();
else document.addEventListener('DOMContentLoaded', mount, { once: true });
