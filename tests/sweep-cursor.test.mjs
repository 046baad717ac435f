// The storage sweep looks at a bounded number of R2 list pages per daily run and resumes from a
// cursor in KV the next day. On a worker of its own with tiny list pages (TEST_SWEEP_PAGE_KEYS,
// TEST_SWEEP_PAGES: four keys per run), a domain whose live version lists first fills the first run;
// only a run that resumes where the last stopped reaches the replaced version of the domain after it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, addDomain, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { runSweep } from './support/sweep.mjs';

const KEYS_PER_RUN = 4;
let worker;
let base;

before(async () => {
  worker = await startWorker({
    persistTo: scratchDir('docs-edge-sweep-cursor-'),
    vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', PUBLISH_RETENTION_DAYS: '0', TEST_SWEEP_PAGE_KEYS: '2', TEST_SWEEP_PAGES: '2' },
    testScheduled: true,
  });
  base = worker.baseUrl;
});

after(async () => {
  await worker?.stop();
});

let sweeps = 0;

/** Runs the daily jobs; answers how many objects the storage sweep deleted. */
async function sweep() {
  sweeps += 1;
  return runSweep(worker, `17 3 * * * run-${sweeps}`);
}

test('a sweep that stops short resumes from its cursor on the next run and reaches every key', async () => {
  const t = await tenant({ base });
  // R2 lists keys in order: `sites/a-…` (live only) before `sites/z-…` (one replaced version).
  const first = await addDomain(t.org.orgId, 'a-live.sweep.test', base);
  const last = await addDomain(t.org.orgId, 'z-replaced.sweep.test', base);
  assert.equal((await publishFolder(first, t.adminKey, DEMO_DOCS, { base })).status, 200);
  for (let i = 0; i < 2; i++) assert.equal((await publishFolder(last, t.adminKey, DEMO_DOCS, { base })).status, 200);

  assert.equal(await sweep(), 0, `the first run's ${KEYS_PER_RUN} keys are the first domain's live version`);
  let deleted = 0;
  let runs = 1;
  while (deleted === 0 && runs < 100) {
    deleted += await sweep();
    runs += 1;
  }
  assert.ok(deleted > 0, `runs that resume reach the replaced version (${runs} runs)`);
  assert.ok(runs > 1, 'the first run stopped short of it');
  // The rest of the replaced version goes in the next runs; then whole cycles over both domains
  // (160 keys, more than they hold) find nothing more: the cursor wraps back to the start.
  for (let i = 0; i < 40; i++) deleted += await sweep();
  let after = 0;
  for (let i = 0; i < 40; i++) after += await sweep();
  assert.equal(after, 0, `nothing is left to delete after ${deleted}`);
  for (const domain of [first, last]) {
    const page = await call('POST', `/discovery/v1/page/${domain}`, { token: t.assistantKey, json: { path: 'index' }, base });
    assert.equal(page.status, 200, `${domain}'s live version is served after the sweeps`);
  }
});
