// Conversation threads expire THREAD_RETENTION_DAYS after their last turn (the thread object's alarm
// deletes its storage). On a worker of its own where TEST_THREAD_RETENTION_MS makes that period short.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, assertError, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const RETENTION_MS = 1500;
let worker;
let t;

before(async () => {
  worker = await startWorker({
    persistTo: scratchDir('docs-edge-thread-retention-'),
    vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', TEST_THREAD_RETENTION_MS: String(RETENTION_MS) },
  });
  t = await tenant({ base: worker.baseUrl });
  const published = await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base: worker.baseUrl });
  assert.equal(published.status, 200, published.text);
});

after(async () => {
  await worker?.stop();
});

async function ask(text, threadId) {
  const res = await call('POST', `/discovery/v1/assistant/${t.domain}/message`, {
    base: worker.baseUrl,
    token: t.assistantKey,
    json: { fp: 'anonymous', ...(threadId && { threadId }), messages: [{ role: 'user', content: text }] },
  });
  return res;
}

const readThread = (threadId) => call('GET', `/v1/threads/${threadId}`, { base: worker.baseUrl, token: t.adminKey });

test('a thread with no turn for the retention period is deleted; continuing it is then a 404', async () => {
  const first = await ask('What are the rate limits?');
  assert.equal(first.status, 200, first.text);
  const threadId = first.headers.get('x-thread-id');
  const second = await ask('And per IP?', threadId);
  assert.equal(second.status, 200, second.text);
  const stored = await readThread(threadId);
  assert.equal(stored.status, 200, stored.text);
  assert.deepEqual(stored.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);

  let gone;
  for (let i = 0; i < 150 && !gone; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const res = await readThread(threadId);
    if (res.status !== 200) gone = res;
  }
  assert.ok(gone, 'the thread is deleted once its retention has passed');
  assertError(gone, 404, 'not_found');
  assertError(await ask('Still there?', threadId), 404, 'not_found');
});
