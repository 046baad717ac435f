// Tenants that misbehave, on a worker of its own with test-only settings: the storage sweep (zero-day
// retention), an upload past its limit, publish and export-start limits under concurrency, an export step that kills its
// isolate (TEST_EXPORT_FAULT_DOMAIN: it dies after its attempt is stored), cancelling a job in the middle
// of a step (TEST_EXPORT_STEP_DELAY_*: each batch step of one domain waits after writing its part, and
// each step of a hosted export's after its switch), a cancel once a hosted export is live, and a
// domain that changes hands.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, addDomain, assertError, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { startExport, waitForJob } from './support/export.mjs';
import { underHost } from './support/hosting.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { publishFolder as publishFiles, SiteApi } from '../sdk-wasm/js/publish/index.js';

const FAULT_DOMAIN = 'crash.export.test';
const SLOW_DOMAIN = 'slow.export.test';
const STEP_DELAY_MS = 3000;
// The demo site's archive is about 2 KB.
const UPLOAD_LIMIT = 100_000;
const state = scratchDir('docs-edge-limits-');
const vars = {
  ROOT_TOKEN,
  LINK_SIGNING_KEY: process.env.LINK_SIGNING_KEY,
  TEST_EXPORT_FAULT_DOMAIN: FAULT_DOMAIN,
  TEST_EXPORT_STEP_DELAY_DOMAIN: SLOW_DOMAIN,
  TEST_EXPORT_STEP_DELAY_MS: String(STEP_DELAY_MS),
  PUBLISH_RETENTION_DAYS: '0',
  EXPORT_RETENTION_DAYS: '0',
  PUBLISHES_PER_HOUR: '4',
  EXPORT_STARTS_PER_HOUR: '2',
  MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT),
};
let worker;
let base;
/** The organization the cancel test gives SLOW_DOMAIN to (the hosted cancel test takes it over). */
let slowOrgId;

before(async () => {
  worker = await startWorker({ persistTo: state, vars, testScheduled: true });
  base = worker.baseUrl;
});

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

/** Runs the daily jobs; answers how many objects the storage sweep deleted. */
async function sweep() {
  const seen = (worker.output().match(/"job":"storage_retention"/g) ?? []).length;
  const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent('17 3 * * *')}`);
  assert.equal(res.status, 200, await res.text());
  for (let i = 0; i < 100; i++) {
    const lines = worker.output().split('\n').filter((l) => l.includes('"job":"storage_retention"'));
    if (lines.length > seen) {
      const line = JSON.parse(lines.at(-1).slice(lines.at(-1).indexOf('{')));
      assert.equal(line.error, undefined, lines.at(-1));
      return line.deleted;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the storage sweep logged nothing');
}

// First in the file: the sweep counts only what this test stored.
test('the daily sweep deletes replaced versions and old export files, never the live version', async () => {
  const t = await tenant({ base });
  for (let i = 0; i < 2; i++) assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const perVersion = await sweep();
  assert.ok(perVersion >= 2, `the replaced version's objects (source, index, agent documents): ${perVersion}`);
  assert.equal(await sweep(), 0, 'nothing else is unreferenced');
  const page = () => call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path: 'index' }, base });
  assert.equal((await page()).status, 200, 'the live version is served after the sweep');
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base })).status, 200);
  assert.equal(await sweep(), perVersion, 'the next replaced version goes the same way');
  assert.equal((await page()).status, 200);

  const job = await startExport(t.adminKey, { domain: t.domain }, base);
  assert.equal((await waitForJob(t.adminKey, job.body.jobId, { base })).job.status, 'completed');
  assert.ok(await sweep() >= 1, 'the job\'s parts are deleted');
  // Zero-day export retention: the bundle has expired, a clear 409 rather than a missing file.
  const bundle = await call('POST', `/v1/static-export/jobs/${job.body.jobId}/bundle`, { token: t.adminKey, base });
  assertError(bundle, 409, 'bundle_expired');
  assert.match(bundle.body.error, /EXPORT_RETENTION_DAYS/);
});

/** A `.tar.gz` upload of `body` sent chunked, with no declared length: `{status, text}`. */
function uploadChunked(domain, adminKey, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/v1/sites/${domain}/content`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/gzip', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('an upload past MAX_UPLOAD_BYTES is a 413, declared or counted as it streams, and the next publish goes live', async () => {
  const t = await tenant({ base });
  const over = Buffer.alloc(UPLOAD_LIMIT + 1);
  const declared = await call('PUT', `/v1/sites/${t.domain}/content`, { token: t.adminKey, body: over, headers: { 'content-type': 'application/gzip' }, base });
  assertError(declared, 413, 'payload_too_large');
  const counted = await uploadChunked(t.domain, t.adminKey, over);
  assert.equal(counted.status, 413, counted.text);
  assert.equal(JSON.parse(counted.text).code, 'payload_too_large');
  const res = await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base });
  assert.equal(res.status, 200, res.text);
});

test('publishes past PUBLISHES_PER_HOUR are 429 with Retry-After; the live version stays', async () => {
  const t = await tenant({ base });
  for (let i = 0; i < 4; i++) assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const before = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey, base });
  const refused = await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base });
  assertError(refused, 429, 'rate_limited');
  assert.match(refused.body.error, /at most 4 publishes per organization per hour/);
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert.ok(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  assert.deepEqual((await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey, base })).body, before.body);
});

test('concurrent export starts on different domains cannot pass EXPORT_STARTS_PER_HOUR together', async () => {
  const t = await tenant({ base });
  const domains = [t.domain, await addDomain(t.org.orgId, undefined, base), await addDomain(t.org.orgId, undefined, base)];
  for (const domain of domains) assert.equal((await publishFolder(domain, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const starts = await Promise.all(domains.map((domain) => startExport(t.adminKey, { domain }, base)));
  const statuses = starts.map((r) => r.status).sort();
  assert.deepEqual(statuses, [202, 202, 429], starts.map((r) => r.text).join('\n'));
  const refused = starts.find((r) => r.status === 429);
  assertError(refused, 429, 'rate_limited');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
});

const cancel = (adminKey, jobId) => call('DELETE', `/v1/static-export/jobs/${jobId}`, { token: adminKey, base });

test('an export step that kills its isolate fails the job after three attempts; the domain can start again', async () => {
  const t = await tenant({ base });
  await addDomain(t.org.orgId, FAULT_DOMAIN, base);
  assert.equal((await publishFolder(FAULT_DOMAIN, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const start = await startExport(t.adminKey, { domain: FAULT_DOMAIN }, base);
  assert.equal(start.status, 202, start.text);

  const { job, seen } = await waitForJob(t.adminKey, start.body.jobId, { base, intervalMs: 500, timeoutMs: 120_000 });
  assert.ok(seen.some((j) => j.status === 'running'), 'the job was seen running between its attempts');
  assert.equal(job.status, 'failed');
  assert.match(job.error, /after 3 attempt\(s\).*never finished/);
  // Polling a failed job neither revives it nor changes it.
  const again = await call('GET', `/v1/static-export/jobs/${job.jobId}`, { token: t.adminKey, base });
  assert.deepEqual(again.body, job);
  // The failed job no longer holds the domain.
  const next = await startExport(t.adminKey, { domain: FAULT_DOMAIN }, base);
  assert.equal(next.status, 202, next.text);
  assert.equal((await cancel(t.adminKey, next.body.jobId)).body.status, 'cancelled');
});

/** Waits until the worker logged `event` for `jobId` (at least `count` times). */
async function logged(event, jobId, count = 1) {
  const pattern = new RegExp(`"event":"${event}","jobId":"${jobId}"`, 'g');
  for (let i = 0; i < 300; i++) {
    if ((worker.output().match(pattern) ?? []).length >= count) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${event} logged for ${jobId}`);
}

test('DELETE cancels a running job mid-step: the step\'s write-back does not revive it; 404 for another organization, 409 once it is over', async () => {
  const t = await tenant({ base });
  slowOrgId = t.org.orgId;
  await addDomain(t.org.orgId, SLOW_DOMAIN, base);
  assert.equal((await publishFolder(SLOW_DOMAIN, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const start = await startExport(t.adminKey, { domain: SLOW_DOMAIN }, base);
  assert.equal(start.status, 202, start.text);
  const jobId = start.body.jobId;

  const stranger = await tenant({ base });
  assertError(await cancel(stranger.adminKey, jobId), 404, 'not_found');
  assertError(await cancel(t.assistantKey, jobId), 403, 'wrong_key_kind');

  // The first batch step has written its part and waits (TEST_EXPORT_STEP_DELAY_MS) before the alarm
  // stores the job: the cancel lands while the alarm holds its `running` copy.
  await logged('export_step_delay', jobId);
  const cancelled = await cancel(t.adminKey, jobId);
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.body.status, 'cancelled');
  assert.match(cancelled.body.error, /cancelled/);

  // The step ends after the cancel; it must drop its result rather than store `running` and re-arm
  // (which revived the job: it ran on and completed with its first part deleted).
  await new Promise((r) => setTimeout(r, STEP_DELAY_MS + 1500));
  const polled = await call('GET', `/v1/static-export/jobs/${jobId}`, { token: t.adminKey, base });
  assert.equal(polled.body.status, 'cancelled', polled.text);
  assert.equal(polled.body.updatedAt, cancelled.body.updatedAt, 'nothing was stored after the cancel');
  await logged('export_step_discarded', jobId);
  assert.equal((worker.output().match(new RegExp(`"event":"export_step_delay","jobId":"${jobId}"`, 'g')) ?? []).length, 1,
    'no further step ran');
  assertError(await call('POST', `/v1/static-export/jobs/${jobId}/bundle`, { token: t.adminKey, base }), 409, 'job_not_completed');
  assertError(await cancel(t.adminKey, jobId), 409, 'job_not_active');

  const next = await startExport(t.adminKey, { domain: SLOW_DOMAIN }, base);
  assert.equal(next.status, 202, next.text);
  assert.equal((await cancel(t.adminKey, next.body.jobId)).body.status, 'cancelled');
});

test('a cancel once a hosted export is live is 409: the site serves it, and the job completes', async () => {
  const t = await tenant({ base });
  const removed = await call('DELETE', `/v1/admin/orgs/${slowOrgId}/domains/${SLOW_DOMAIN}`, { token: ROOT_TOKEN, base });
  assert.equal(removed.status, 204, removed.text);
  await addDomain(t.org.orgId, SLOW_DOMAIN, base);
  assert.equal((await publishFolder(SLOW_DOMAIN, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const on = await call('PUT', `/v1/admin/orgs/${t.org.orgId}/domains/${SLOW_DOMAIN}/hosting`, { token: ROOT_TOKEN, json: { enabled: true }, base });
  assert.equal(on.status, 200, on.text);
  const jobId = on.body.exportJob.jobId;
  // The live pointer names the export; its next step (writing the bundle's last parts) waits
  // (TEST_EXPORT_STEP_DELAY_MS), and the cancel lands then. Accepted, it deleted the parts the site's
  // next export takes its unchanged pages from, and the bundle could never be minted.
  await logged('site_live', jobId);
  const delays = (worker.output().match(new RegExp(`"event":"export_step_delay","jobId":"${jobId}"`, 'g')) ?? []).length;
  await logged('export_step_delay', jobId, delays + 1);
  assertError(await cancel(t.adminKey, jobId), 409, 'job_site_live');
  const { job } = await waitForJob(t.adminKey, jobId, { base });
  assert.equal(job.status, 'completed', job.error);
  const served = await underHost(base, SLOW_DOMAIN, '/_docs-edge/manifest.json');
  assert.equal(served.status, 200);
  assert.equal(JSON.parse(served.body.toString()).jobId, jobId, 'the site serves the export');
});

test('a domain given to another organization brings none of the previous owner\'s content', async () => {
  const a = await tenant({ base });
  assert.equal((await publishFolder(a.domain, a.adminKey, DEMO_DOCS, { base })).status, 200);
  // File by file too, so the domain's store holds A's files when the domain changes hands.
  const byFile = await publishFiles({ folder: DEMO_DOCS, baseUrl: base, adminKey: a.adminKey, domain: a.domain, noFetch: true, pollMs: 100 });
  assert.equal(byFile.site.domain, a.domain);
  const aFiles = readdirSync(DEMO_DOCS, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const aHashes = aFiles.map((file) => createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 32));
  assert.deepEqual(await new SiteApi({ baseUrl: base, adminKey: a.adminKey, domain: a.domain }).missing(aHashes), []);
  const ask = { fp: 'anonymous', messages: [{ id: '1', role: 'user', content: 'rate limits', parts: [{ type: 'text', text: 'rate limits' }] }] };
  const answer = await fetch(`${base}/discovery/v1/assistant/${a.domain}/message`, {
    method: 'POST', headers: { authorization: `Bearer ${a.assistantKey}`, 'content-type': 'application/json' }, body: JSON.stringify(ask),
  });
  assert.equal(answer.status, 200);
  await answer.text();
  const threadId = answer.headers.get('x-thread-id');
  assert.ok(threadId);
  const job = await startExport(a.adminKey, { domain: a.domain }, base);
  assert.equal(job.status, 202, job.text);
  assert.equal((await waitForJob(a.adminKey, job.body.jobId, { base })).job.status, 'completed');

  const removed = await call('DELETE', `/v1/admin/orgs/${a.org.orgId}/domains/${a.domain}`, { token: ROOT_TOKEN, base });
  assert.equal(removed.status, 204, removed.text);
  const b = await tenant({ base });
  await addDomain(b.org.orgId, a.domain, base);

  const asB = (method, path, token, json) => call(method, path, { token, json, base });
  assertError(await asB('POST', `/discovery/v1/search/${a.domain}`, b.assistantKey, { query: 'rate limits' }), 404, 'not_found');
  assertError(await asB('POST', `/discovery/v1/page/${a.domain}`, b.assistantKey, { path: 'index' }), 404, 'not_found');
  assertError(await asB('POST', `/discovery/v1/assistant/${a.domain}/message`, b.assistantKey, ask), 404, 'not_found');
  assertError(await asB('GET', `/discovery/v1/llms/${a.domain}/llms.txt`, b.assistantKey), 404, 'not_found');
  assertError(await asB('GET', `/v1/sites/${a.domain}`, b.adminKey), 404, 'not_found');
  assertError(await asB('POST', '/v1/static-export/jobs', b.adminKey, { domain: a.domain }), 404, 'not_found');
  assertError(await asB('GET', `/v1/static-export/jobs/${job.body.jobId}`, b.adminKey), 404, 'not_found');
  assertError(await asB('POST', `/v1/static-export/jobs/${job.body.jobId}/bundle`, b.adminKey), 404, 'not_found');
  assertError(await asB('GET', `/v1/threads/${threadId}`, b.adminKey), 404, 'not_found');
  // A's files are still in the domain's store until the sweep, but not B's: asked one by one
  // (few hashes) or by listing the store (many), B is told it holds none of them, and may not
  // commit a version made of them.
  const asBFiles = new SiteApi({ baseUrl: base, adminKey: b.adminKey, domain: a.domain });
  assert.deepEqual((await asBFiles.missing(aHashes)).sort(), [...aHashes].sort());
  const fillers = Array.from({ length: 60 }, (_, i) => createHash('sha256').update(`absent ${i}`).digest('hex').slice(0, 32));
  assert.deepEqual((await asBFiles.missing([...aHashes, ...fillers])).sort(), [...aHashes, ...fillers].sort());
  const commit = await call('POST', `/v1/sites/${a.domain}/publishes`, {
    token: b.adminKey,
    base,
    body: gzipSync(JSON.stringify({ files: Object.fromEntries(aFiles.map((file, i) => [relative(DEMO_DOCS, file), aHashes[i]])) })),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  assertError(commit, 400, 'missing_files');
  const report = await asB('GET', `/v1/analytics/${a.domain}`, b.adminKey);
  assert.equal(report.status, 200, report.text);
  assert.equal(report.body.totals.questions, 0, 'the previous owner\'s questions are not in the new owner\'s report');

  // B's own publish is served as usual.
  assert.equal((await publishFolder(a.domain, b.adminKey, DEMO_DOCS, { base })).status, 200);
  assert.equal((await asB('POST', `/discovery/v1/page/${a.domain}`, b.assistantKey, { path: 'index' })).status, 200);
});
