// Docs archives for the tests: a small docs site (tests/fixtures/demo-docs), the big fixture, and hand-made unsafe archives.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packDocsFolder } from '../../scripts/lib/pack.mjs';
import { call } from './api.mjs';

export const DEMO_DOCS = fileURLToPath(new URL('../fixtures/demo-docs', import.meta.url));
export const FIXTURE_DOCS = fileURLToPath(new URL('../../../shared/fixtures/mintlify-docs', import.meta.url));

/**
 * Publishes an archive and waits until it is live or failed: a 202 (the publish outlived the
 * request's wait) is followed to its status resource. Live answers as `GET /v1/sites/{domain}` does
 * (200, the published site); failed as the status resource (with `body.status === 'failed'`).
 * `options.wait: false` returns the PUT's own answer; `options.onStatus` sees each status polled.
 */
export async function publish(domain, adminKey, archive, { wait = true, onStatus, ...options } = {}) {
  const res = await call('PUT', `/v1/sites/${domain}/content`, {
    token: adminKey,
    body: archive,
    headers: { 'content-type': 'application/gzip' },
    ...options,
  });
  if (res.status !== 202 || !wait) return res;
  const status = await waitForPublish(domain, adminKey, res.body.publishId, { ...options, onStatus });
  if (status.body?.status !== 'live') return status;
  return call('GET', `/v1/sites/${domain}`, { token: adminKey, ...options });
}

/** Polls a publish's status resource until it is `live` or `failed` (or `timeoutMs` passes),
 * showing `onStatus` each status read. */
export async function waitForPublish(domain, adminKey, publishId, { timeoutMs = 300_000, onStatus = () => {}, ...options } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', `/v1/sites/${domain}/publishes/${publishId}`, { token: adminKey, ...options });
    if (res.status === 200) onStatus(res.body);
    if (res.status !== 200 || ['live', 'failed'].includes(res.body.status) || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function publishFolder(domain, adminKey, folder = DEMO_DOCS, options = {}) {
  return publish(domain, adminKey, packDocsFolder(folder), options);
}

export { join };
