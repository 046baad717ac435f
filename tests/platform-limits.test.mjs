// Tenants that misbehave, on a worker of its own with test-only settings: an export step that kills
// its isolate (TEST_EXPORT_FAULT_DOMAIN) fails the job after its attempts and leaves the domain free;
// jobs can be cancelled.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, addDomain, assertError, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { startExport, waitForJob } from './support/export.mjs';

const FAULT_DOMAIN = 'crash.export.test';
const state = mkdtempSync(join(tmpdir(), 'docs-edge-limits-'));
const vars = { ROOT_TOKEN, LINK_SIGNING_KEY: process.env.LINK_SIGNING_KEY, TEST_EXPORT_FAULT_DOMAIN: FAULT_DOMAIN };
let worker;
let base;

before(async () => {
  worker = await startWorker({ persistTo: state, vars });
  base = worker.baseUrl;
});

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const cancel = (adminKey, jobId) => call('DELETE', `/v1/static-export/jobs/${jobId}`, { token: adminKey, base });

test('an export step that kills its isolate fails the job after three attempts; the domain can start again', async () => {
  const t = await tenant({ base });
  await addDomain(t.org.orgId, FAULT_DOMAIN, base);
  assert.equal((await publishFolder(FAULT_DOMAIN, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const start = await startExport(t.adminKey, { domain: FAULT_DOMAIN }, base);
  assert.equal(start.status, 202, start.text);

  const { job, seen } = await waitForJob(t.adminKey, start.body.jobId, { base, intervalMs: 500, timeoutMs: 120_000 });
  assert.equal(job.status, 'failed');
  assert.match(job.error, /after 3 attempt\(s\).*never finished/);
  assert.ok(seen.length > 1);
  // Polling a failed job neither revives it nor changes it.
  const again = await call('GET', `/v1/static-export/jobs/${job.jobId}`, { token: t.adminKey, base });
  assert.deepEqual(again.body, job);
  // The isolate came back: other requests work.
  assert.equal((await call('GET', '/health', { base })).status, 200);
  // The failed job no longer holds the domain.
  const next = await startExport(t.adminKey, { domain: FAULT_DOMAIN }, base);
  assert.equal(next.status, 202, next.text);
  assert.equal((await cancel(t.adminKey, next.body.jobId)).body.status, 'cancelled');
});

test('DELETE cancels a queued or running job: 404 for another organization, 409 once it is over', async () => {
  const t = await tenant({ base });
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base })).status, 200);
  const start = await startExport(t.adminKey, { domain: t.domain }, base);
  assert.equal(start.status, 202, start.text);
  const jobId = start.body.jobId;

  const stranger = await tenant({ base });
  assertError(await cancel(stranger.adminKey, jobId), 404, 'not_found');
  assertError(await cancel(t.assistantKey, jobId), 403, 'wrong_key_kind');

  const cancelled = await cancel(t.adminKey, jobId);
  if (cancelled.status === 409) {
    // The demo docs are small: the job may have completed before the cancel arrived.
    assert.equal(cancelled.body.code, 'job_not_active');
    assert.match(cancelled.body.error, /completed/);
  } else {
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.match(cancelled.body.error, /cancelled/);
    const polled = await call('GET', `/v1/static-export/jobs/${jobId}`, { token: t.adminKey, base });
    assert.equal(polled.body.status, 'cancelled');
    assertError(await call('POST', `/v1/static-export/jobs/${jobId}/bundle`, { token: t.adminKey, base }), 409, 'job_not_completed');
  }
  assertError(await cancel(t.adminKey, jobId), 409, 'job_not_active');
  const next = await startExport(t.adminKey, { domain: t.domain }, base);
  assert.equal(next.status, 202, next.text);
});

test('a domain given to another organization brings none of the previous owner\'s content', async () => {
  const a = await tenant({ base });
  assert.equal((await publishFolder(a.domain, a.adminKey, DEMO_DOCS, { base })).status, 200);
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
  const report = await asB('GET', `/v1/analytics/${a.domain}`, b.adminKey);
  assert.equal(report.status, 200, report.text);
  assert.equal(report.body.totals.questions, 0, 'the previous owner\'s questions are not in the new owner\'s report');

  // B's own publish is served as usual.
  assert.equal((await publishFolder(a.domain, b.adminKey, DEMO_DOCS, { base })).status, 200);
  assert.equal((await asB('POST', `/discovery/v1/page/${a.domain}`, b.assistantKey, { path: 'index' })).status, 200);
});
