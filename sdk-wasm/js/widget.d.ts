// `docs-edge-sdk/widget`: the assistant widget as an ES module (the same one the service's /widget.js
// mounts from a script tag).

export interface OpenOptions {
  /** Fills the question box. */
  query?: string;
  /** Also asks it. */
  submit?: boolean;
  /** Text from the page, sent as a `textSelection` context item with the next question. */
  selection?: string;
}

/** `<docs-assistant>`: events `open`, `close`, `answer`, `error`, `feedback`, `source-click` (cancelable), `reset`; data in `detail`. */
export interface DocsAssistantElement extends HTMLElement {
  open(options?: OpenOptions): Promise<void>;
  close(): void;
  ask(text: string): Promise<void>;
  reset(): Promise<void>;
  destroy(): void;
}

/** Defines the `<docs-assistant>` element (once); attributes as the script tag's, with or without `data-`. */
export function defineDocsAssistant(name?: string): CustomElementConstructor;

/**
 * Mounts an assistant: `api` (a URL, or `same-origin`), `domain`, `key` (a public `svc_dsc_` key),
 * `questions` (up to three), `open-selector`, `theme` (`light`/`dark`; the page's by default),
 * `surface` (`panel`, `push` or `modal`), `lang` (the UI text's language; the page's by default),
 * `launcher` (`false` hides the button), `nonce`, `label-<name>` (UI text), `turnstile` (a Cloudflare
 * Turnstile site key: a conversation's first question carries a Turnstile token).
 */
export function mountDocsAssistant(
  options: { api?: string; domain: string; key: string; questions?: string[] | string; [attribute: string]: unknown },
  parent?: HTMLElement,
): DocsAssistantElement;
