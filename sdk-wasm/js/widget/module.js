// The widget as an ES module of the npm package (`docs-edge-sdk/widget`): the same element and panel,
// the panel and the SDK imported from the package when the reader opens it.
import { defineAssistant } from './element.js';

/** Defines `<docs-assistant>` (attributes as the script tag's `data-*` ones); returns its class. */
export function defineDocsAssistant(name = 'docs-assistant') {
  return defineAssistant(() => import('./widget-panel.js'), { name });
}

/**
 * Mounts an assistant on the page: `options` are the attributes without `data-` (`api`, `domain`,
 * `key`, `questions`, `open-selector`, `label-title`, …). Returns the element, which has `open()`,
 * `close()`, `ask()`, `reset()`, `destroy()` and dispatches the widget's events.
 */
export function mountDocsAssistant(options = {}, parent = document.body) {
  defineDocsAssistant();
  const element = document.createElement('docs-assistant');
  for (const [name, value] of Object.entries(options)) element.setAttribute(name, Array.isArray(value) ? value.join('|') : String(value));
  parent.append(element);
  return element;
}
