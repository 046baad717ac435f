// The OpenAI-compatible, Anthropic and Workers AI backends against local servers speaking those
// providers' streaming wire formats (Workers AI through a stand-in for its binding); and streaming that
// stays incremental for a client asking for gzip.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { processDataStream } from '@ai-sdk/ui-utils';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, streamQuestion, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startLlmMock, MOCK_TOKENS, REFUSAL_TOKENS } from './support/llm-mock.mjs';
import { reportWhen } from './support/analytics.mjs';
import { workersAiConfigs } from './support/workers-ai-config.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const LLM_KEY = 'sk-test-provider-key-0123456789';
const BACKENDS = ['openai', 'anthropic', 'workers-ai'];
let mock;
const backends = {};

before(async () => {
  mock = await startLlmMock();
  for (const name of BACKENDS) {
    const state = scratchDir(`docs-edge-${name}-`);
    const worker = await startWorker({
      persistTo: state,
      vars: name === 'workers-ai'
        ? { ROOT_TOKEN, ASSISTANT_BACKEND: name, LLM_MODEL: '@cf/test/model' }
        : { ROOT_TOKEN, ASSISTANT_BACKEND: name, LLM_BASE_URL: mock.baseUrl, LLM_API_KEY: LLM_KEY, LLM_MODEL: `${name}-test-model`, ASSISTANT_KEEPALIVE_SECONDS: '1' },
      configs: name === 'workers-ai' ? workersAiConfigs(state, mock.baseUrl) : [],
    });
    const t = await tenant({ base: worker.baseUrl });
    const published = await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl });
    assert.equal(published.status, 200, published.text);
    backends[name] = { worker, state, t };
  }
});

after(async () => {
  for (const { worker, state } of Object.values(backends)) {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
  }
  await mock?.close();
});

/** Raw request recording each body chunk as it arrives. */
function postRaw(name, question, headers = {}) {
  const { worker, t } = backends[name];
  return streamQuestion({ base: worker.baseUrl, domain: t.domain, key: t.assistantKey, question, headers });
}

async function parts(text) {
  const events = [];
  const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(text)); c.close(); } });
  await processDataStream({
    stream,
    onTextPart: (v) => events.push(['text', v]),
    onToolResultPart: (v) => v.result.forEach((source) => events.push(['source', source])),
    onErrorPart: (v) => events.push(['error', v]),
    onDataPart: (v) => events.push(['data', v]),
    onFinishMessagePart: (v) => events.push(['finish', v]),
    onStartStepPart: (v) => events.push(['start', v]),
    onFinishStepPart: (v) => events.push(['step', v]),
  });
  return events;
}

for (const name of BACKENDS) {
  test(`${name}: provider tokens stream through as text parts, with sources and usage`, async () => {
    const before = mock.requests.length;
    const res = await postRaw(name, 'How do I publish my docs?');
    assert.equal(res.status, 200);
    const events = await parts(res.text);
    const text = events.filter(([k]) => k === 'text').map(([, v]) => v);
    assert.deepEqual(text, MOCK_TOKENS);
    assert.ok(events.some(([k, v]) => k === 'source' && v.url.startsWith('https://')));
    const finish = events.find(([k]) => k === 'finish')[1];
    assert.equal(finish.finishReason, 'stop');
    assert.equal(finish.usage.promptTokens, 321);
    assert.equal(finish.usage.completionTokens, 12);
    // ai@4's parser keeps only finishReason and usage of `d:`; the raw line carries the thread too.
    const finishLine = res.text.trim().split('\n').at(-1);
    assert.ok(finishLine.startsWith('d:'));
    assert.equal(JSON.parse(finishLine.slice(2)).threadId, res.headers['x-thread-id']);
    const sent = mock.requests.slice(before).at(-1);
    assert.equal(sent.body.stream, true);
    if (name === 'workers-ai') {
      assert.equal(sent.path, '/v1/workers-ai/run/@cf/test/model', 'the model is the first argument of AI.run');
      assert.equal(sent.body.messages[0].role, 'system');
      assert.equal(typeof sent.body.max_tokens, 'number');
    } else if (name === 'openai') {
      assert.equal(sent.body.model, `${name}-test-model`);
      assert.equal(sent.headers.authorization, `Bearer ${LLM_KEY}`);
      assert.equal(sent.body.messages[0].role, 'system');
    } else {
      assert.equal(sent.body.model, `${name}-test-model`);
      assert.equal(sent.headers['x-api-key'], LLM_KEY);
      assert.equal(sent.headers['anthropic-version'], '2023-06-01');
      assert.equal(typeof sent.body.system, 'string');
    }
    const prompt = JSON.stringify(sent.body.messages);
    assert.match(prompt, /Publish your docs/, 'retrieved passages reach the model');
  });

  test(`${name}: an upstream error mid-stream ends the stream with a 3: part and a d: end`, async () => {
    const res = await postRaw(name, 'FAIL_MIDSTREAM how do I publish?');
    assert.equal(res.status, 200);
    // `processDataStream` reports a 3: part to its callback; useChat would throw on it.
    const events = await parts(res.text);
    assert.deepEqual(events.filter(([k]) => k === 'text').map(([, v]) => v), MOCK_TOKENS.slice(0, 2));
    assert.deepEqual(events.slice(-2).map(([k]) => k), ['error', 'finish']);
    assert.equal(events.at(-1)[1].finishReason, 'error');
    assert.equal(events.at(-2)[1], 'the answer could not be completed: the language model failed', 'no internal detail');
    assert.ok(!res.text.includes(LLM_KEY));
  });
}

test('with Accept-Encoding: gzip the first text part arrives before the stream ends', async () => {
  const res = await postRaw('openai', 'How do I publish my docs?', { 'accept-encoding': 'gzip' });
  assert.equal(res.status, 200);
  assert.notEqual(res.headers['content-encoding'], 'gzip');
  const firstText = res.chunks.findIndex((c) => /(^|\n)0:/.test(c));
  assert.ok(firstText >= 0, 'a text part arrived');
  const later = res.chunks.slice(firstText + 1).join('');
  assert.match(later, /(^|\n)0:/, 'more text parts arrived in later chunks');
  assert.match(later, /(^|\n)d:/, 'the finish part arrived after the first text part');
});

test('v2: an upstream error mid-stream ends the UI message stream with an error chunk', async () => {
  const { worker, t } = backends.openai;
  const question = 'FAIL_MIDSTREAM how do I publish?';
  const res = await fetch(`${worker.baseUrl}/discovery/v2/assistant/${t.domain}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: question }] }] }),
  });
  assert.equal(res.status, 200);
  const data = (await res.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  const chunks = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
  assert.deepEqual(chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta), MOCK_TOKENS.slice(0, 2));
  assert.deepEqual(chunks.slice(-2).map((c) => c.type), ['error', 'finish']);
  assert.equal(chunks.at(-2).errorText, 'the answer could not be completed: the language model failed');
  assert.equal(data.at(-1), '[DONE]');
  assert.ok(!data.join('\n').includes(LLM_KEY));
});

test('while the model is silent, keep-alives go out that the v4 parser skips (v1) and SSE comments (v2)', async () => {
  const v1 = await postRaw('openai', 'SLOW_START how do I publish?');
  assert.equal(v1.status, 200);
  assert.equal(v1.headers['cache-control'], 'no-cache, no-transform');
  assert.equal(v1.headers['x-accel-buffering'], 'no');
  assert.ok(v1.chunks[0].length > 0 && !v1.chunks[0].includes('0:'), 'the first bytes went out before any text');
  assert.match(v1.text, /\n\n/, 'an empty line (keep-alive) was sent');
  const events = await parts(v1.text);
  assert.deepEqual(events.filter(([k]) => k === 'text').map(([, v]) => v), MOCK_TOKENS);
  assert.equal(events.at(-1)[0], 'finish');

  const { worker, t } = backends.openai;
  const res = await fetch(`${worker.baseUrl}/discovery/v2/assistant/${t.domain}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'SLOW_START how?' }] }] }),
  });
  const text = await res.text();
  assert.match(text, /^: keep-alive$/m);
  assert.ok(text.endsWith('data: [DONE]\n\n'));
});

test('openai: an answer opening with the prompt\'s not-covered sentence, and the provider\'s refusal, are marked unanswered and counted so', async () => {
  const { worker } = backends.openai;
  // A site of its own, so the report counts exactly these answers.
  const t = await tenant({ base: worker.baseUrl });
  assert.equal((await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl })).status, 200);
  const ask = async (question) => {
    const res = await streamQuestion({ base: worker.baseUrl, domain: t.domain, key: t.assistantKey, question });
    assert.equal(res.status, 200);
    const events = await parts(res.text);
    const metadata = events.filter(([k]) => k === 'data').flatMap(([, v]) => v).find((d) => d.threadId);
    return { text: events.filter(([k]) => k === 'text').map(([, v]) => v).join(''), metadata, cited: events.some(([k]) => k === 'source') };
  };
  const uncovered = await ask('UNCOVERED how do I publish my docs?');
  assert.equal(uncovered.text, "The documentation doesn't cover this question. The closest is [1].");
  assert.ok(uncovered.cited, 'the model was given passages');
  assert.equal(uncovered.metadata.unanswered, true, JSON.stringify(uncovered.metadata));
  const refused = await ask('REFUSE how do I publish my docs?');
  assert.equal(refused.text, REFUSAL_TOKENS.join(''));
  assert.equal(refused.metadata.unanswered, true, JSON.stringify(refused.metadata));
  const answered = await ask('How do I publish my docs?');
  assert.equal(answered.text, MOCK_TOKENS.join(''));
  assert.equal(answered.metadata.unanswered, undefined, JSON.stringify(answered.metadata));
  const report = await reportWhen(t.domain, t.adminKey, (r) => r.totals.questions === 3, '', worker.baseUrl);
  assert.equal(report.totals.unanswered, 2, JSON.stringify(report.totals));
});
