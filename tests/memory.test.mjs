// The isolate's memory as the log reports it. `wrangler dev` does not enforce Cloudflare's 128 MB per
// isolate, so this test reads `wasmMemoryBytes` from the worker's own log lines and budgets it: a
// fresh worker (its own isolate, so other tests' work does not count) publishes the 1,057-page
// fixture, searches it and answers from it, and must stay under the platform limit with a margin; the
// publish's memory stays in the builder script's isolate.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, call, tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { logLines as allLogLines } from '../scripts/lib/worker-log.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const state = scratchDir('docs-edge-memory-');
const logFile = join(state, 'worker.log');
let worker;

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const PLATFORM_BYTES = 128 * 1024 * 1024;
/** What this workload may reach: the platform limit less a quarter for other tenants and headroom. */
const BUDGET_BYTES = 96 * 1024 * 1024;

/** The request-serving isolate searches and answers; the fixture's publish (about 25 MiB through
 * the stages) is the builder script's. */
const SERVING_BUDGET_BYTES = 24 * 1024 * 1024;
const BUILDER_CLASSES = ['PublishJob', 'ExportJob'];

const logLines = () => allLogLines(logFile);

async function linesFor(requestIds) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = logLines().filter((l) => l.event === 'request' && requestIds.includes(l.requestId));
    if (lines.length === requestIds.length || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('every request and Durable Object log line carries wasmMemoryBytes, inside the budget', async () => {
  worker = await startWorker({ persistTo: join(state, 'state'), logFile, vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here' } });
  const base = worker.baseUrl;
  const t = await tenant({ base });
  const published = await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS, { base });
  assert.equal(published.status, 200, published.text);
  const search = await call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query: 'static export bundle' }, base });
  assert.equal(search.status, 200, search.text);
  const answer = await fetch(`${base}/discovery/v1/assistant/${t.domain}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'q1', role: 'user', content: 'How do I rotate an API key?' }] }),
  });
  assert.equal(answer.status, 200);
  await answer.text();
  const threadId = answer.headers.get('x-thread-id');
  const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey, base });
  assert.equal(thread.status, 200, thread.text);

  const ids = [published, search, answer, thread].map((r) => r.headers.get('x-request-id'));
  const lines = await linesFor(ids);
  assert.equal(lines.length, ids.length, 'one request line each');
  for (const line of lines) {
    assert.ok(Number.isInteger(line.wasmMemoryBytes) && line.wasmMemoryBytes > 0, JSON.stringify(line));
    assert.equal(line.wasmMemoryBytes % 65536, 0, 'whole wasm pages');
  }
  const durable = logLines().filter((l) => l.event === 'durable' && l.class === 'AssistantThread');
  assert.ok(durable.length > 0, 'the thread object logs its operations');
  assert.ok(durable.every((l) => Number.isInteger(l.wasmMemoryBytes) && l.wasmMemoryBytes > 0));

  const highWater = Math.max(...logLines().map((l) => l.wasmMemoryBytes ?? 0));
  console.log(`wasmMemoryBytes high-water: ${(highWater / 1048576).toFixed(1)} MiB (budget ${BUDGET_BYTES / 1048576} MiB of ${PLATFORM_BYTES / 1048576})`);
  assert.ok(highWater <= BUDGET_BYTES, `high-water ${highWater} bytes is over the ${BUDGET_BYTES}-byte budget`);

  // The publish ran in the builder script's isolate; the request-serving one only searched and answered.
  const builderLine = (l) => l.event === 'publish_step' || (l.event === 'durable' && BUILDER_CLASSES.includes(l.class));
  const measured = logLines().filter((l) => Number.isInteger(l.wasmMemoryBytes));
  const builder = Math.max(...measured.filter(builderLine).map((l) => l.wasmMemoryBytes));
  const serving = Math.max(...measured.filter((l) => !builderLine(l)).map((l) => l.wasmMemoryBytes));
  console.log(`wasmMemoryBytes high-water: builder ${(builder / 1048576).toFixed(1)} MiB, request-serving ${(serving / 1048576).toFixed(1)} MiB (budget ${SERVING_BUDGET_BYTES / 1048576} MiB)`);
  assert.ok(builder > serving, `the builder's isolate built the fixture (${builder} bytes, serving ${serving})`);
  assert.ok(serving <= SERVING_BUDGET_BYTES, `the request-serving isolate reached ${serving} bytes: a publish's memory is not its own`);
});
