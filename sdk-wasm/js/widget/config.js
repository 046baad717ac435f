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
  };
}
