// The widget's settings, read from its element's attributes: `data-api` or `api` alike, so a script
// tag's `data-*` attributes and a `<docs-assistant>` element's own name the same things.

/** The launcher's text per language; the panel's are in labels.js, loaded with it. */
export const LAUNCHER = {
  en: 'Ask AI',
  es: 'Preguntar a la IA',
  fr: 'Demander à l’IA',
  de: 'KI fragen',
  pt: 'Perguntar à IA',
  zh: '问 AI',
  ja: 'AI に質問',
  ko: 'AI에게 묻기',
};

/** Codes docs.json files use that are no language tags (Mintlify's `cn`, `jp`). */
const ALIASES = { cn: 'zh', jp: 'ja', kr: 'ko' };

/** The primary subtag of a language tag, lower case (`zh-Hans-CN` → `zh`, `cn` → `zh`). */
export function baseLanguage(lang) {
  const base = String(lang ?? '').split(/[-_]/)[0].toLowerCase();
  return ALIASES[base] ?? base;
}

const SURFACES = ['panel', 'push', 'modal'];

function attr(el, name) {
  return el.getAttribute(`data-${name}`) ?? el.getAttribute(name);
}

/** `same-origin` is the page's own origin (a site that docs-edge-serve serves); otherwise a URL. */
export function apiBase(value, fallback) {
  const v = value || fallback || 'same-origin';
  return v === 'same-origin' ? location.origin : v.replace(/\/+$/, '');
}

/**
 * Where readers who need more than an answer go: `data-support-url` (http or https only), else
 * `data-support-email` as a `mailto:` link; `undefined` without a usable one.
 */
export function supportLink(url, email) {
  try {
    const href = url && new URL(url, location.href);
    if (href && /^https?:$/.test(href.protocol)) return href.href;
  } catch {
    // not a URL: try the email
  }
  return email && /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email) ? `mailto:${email}` : undefined;
}

/** The support link docs.json gives (sent with each answer): `https:` or `mailto:` only. */
export function siteSupport(link) {
  return typeof link === 'string' && /^(https:\/\/|mailto:)[^\s"'<>\\`]+$/i.test(link) ? link : undefined;
}

export function readConfig(el, defaultApi) {
  // `data-label-new-chat` (or `label-new-chat`) overrides `newChat`, whatever the language.
  const labels = {};
  for (const { name, value } of el.attributes) {
    const m = /^(?:data-)?label-(.+)$/.exec(name);
    if (m && value) labels[m[1].replace(/-([a-z])/g, (_, c) => c.toUpperCase())] = value;
  }
  const lang = attr(el, 'lang') || document.documentElement.lang || 'en';
  const surface = attr(el, 'surface');
  const domain = attr(el, 'domain') ?? '';
  const questions = (attr(el, 'questions') ?? '').split('|').map((q) => q.trim()).filter(Boolean).slice(0, 3);
  const theme = attr(el, 'theme');
  return {
    api: apiBase(attr(el, 'api'), defaultApi),
    domain,
    key: attr(el, 'key') ?? '',
    openSelector: attr(el, 'open-selector'),
    questions,
    // Without `questions`: starter questions from the page's own headings.
    pageStarters: (attr(el, 'page-starters') ?? 'false') !== 'false',
    support: supportLink(attr(el, 'support-url'), attr(el, 'support-email')),
    labels,
    lang,
    launcherLabel: labels.launcher ?? LAUNCHER[baseLanguage(lang)] ?? LAUNCHER.en,
    // `panel` (beside the page, over it), `push` (beside it, the page narrowed) or `modal` (centred).
    surface: SURFACES.includes(surface) ? surface : 'panel',
    theme: theme === 'light' || theme === 'dark' ? theme : undefined,
    launcher: attr(el, 'launcher') !== 'false',
    nonce: attr(el, 'nonce') || el.nonce || undefined,
    storageKey: `docs-assistant:${domain}`,
    // On an exported page: the bundle's root (relative to the page) and its folder pages.
    linkBase: attr(el, 'link-base') == null ? undefined : new URL(attr(el, 'link-base'), location.href).href,
    linkIndex: new Set((attr(el, 'link-index') ?? '').split(' ').filter(Boolean)),
    // Cloudflare Turnstile's site key (turnstile.js); `turnstile-script` replaces its script in tests.
    turnstile: attr(el, 'turnstile') || undefined,
    turnstileScript: attr(el, 'turnstile-script') || undefined,
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
