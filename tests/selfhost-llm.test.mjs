// docs-edge-serve as a whole self-hosted assistant, air-gapped: the demo site's bundle, an internal
// model speaking the OpenAI chat-completions stream (tests/support/llm-mock.mjs), threads, feedback
// and analytics in its SQLite file. The real AI SDK clients (v4 data stream, v5+ UI message stream)
// and the project's SDK (AssistantClient) read its answers; a refusal, a mid-stream failure, keep-alives, a reader who hangs up, regenerate; then a
// restart keeps the conversation, its rating and the report. The same again on PostgreSQL
// (DOCS_EDGE_TEST_POSTGRES_URL, the throwaway server scripts/test.mjs starts), with two replicas
// sharing one conversation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callChatApi } from '@ai-sdk/ui-utils';
import { call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { exportLink } from './support/export.mjs';
import { startLlmMock, MOCK_TOKENS, REFUSAL_TOKENS } from './support/llm-mock.mjs';
import { startServe } from './support/serve.mjs';

const { AssistantClient } = await import(join(fileURLToPath(new URL('../sdk-wasm/pkg/', import.meta.url)), 'node.js'));

const LLM_KEY = 'sk-internal-gateway-key';
const POSTGRES_URL = process.env.DOCS_EDGE_TEST_POSTGRES_URL;
const ADMIN_KEY = 'admin-key-of-this-server';
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

let t;
let mock;
let serve;
let config;
let env;
const answered = []; // { threadId, messageId } of finished answers

before(async () => {
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS)).status, 200);
  const { job, link } = await exportLink(t);
  mock = await startLlmMock();
  config = {
    static_export: { enabled: true, bundle_url: link.bundleUrl, sha256: link.sha256 },
    assistant: { enabled: true, key_sha256: [sha256(t.assistantKey)], backend: 'openai', keep_alive_secs: 1 },
    'assistant.llm': { base_url: mock.baseUrl, model: 'internal-model' },
    admin: { key_sha256: [sha256(ADMIN_KEY)] },
  };
  // Everything this server reaches (the bundle link and the model) is on loopback, declared internal.
  env = {
    DEPLOYMENT_KIND: 'air-gapped', INTERNAL_HOSTS: '127.0.0.1', DOCS_EDGE_LLM_API_KEY: LLM_KEY,
    FEATURE_SEARCH: 'true', FEATURE_ASSISTANT: 'true', FEATURE_ANALYTICS: 'true',
  };
  serve = await startServe({ config, env });
  await serve.waitFor((h) => h.jobId === job.jobId, 'the bundle');
});

after(async () => {
  await serve?.remove();
  await mock?.close();
});

const v2User = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** One v5+ turn through the real transport; the raw response is kept for the headers. */
async function v5Turn(alias, messages, extraBody = {}, trigger = 'submit-message', messageId = undefined, server = serve) {
  const ai = await import(alias);
  const raw = {};
  const transport = new ai.DefaultChatTransport({
    api: `${server.url}/discovery/v2/assistant/${t.domain}/message`,
    headers: { authorization: `Bearer ${t.assistantKey}` },
    body: { fp: 'anonymous', ...extraBody },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      raw.headers = res.headers;
      raw.text = await res.text();
      return new Response(raw.text, { status: res.status, headers: res.headers });
    },
  });
  const stream = await transport.sendMessages({ chatId: 'c', messages, trigger, messageId, abortSignal: undefined });
  let message;
  let error;
  try {
    for await (const snapshot of ai.readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
  } catch (err) {
    error = err;
  }
  return { message, raw, error, text: message?.parts.filter((p) => p.type === 'text').map((p) => p.text).join('') };
}

const admin = (path, server = serve) => call('GET', path, { base: server.url, token: ADMIN_KEY });

/** The conversations export as its lines. */
async function csvRows(server) {
  const csv = await fetch(`${server.url}/v1/analytics/${t.domain}/conversations.csv`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get('content-type'), /^text\/csv/);
  return (await csv.text()).split('\r\n');
}

test('v5+ clients stream the model\'s answer with sources and the thread id; the model gets the passages and the key', async () => {
  for (const alias of ['ai5', 'ai7']) {
    const one = await v5Turn(alias, [v2User('u1', 'How do I publish my docs?')]);
    assert.equal(one.error, undefined, `${alias}: ${one.raw.text}`);
    assert.equal(one.text, MOCK_TOKENS.join(''), alias);
    assert.ok(one.message.parts.some((p) => p.type === 'source-url'), alias);
    const threadId = one.raw.headers.get('x-thread-id');
    assert.match(threadId, /^thr_/);
    assert.equal(one.message.metadata?.threadId, threadId);
    answered.push({ threadId, messageId: one.message.id });
  }
  const sent = mock.requests.at(-1);
  assert.equal(sent.path, '/v1/chat/completions');
  assert.equal(sent.body.model, 'internal-model');
  assert.equal(sent.body.stream, true);
  assert.equal(sent.headers.authorization, `Bearer ${LLM_KEY}`);
  assert.match(JSON.stringify(sent.body.messages), /Publish your docs/i, 'the retrieved passages reach the model');
  assert.ok(!serve.log().includes(LLM_KEY), 'the key is never logged');
});

/** One v4 (ai@4 data stream) turn through the real client: the finished message, its details and the thread id. */
async function v4(messages, body = {}) {
  let done;
  let response;
  await callChatApi({
    api: `${serve.url}/discovery/v1/assistant/${t.domain}/message`,
    body: { id: 'c4', messages, fp: 'anonymous', ...body },
    streamProtocol: 'data',
    headers: { authorization: `Bearer ${t.assistantKey}` },
    restoreMessagesOnFailure() {},
    onResponse(res) { response = res; },
    onUpdate() {},
    onFinish(message, details) { done = { message, details }; },
    generateId: () => 'g1',
    lastMessage: undefined,
    fetch,
  });
  return { ...done, threadId: response.headers.get('x-thread-id') };
}

test('v4 (data stream): an answer, a follow-up on its thread, and reload() replacing the last answer', async () => {
  const q1 = { id: 'v4u1', role: 'user', content: 'How do I publish my docs?', parts: [{ type: 'text', text: 'How do I publish my docs?' }] };
  const one = await v4([q1]);
  assert.equal(one.message.content, MOCK_TOKENS.join(''));
  assert.equal(one.details.finishReason, 'stop');
  const q2 = { id: 'v4u2', role: 'user', content: 'And the bundle?', parts: [{ type: 'text', text: 'And the bundle?' }] };
  const two = await v4([q1, one.message, q2], { threadId: one.threadId });
  assert.equal(two.threadId, one.threadId);
  let thread = await admin(`/v1/threads/${one.threadId}`);
  assert.equal(thread.status, 200, thread.text);
  assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  // reload(): the history without the last answer, the last question resent with its id.
  const again = await v4([q1, one.message, q2], { threadId: one.threadId });
  thread = await admin(`/v1/threads/${one.threadId}`);
  assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant'], 'replaced, not added');
  assert.equal(thread.body.messages[3].content, again.message.content);
  assert.equal((await call('GET', `/v1/threads/${one.threadId}`, { base: serve.url, token: t.assistantKey })).status, 401, 'admin keys only');
});

test('v5 regenerate-message replaces the named answer', async () => {
  const first = v2User('r1', 'How do I publish my docs?');
  const one = await v5Turn('ai5', [first]);
  const threadId = one.raw.headers.get('x-thread-id');
  const again = await v5Turn('ai5', [first], { threadId }, 'regenerate-message', one.message.id);
  assert.equal(again.message.metadata?.threadId, threadId);
  const thread = await admin(`/v1/threads/${threadId}`);
  assert.deepEqual(thread.body.messages.map((m) => m.id), ['r1', again.message.id]);
});

test('a refusal reaches v5+ and v4 clients as the answer\'s text with a clean finish (content-filter on v4), marked unanswered; the thread records it', async () => {
  const refusal = REFUSAL_TOKENS.join('');
  for (const alias of ['ai5', 'ai7']) {
    const one = await v5Turn(alias, [v2User('n1', 'REFUSE how do I publish my docs?')]);
    assert.equal(one.error, undefined, `${alias}: ${one.raw.text}`);
    assert.equal(one.text, refusal, alias);
    const chunks = one.raw.text.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
    // A clean end. The v2 `finish` carries no finishReason (ai@5's schema rejects one): its
    // metadata's `unanswered` tells a refusal from an answer.
    assert.equal(chunks.at(-1).type, 'finish', alias);
    assert.equal(one.message.metadata?.unanswered, true, alias);
    assert.ok(!chunks.some((c) => c.type === 'error'), alias);
    const thread = await admin(`/v1/threads/${one.raw.headers.get('x-thread-id')}`);
    assert.equal(thread.status, 200, thread.text);
    assert.deepEqual(thread.body.messages.map((m) => [m.role, m.content]), [['user', 'REFUSE how do I publish my docs?'], ['assistant', refusal]]);
  }
  const q = { id: 'v4n1', role: 'user', content: 'REFUSE how do I publish?', parts: [{ type: 'text', text: 'REFUSE how do I publish?' }] };
  const v4Refusal = await v4([q]);
  assert.equal(v4Refusal.message.content, refusal);
  assert.equal(v4Refusal.details.finishReason, 'content-filter');
  const uncovered = await v5Turn('ai5', [v2User('n2', 'UNCOVERED how do I publish my docs?')]);
  assert.match(uncovered.text, /^The documentation doesn't cover this question\./);
  assert.equal(uncovered.message.metadata?.unanswered, true, 'the sentence the prompt asks for marks the answer');
  const answered = await v5Turn('ai5', [v2User('n3', 'How do I publish my docs?')]);
  assert.equal(answered.message.metadata?.unanswered, undefined);
  assert.equal((await admin(`/v1/threads/${v4Refusal.threadId}`)).body.messages[1].content, refusal);
});

test('the SDK\'s AssistantClient streams the model\'s answer with sources and a thread id, and follows up on the thread', async () => {
  for (const protocol of ['v1', 'v2']) {
    const client = new AssistantClient({ baseUrl: serve.url, domain: t.domain, apiKey: t.assistantKey, protocol });
    const turn = client.sendMessage('How do I publish my docs?');
    const events = [];
    for await (const event of turn) events.push(event);
    const result = await turn.result;
    assert.deepEqual(events.filter((e) => e.type === 'text').map((e) => e.delta), MOCK_TOKENS, protocol);
    assert.equal(result.text, MOCK_TOKENS.join(''), protocol);
    assert.ok(result.sources.length >= 1, protocol);
    assert.match(result.threadId, /^thr_/, protocol);
    const finish = events.filter((e) => e.type === 'finish');
    assert.equal(finish.length, 1, protocol);
    assert.equal(finish[0].threadId, result.threadId, protocol);
    if (protocol === 'v1') assert.equal(finish[0].finishReason, 'stop');

    const followUp = await client.sendMessage('And the bundle?').result;
    assert.equal(followUp.threadId, result.threadId, protocol);
    assert.equal(followUp.text, MOCK_TOKENS.join(''), protocol);
    const sent = mock.requests.at(-1).body.messages;
    assert.ok(sent.some((m) => m.role === 'assistant' && m.content === result.text), `${protocol}: the model sees the first answer`);
    const thread = await admin(`/v1/threads/${result.threadId}`);
    assert.equal(thread.status, 200, thread.text);
    assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant'], protocol);
    assert.equal(thread.body.messages[1].id, result.messageId, `${protocol}: the answer id the stream gave is the stored one`);
    assert.deepEqual(client.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant'], protocol);
  }
});

test('a failure mid-stream ends the stream cleanly with the worker\'s error; a silent model gets keep-alives', async () => {
  const failed = await v5Turn('ai5', [v2User('f1', 'FAIL_MIDSTREAM how do I publish?')]);
  const data = failed.raw.text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6));
  const chunks = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
  assert.deepEqual(chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta), MOCK_TOKENS.slice(0, 2));
  assert.deepEqual(chunks.slice(-2).map((c) => c.type), ['error', 'finish']);
  assert.equal(chunks.at(-2).errorText, 'the answer could not be completed: the language model failed');
  assert.equal(data.at(-1), '[DONE]');
  // Nothing of a failed answer is stored.
  assert.equal((await admin(`/v1/threads/${failed.raw.headers.get('x-thread-id')}`)).status, 404);

  const slow = await v5Turn('ai5', [v2User('s1', 'SLOW_START how do I publish?')]);
  assert.match(slow.raw.text, /^: keep-alive$/m);
  assert.equal(slow.text, MOCK_TOKENS.join(''));
});

test('a reader who hangs up cancels the model\'s answer upstream, and nothing is recorded', async () => {
  const controller = new AbortController();
  const res = await fetch(`${serve.url}/discovery/v2/assistant/${t.domain}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [v2User('x1', 'STALL_AFTER_FIRST how do I publish?')] }),
    signal: controller.signal,
  });
  const reader = res.body.getReader();
  let text = '';
  while (!text.includes('text-delta')) text += new TextDecoder().decode((await reader.read()).value);
  assert.ok(mock.open() >= 1, 'the model is still answering');
  controller.abort();
  // The stalled model would hold its answer open for 30 s; the server closes it at its next keep-alive.
  const deadline = Date.now() + 10_000;
  while (mock.open() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(mock.open(), 0, 'the upstream request was closed');
  assert.equal((await admin(`/v1/threads/${res.headers.get('x-thread-id')}`)).status, 404);
});

test('feedback is stored; after a restart the thread, the rating and the report are all there', async () => {
  const { threadId, messageId } = answered[0];
  const rate = await call('POST', `/discovery/v1/assistant/${t.domain}/feedback`, {
    base: serve.url, token: t.assistantKey, json: { threadId, messageId, rating: 'up', comment: 'clear' },
  });
  assert.equal(rate.status, 200, rate.text);
  assert.equal(rate.body.rating, 'up');
  const stranger = await call('POST', `/discovery/v1/assistant/${t.domain}/feedback`, {
    base: serve.url, token: t.assistantKey, json: { threadId, messageId: 'msg_not_here', rating: 'down' },
  });
  assert.equal(stranger.status, 404);

  await serve.stop();
  serve = await startServe({ config, env, cacheDir: serve.cacheDir });
  await serve.waitFor((h) => h.jobId, 'the bundle after the restart');
  const thread = await admin(`/v1/threads/${threadId}`);
  assert.equal(thread.status, 200, thread.text);
  assert.equal(thread.body.messages[1].id, messageId);
  assert.equal(thread.body.messages[1].content, MOCK_TOKENS.join(''));

  const report = await admin(`/v1/analytics/${t.domain}`);
  assert.equal(report.status, 200, report.text);
  assert.ok(report.body.totals.questions >= 7, JSON.stringify(report.body.totals));
  assert.ok(report.body.totals.conversations >= 5, JSON.stringify(report.body.totals));
  assert.equal(report.body.totals.feedbackUp, 1);
  const rows = await csvRows(serve);
  assert.equal(rows[0], 'conversation_id,time,question,answer,sources,rating');
  assert.ok(rows.some((r) => r.startsWith(`${threadId},`) && r.endsWith(',up')), rows.join('\n'));
});

test('on PostgreSQL two replicas share one conversation; it, its rating and the report outlive a restart', {
  skip: !POSTGRES_URL && 'DOCS_EDGE_TEST_POSTGRES_URL is not set (npm test starts PostgreSQL and sets it)',
}, async () => {
  const onPostgres = { ...env, DOCS_EDGE_STORAGE_URL: POSTGRES_URL };
  // Started together, so both migrate the empty database at once (an advisory lock orders them).
  let [a, b] = await Promise.all([startServe({ config, env: onPostgres }), startServe({ config, env: onPostgres })]);
  try {
    await Promise.all([a, b].map((replica) => replica.waitFor((h) => h.jobId, 'the bundle')));
    const q1 = v2User('p1', 'How do I publish my docs?');
    const one = await v5Turn('ai5', [q1], {}, undefined, undefined, a);
    assert.equal(one.error, undefined, one.raw.text);
    const threadId = one.raw.headers.get('x-thread-id');
    const two = await v5Turn('ai5', [q1, one.message, v2User('p2', 'And the bundle?')], { threadId }, undefined, undefined, b);
    assert.equal(two.error, undefined, two.raw.text);
    assert.equal(two.raw.headers.get('x-thread-id'), threadId, 'the other replica continues the thread');
    const rate = await call('POST', `/discovery/v1/assistant/${t.domain}/feedback`, {
      base: b.url, token: t.assistantKey, json: { threadId, messageId: one.message.id, rating: 'up' },
    });
    assert.equal(rate.status, 200, `the other replica knows the first one's answer: ${rate.text}`);

    // A restart with a new, empty cache folder: all of it is in PostgreSQL.
    await a.remove();
    a = await startServe({ config, env: onPostgres });
    await a.waitFor((h) => h.jobId, 'the bundle after the restart');
    const thread = await admin(`/v1/threads/${threadId}`, a);
    assert.equal(thread.status, 200, thread.text);
    assert.deepEqual(thread.body.messages.map((m) => m.id), ['p1', one.message.id, 'p2', two.message.id]);
    assert.equal(thread.body.messages[3].content, MOCK_TOKENS.join(''));
    const report = await admin(`/v1/analytics/${t.domain}`, a);
    assert.equal(report.status, 200, report.text);
    // The tenant's domain is new: these are its only answers.
    const { conversations, questions, feedbackUp, feedbackDown } = report.body.totals;
    assert.deepEqual({ conversations, questions, feedbackUp, feedbackDown }, { conversations: 1, questions: 2, feedbackUp: 1, feedbackDown: 0 });
    const rows = await csvRows(b);
    assert.equal(rows.filter((r) => r.startsWith(`${threadId},`)).length, 2, rows.join('\n'));
    assert.ok(rows.some((r) => r.startsWith(`${threadId},`) && r.endsWith(',up')), rows.join('\n'));
  } finally {
    await a?.remove();
    await b?.remove();
  }
});
