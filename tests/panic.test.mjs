// A panic in one request under panic=unwind (the default build, scripts/build-worker.mjs): it is
// that request's 500 `{"error","code"}`, and an answer streaming from the same isolate at that moment
// completes whole. Skipped for a panic=abort build (DOCS_EDGE_PANIC_UNWIND=0), where the panic traps the instance and
// the stream beside it fails (docs/engineering/decisions.mdx, "panic=unwind").
// Its own worker, the only one with the test-only TEST_PANIC_ROUTE=1 (`GET /health` with an
// `x-test-panic` header panics), and the OpenAI-compatible backend against the local stand-in with
// its tokens 400 ms apart (SLOW_TOKENS).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { builtPanicStrategy } from '../scripts/build-worker.mjs';
import { ROOT_TOKEN, assertError, call, streamQuestion, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startLlmMock, MOCK_TOKENS } from './support/llm-mock.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

let mock;
let worker;
let state;
let t;
const unwind = builtPanicStrategy() === 'unwind';

before(async () => {
  if (!unwind) return;
  mock = await startLlmMock();
  state = scratchDir('docs-edge-panic-');
  worker = await startWorker({
    persistTo: state,
    vars: {
      ROOT_TOKEN, TEST_PANIC_ROUTE: '1', ASSISTANT_BACKEND: 'openai', LLM_BASE_URL: mock.baseUrl,
      LLM_API_KEY: 'sk-test-provider-key-0123456789', LLM_MODEL: 'openai-test-model',
    },
  });
  t = await tenant({ base: worker.baseUrl });
  const published = await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl });
  assert.equal(published.status, 200, published.text);
});

after(async () => {
  await worker?.stop();
  if (state) rmSync(state, { recursive: true, force: true });
  await mock?.close();
});

/** A v1 answer as raw chunks; `onChunk` sees each as it arrives. */
function streamAnswer(question, onChunk) {
  return streamQuestion({ base: worker.baseUrl, domain: t.domain, key: t.assistantKey, question, onChunk });
}

/** The answer's text from v4 data stream `0:` parts. */
const answerText = (text) => text.split('\n').filter((l) => l.startsWith('0:')).map((l) => JSON.parse(l.slice(2))).join('');

test('a panic in one request is its 500; the answer streaming beside it completes, and the next request works', {
  skip: !unwind && 'the worker is built with panic=abort (DOCS_EDGE_PANIC_UNWIND=0, or nightly missing: see the bootstrap log)',
}, async () => {
  let panicked;
  const streamed = streamAnswer('How do I start a static export? SLOW_TOKENS', (soFar) => {
    // Mid-stream: the first token is out, three more are 400 ms apart.
    if (!panicked && soFar.includes(JSON.stringify(MOCK_TOKENS[0]))) {
      panicked = call('GET', '/health', { base: worker.baseUrl, headers: { 'x-test-panic': '1' } });
    }
  });
  const answer = await streamed;
  assert.ok(panicked, 'the panic request was sent while the answer streamed');
  const panic = await panicked;
  assertError(panic, 500, 'internal_error');
  assert.ok(worker.output().includes('test-only panic'), 'the panic was logged');

  assert.equal(answer.status, 200);
  assert.equal(answerText(answer.text), MOCK_TOKENS.join(''), answer.text);
  assert.match(answer.text, /^d:\{"finishReason":"stop"/m, "the stream finished normally");

  const health = await call('GET', '/health', { base: worker.baseUrl });
  assert.equal(health.status, 200);
  assert.equal(health.body.status, 'ok');
  const again = await streamAnswer('How do I start a static export?');
  assert.equal(answerText(again.text), MOCK_TOKENS.join(''));
});
