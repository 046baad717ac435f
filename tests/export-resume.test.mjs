// A static export job survives its worker being killed mid-job: after a restart on the same local
// state it resumes from the last finished batch and completes, and its files equal an uninterrupted
// run's, byte for byte.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles, readFile } from './support/export.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const state = scratchDir('docs-edge-resume-');
// Small batches make a long job with many batch boundaries to be killed between (or inside). The
// analytics beacon is off: its address is the origin the job was started from, and the two runs
// compared here listen on different ports.
const vars = { ROOT_TOKEN, LINK_SIGNING_KEY: process.env.LINK_SIGNING_KEY, EXPORT_BATCH_PAGES: '20', FEATURE_ANALYTICS: 'false' };
let worker;
const cleanup = [];

after(async () => {
  await worker?.stop();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

async function exportToFolder(adminKey, jobId, base) {
  const bundle = await requestBundle(adminKey, jobId, base);
  assert.equal(bundle.status, 200, bundle.text);
  const { dir } = await downloadBundle(bundle.body.bundleUrl);
  cleanup.push(dir);
  return dir;
}

test('killed mid-job, restarted: the job completes with the same files as an uninterrupted run', async () => {
  worker = await startWorker({ persistTo: state, vars });
  const base = worker.baseUrl;
  const t = await tenant({ base });
  assert.equal((await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS, { base })).status, 200);
  const start = await startExport(t.adminKey, { domain: t.domain }, base);
  assert.equal(start.status, 202, start.text);
  const jobId = start.body.jobId;

  let before;
  const stop = new Error('stopping mid-job');
  try {
    await waitForJob(t.adminKey, jobId, {
      base,
      intervalMs: 50,
      onStatus(job) {
        if (job.progress >= 15) {
          before = job;
          throw stop;
        }
      },
    });
  } catch (err) {
    if (err !== stop) throw err;
  }
  assert.ok(before, 'the job was seen running');
  assert.equal(before.status, 'running');
  assert.ok(before.progress < 90, `the job was stopped early enough (${before.progress}%)`);
  await worker.kill();

  worker = await startWorker({ persistTo: state, vars });
  const resumedBase = worker.baseUrl;
  const { job, seen } = await waitForJob(t.adminKey, jobId, { base: resumedBase });
  assert.equal(job.status, 'completed', job.error);
  assert.ok(seen[0].pageCount >= before.pageCount - 20, 'resumed from the last finished batch, not from the start');
  assert.ok(seen[0].progress >= before.progress - 2);
  const resumed = await exportToFolder(t.adminKey, jobId, resumedBase);

  const again = await startExport(t.adminKey, { domain: t.domain }, resumedBase);
  assert.equal(again.status, 202, again.text);
  const uninterrupted = await waitForJob(t.adminKey, again.body.jobId, { base: resumedBase });
  assert.equal(uninterrupted.job.status, 'completed');
  const reference = await exportToFolder(t.adminKey, again.body.jobId, resumedBase);

  const files = listFiles(resumed);
  assert.deepEqual(files, listFiles(reference));
  assert.ok(files.length > 1000);
  for (const file of files) {
    if (file === '_docs-edge/manifest.json') continue;
    assert.ok(readFile(resumed, file).equals(readFile(reference, file)), `${file} differs after the restart`);
  }
  // The manifest names its own job and when it started; everything else is the same.
  const manifest = (dir) => JSON.parse(readFile(dir, '_docs-edge/manifest.json'));
  const { jobId: resumedJob, createdAt: resumedAt, ...resumedRest } = manifest(resumed);
  const { jobId: referenceJob, createdAt: referenceAt, ...referenceRest } = manifest(reference);
  assert.equal(resumedJob, jobId);
  assert.equal(referenceJob, again.body.jobId);
  assert.ok(resumedAt && referenceAt);
  assert.deepEqual(resumedRest, referenceRest);
});
