// Publishes this project's own documentation (docs/) to the demo domain, so the demo site, its search
// and its assistant are about docs-edge itself. Publishing is idempotent: a restart publishes the same
// content again.
import { join } from 'node:path';
import { root } from './env.mjs';

export const DEMO_DOCS = join(root, 'docs');

export async function seedDemoDocs(baseUrl, demo) {
  // Imported here, not at the top: its npm dependencies are installed by the bootstrap that runs first.
  const { publishDocs } = await import('../publish-docs.mjs');
  return publishDocs({ baseUrl, adminKey: demo.adminKey, domain: demo.domain, folder: DEMO_DOCS });
}
