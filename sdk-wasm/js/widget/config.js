// The widget's settings, read from its element's attributes: `data-api` or `api` alike, so a script
// tag's `data-*` attributes and a `<docs-assistant>` element's own name the same things.

/** UI text; each is overridable by a `data-label-<name>` attribute (e.g. `data-label-title`). */
export const LABELS = {
  launcher: 'Ask AI',
  title: 'Ask AI',
  close: 'Close',
  newChat: 'New chat',
  placeholder: 'Ask a question about the docs…',
  question: 'Your question',
  send: 'Send',
  stop: 'Stop',
  regenerate: 'Regenerate',
  copy: 'Copy answer',
  copyCode: 'Copy code',
  copied: 'Copied',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  reason: 'What was wrong? (optional)',
  sendFeedback: 'Send feedback',
  thanks: 'Thanks for your feedback',
  sources: 'Sources',
  thisPage: 'About this page',
  selection: 'Selection',
  removeSelection: 'Remove the selection',
  intro: 'Answers come from this documentation, with links to the pages they cite.',
  starters: 'Suggested questions',
  you: 'You',
  assistant: 'Assistant',
  answering: 'Answering…',
  stopped: 'Stopped.',
  error: 'Something went wrong: ',
  notAllowed: 'The assistant is not enabled on this site.',
  transcript: 'Conversation',
};

function attr(el, name) {
  return el.getAttribute(`data-${name}`) ?? el.getAttribute(name);
}

/** `same-origin` is the page's own origin (a site that docs-edge-serve serves); otherwise a URL. */
export function apiBase(value, fallback) {
  const v = value || fallback || 'same-origin';
  return v === 'same-origin' ? location.origin : v.replace(/\/+$/, '');
}

export function readConfig(el, defaultApi) {
  const labels = { ...LABELS };
  for (const name of Object.keys(LABELS)) {
    const kebab = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const value = attr(el, `label-${kebab}`);
    if (value) labels[name] = value;
  }
  const domain = attr(el, 'domain') ?? '';
  const questions = (attr(el, 'questions') ?? '').split('|').map((q) => q.trim()).filter(Boolean).slice(0, 3);
  const theme = attr(el, 'theme');
  return {
    api: apiBase(attr(el, 'api'), defaultApi),
    domain,
    key: attr(el, 'key') ?? '',
    openSelector: attr(el, 'open-selector'),
    questions,
    labels,
    theme: theme === 'light' || theme === 'dark' ? theme : undefined,
    launcher: attr(el, 'launcher') !== 'false',
    nonce: attr(el, 'nonce') || el.nonce || undefined,
    storageKey: `docs-assistant:${domain}`,
    // On an exported page: the bundle's root (relative to the page) and its folder pages.
    linkBase: attr(el, 'link-base') == null ? undefined : new URL(attr(el, 'link-base'), location.href).href,
    linkIndex: new Set((attr(el, 'link-index') ?? '').split(' ').filter(Boolean)),
  };
}

/**
 * A link to the docs' live site (`https://<domain>/a/b#x`) as the exported bundle's own page
 * (`<linkBase>a/b.html#x`, `a/index.html` for a folder page, `index.html` for the root), as the
 * bundle's pages link to each other: a self-hosted or air-gapped copy keeps its reader in it. Any
 * other link, or any link off an exported page (no `linkBase`), is left as it is.
 */
export function bundleLink(href, { domain, linkBase, linkIndex }) {
  const url = new URL(href);
  if (!linkBase || url.host !== domain.toLowerCase() || !/^https?:$/.test(url.protocol)) return href;
  let path = url.pathname.replace(/^\/+|\/+$/g, '').replace(/\.(mdx?|html)$/, '');
  if (!path) path = 'index';
  else if (linkIndex.has(path)) path += '/index';
  return new URL(`${path}.html${url.hash}`, linkBase).href;
}
