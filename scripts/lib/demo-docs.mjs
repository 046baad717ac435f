// Publishes the demo docs site (web-demo/demo-docs) to the demo domain so search and the assistant
// answer something out of the box. Publishing is idempotent: a restart publishes the same content again.
import { join } from 'node:path';
import { root } from './env.mjs';

export const DEMO_DOCS = join(root, 'web-demo', 'demo-docs');

export async function seedDemoDocs(baseUrl, demo) {
  // Imported here, not at the top: its npm dependencies are installed by the bootstrap that runs first.
  const { publishDocs } = await import('../publish-docs.mjs');
  return publishDocs({ baseUrl, adminKey: demo.adminKey, domain: demo.domain, folder: DEMO_DOCS });
}
