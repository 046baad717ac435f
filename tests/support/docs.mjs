// Docs archives for the tests: the demo docs, the big fixture, and hand-made unsafe archives.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packDocsFolder } from '../../scripts/lib/pack.mjs';
import { call } from './api.mjs';

export const DEMO_DOCS = fileURLToPath(new URL('../../web-demo/demo-docs', import.meta.url));
export const FIXTURE_DOCS = fileURLToPath(new URL('../../../shared/fixtures/mintlify-docs', import.meta.url));

export function publish(domain, adminKey, archive, options = {}) {
  return call('PUT', `/v1/sites/${domain}/content`, {
    token: adminKey,
    body: archive,
    headers: { 'content-type': 'application/gzip' },
    ...options,
  });
}

export async function publishFolder(domain, adminKey, folder = DEMO_DOCS, options = {}) {
  return publish(domain, adminKey, packDocsFolder(folder), options);
}

export { join };
