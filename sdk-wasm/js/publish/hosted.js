// Waiting for a hosted site to serve a publish: a domain hosted by the service serves its export's
// manifest (`_docs-edge/manifest.json`, naming the publish it rendered) at its own URL; once the
// publish is live, the site's export runs, and its manifest names another publish when it is done.
import { DocsEdgeError } from '../errors.js';
import { sleep } from '../http.js';

const MANIFEST = '_docs-edge/manifest.json';

/** `https://<domain>` unless `url` names the site (a path prefix, another scheme or port); no trailing slash. */
export function siteUrl(domain, url) {
  return (url ?? `https://${domain}`).replace(/\/+$/, '');
}

/** The publish the site at `url` is served from; `null` when it serves no export (yet). */
export async function servedPublish(url, fetch = globalThis.fetch) {
  try {
    const res = await fetch(`${url}/${MANIFEST}`, { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!res.ok) return null;
    return (await res.json()).publishId ?? null;
  } catch {
    return null;
  }
}

/**
 * Resolves once the site at `url` is served from a publish other than `before` (what it served
 * before the publish); rejects with `site_not_live` after `timeoutMs`.
 */
export async function waitForSite(url, before, { fetch = globalThis.fetch, timeoutMs = 600_000, pollMs = 1000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const served = await servedPublish(url, fetch);
    if (served && served !== before) return served;
    if (Date.now() >= deadline) {
      throw new DocsEdgeError(`the site at ${url} did not serve the new version within ${Math.round(timeoutMs / 1000)} s: is hosting on for the domain, and does the hostname reach the service?`, { code: 'site_not_live' });
    }
    await sleep(pollMs);
  }
}
