// A worker of a test's own, started with its own variables (beside the shared one), with a tenant and
// the demo docs published: for tests of settings the shared worker must not have. `cleanup` gets the
// step that stops it and removes its state.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startWorker } from '../../scripts/lib/worker-process.mjs';
import { scratchDir } from '../../scripts/lib/scratch.mjs';
import { ROOT_TOKEN, tenant } from './api.mjs';
import { publishFolder } from './docs.mjs';

export async function startPublishedWorker(name, vars, cleanup) {
  const state = scratchDir(`docs-edge-${name}-`);
  const started = await startWorker({ persistTo: state, vars: { ROOT_TOKEN, ...vars } });
  cleanup.push(async () => {
    await started.stop();
    rmSync(state, { recursive: true, force: true });
  });
  const t = await tenant({ base: started.baseUrl });
  const published = await publishFolder(t.domain, t.adminKey, undefined, { base: started.baseUrl });
  assert.equal(published.status, 200, published.text);
  return { ...started, t };
}
