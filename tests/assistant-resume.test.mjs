// Resumable v2 answers (issue #13, point 5) with the real AI SDK client: `AbstractChat` (what
// `useChat` wraps) and `DefaultChatTransport`, whose `resumeStream()` sends `GET {api}/{chatId}/stream`.
// The worker talks to the local OpenAI-compatible stand-in, which can stream slowly or stall, so a
// connection can be cut mid-answer and a second reader can join while the answer is still running.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, tenant, call, assertError } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { startLlmMock, MOCK_TOKENS } from './support/llm-mock.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const CLIENTS = { '5 newest': 'ai5', '6 newest': 'ai6' };
/** Every v5+ release of the compatibility matrix: each validates the chunks with its own schema. */
const SCHEMA_RELEASES = ['ai5_0_0', 'ai5_0_91', 'ai5_0_92', 'ai5_0_216', 'ai5', 'ai6_0_0', 'ai6_0_230', 'ai6', 'ai7_0_0', 'ai7_0_31', 'ai7'];
const WINDOW_SECONDS = 2;
const FULL = MOCK_TOKENS.join('');
const QUESTION = 'How do I start a static export job?';

let mock;
let worker;
let state;
let t;
let stranger;

before(async () => {
  mock = await startLlmMock();
  state = scratchDir('docs-edge-resume-');
  worker = await startWorker({
    persistTo: state,
    vars: {
      ROOT_TOKEN,
      ASSISTANT_BACKEND: 'openai',
      LLM_BASE_URL: mock.baseUrl,
      LLM_API_KEY: 'sk-test-provider-key-0123456789',
      LLM_MODEL: 'resume-test-model',
      ASSISTANT_KEEPALIVE_SECONDS: '1',
      ASSISTANT_RESUME_WINDOW_SECONDS: String(WINDOW_SECONDS),
    },
  });
  t = await tenant({ base: worker.baseUrl });
  stranger = await tenant({ base: worker.baseUrl });
  for (const who of [t, stranger]) {
    const res = await publishFolder(who.domain, who.adminKey, FIXTURE_DOCS, { base: worker.baseUrl });
    assert.equal(res.status, 200, res.text);
  }
});

after(async () => {
  await worker?.stop();
  if (state) rmSync(state, { recursive: true, force: true });
  await mock?.close();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(predicate, what) {
  for (let i = 0; i < 300; i++) {
    if (predicate()) return;
    await sleep(50);
  }
  assert.fail(`timed out waiting for ${what}`);
}

let nextId = 0;
const chatId = () => `chat${Date.now().toString(36)}${++nextId}`;
const messageUrl = (who = t) => `${worker.baseUrl}/discovery/v2/assistant/${who.domain}/message`;

/** A chat as `useChat` holds one: the release's `AbstractChat` over a plain state, every body recorded. */
function makeChat(ai, { id, messages = [], who = t, extraBody = { resumable: true } }) {
  const bodies = [];
  const transport = new ai.DefaultChatTransport({
    api: messageUrl(who),
    headers: { authorization: `Bearer ${who.assistantKey}` },
    body: { fp: 'anonymous', ...extraBody },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      const record = { method: init.method, status: res.status, text: '' };
      bodies.push(record);
      if (!res.body) return res;
      const [mine, theirs] = res.body.tee();
      (async () => {
        const decoder = new TextDecoder();
        for await (const bytes of mine) record.text += decoder.decode(bytes, { stream: true });
      })().catch(() => {});
      return new Response(theirs, { status: res.status, headers: res.headers });
    },
  });
  const state = {
    status: 'ready',
    error: undefined,
    messages,
    pushMessage(m) { this.messages = this.messages.concat(m); },
    popMessage() { this.messages = this.messages.slice(0, -1); },
    replaceMessage(i, m) { this.messages = [...this.messages.slice(0, i), structuredClone(m), ...this.messages.slice(i + 1)]; },
    snapshot: (v) => structuredClone(v),
  };
  const errors = [];
  const chat = new (class extends ai.AbstractChat {})({ id, transport, state, onError: (e) => errors.push(e) });
  return { chat, bodies, errors };
}

const answerText = (chat) => {
  const last = chat.messages.at(-1);
  return last?.role === 'assistant' ? last.parts.filter((p) => p.type === 'text').map((p) => p.text).join('') : '';
};
const chunks = (raw) => raw.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
const userMessage = (text) => ({ id: `u${++nextId}`, role: 'user', parts: [{ type: 'text', text }] });

/** Every chunk of a raw v2 body through a release's own transport (its schema validates each one). */
async function throughRelease(alias, body) {
  const ai = await import(alias);
  const transport = new ai.DefaultChatTransport({
    api: `${worker.baseUrl}/unused`,
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = await transport.sendMessages({ chatId: 'c', messages: [], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
  const out = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

for (const [release, alias] of Object.entries(CLIENTS)) {
  test(`ai@${release}: an answer cut mid-stream is resumed by resumeStream() in full, each piece once`, async () => {
    const ai = await import(alias);
    const id = chatId();
    const first = makeChat(ai, { id });
    const sending = first.chat.sendMessage({ text: `SLOW_TOKENS ${QUESTION}` });
    await until(() => answerText(first.chat).length > 0, 'the first text');
    await first.chat.stop(); // the connection is cut (what a reload or a lost network does)
    await sending;
    assert.ok(answerText(first.chat).length < FULL.length, 'cut before the end');
    const question = first.chat.messages[0];

    // A new page: the same chat id, the stored question, and useChat({ resume: true })'s call.
    const second = makeChat(ai, { id, messages: [question] });
    await second.chat.resumeStream();
    assert.equal(second.chat.status, 'ready', String(second.chat.error));
    assert.deepEqual(second.errors, []);
    assert.equal(second.bodies[0].method, 'GET');
    assert.equal(second.bodies[0].status, 200);
    const answer = second.chat.messages.at(-1);
    assert.equal(second.chat.messages.length, 2);
    assert.equal(answerText(second.chat), FULL, 'the whole answer, once');
    const wire = chunks(second.bodies[0].text);
    assert.equal(wire.filter((c) => c.type === 'start').length, 1);
    assert.equal(wire.filter((c) => c.type === 'text-delta').map((c) => c.delta).join(''), FULL, 'no chunk twice on the wire');
    assert.ok(second.bodies[0].text.endsWith('data: [DONE]\n\n'));
    const threadId = answer.metadata?.threadId;
    assert.match(threadId ?? '', /^thr_/);
    const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey, base: worker.baseUrl });
    assert.deepEqual(thread.body.messages.map((m) => [m.role, m.content]), [['user', `SLOW_TOKENS ${QUESTION}`], ['assistant', FULL]]);
    assert.equal(thread.body.messages[1].id, answer.id, 'the resumed message has the stored id');
  });
}

test('stop ends a running answer for every reader with finish and [DONE]; the partial answer is recorded', async () => {
  const ai = await import('ai6');
  const id = chatId();
  const starter = makeChat(ai, { id });
  const sending = starter.chat.sendMessage({ text: `STALL_AFTER_FIRST ${QUESTION}` });
  await until(() => answerText(starter.chat).length > 0, 'the first reader\'s text');
  const joiner = makeChat(ai, { id, messages: [starter.chat.messages[0]] });
  const resuming = joiner.chat.resumeStream();
  await until(() => answerText(joiner.chat).length > 0, 'the second reader\'s text');

  // While it runs, a second resumable message in the chat is refused.
  const busy = await call('POST', `/discovery/v2/assistant/${t.domain}/message`, {
    token: t.assistantKey, base: worker.baseUrl,
    json: { fp: 'anonymous', id, resumable: true, messages: [userMessage(QUESTION)] },
  });
  assertError(busy, 409, 'answer_running');
  assert.match(busy.body.error, /^id: /);

  const stop = await call('POST', `/discovery/v2/assistant/${t.domain}/message/${id}/stop`, { token: t.assistantKey, base: worker.baseUrl });
  assert.equal(stop.status, 200);
  assert.deepEqual(stop.body, { stopped: true });
  await Promise.all([sending, resuming]);
  for (const reader of [starter, joiner]) {
    assert.equal(reader.chat.status, 'ready', String(reader.chat.error));
    assert.deepEqual(reader.errors, []);
    assert.equal(answerText(reader.chat), MOCK_TOKENS[0]);
    const raw = reader.bodies[0].text;
    // The follow-ups (`data-suggestions`) travel between the two.
    assert.deepEqual(chunks(raw).map((c) => c.type).filter((type) => type !== 'data-suggestions').slice(-2), ['finish-step', 'finish']);
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
  }
  const threadId = joiner.chat.messages.at(-1).metadata.threadId;
  const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey, base: worker.baseUrl });
  assert.deepEqual(thread.body.messages.map((m) => m.content), [`STALL_AFTER_FIRST ${QUESTION}`, MOCK_TOKENS[0]]);
  const again = await call('POST', `/discovery/v2/assistant/${t.domain}/message/${id}/stop`, { token: t.assistantKey, base: worker.baseUrl });
  assert.deepEqual(again.body, { stopped: false }, 'nothing is running any more');

  // The stopped stream and a failed one, as every release's own chunk schema sees them.
  const failedRes = await fetch(messageUrl(), {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', id: chatId(), resumable: true, messages: [userMessage(`FAIL_MIDSTREAM ${QUESTION}`)] }),
  });
  const failed = await failedRes.text();
  assert.equal(failedRes.status, 200);
  for (const alias of SCHEMA_RELEASES) {
    const stopped = await throughRelease(alias, joiner.bodies[0].text);
    assert.equal(stopped.at(-1).type, 'finish', `${alias} accepts the stopped stream`);
    const errored = await throughRelease(alias, failed);
    assert.deepEqual(errored.slice(-2).map((c) => c.type), ['error', 'finish'], `${alias} accepts the error path`);
    assert.doesNotMatch(errored.at(-2).errorText, /server_error|processing your request/, 'no provider detail');
  }
});

test('204 when the chat has nothing to resume; resumeStream() then leaves the chat as it was', async () => {
  const ai = await import('ai5');
  const id = chatId();
  const first = makeChat(ai, { id });
  await first.chat.sendMessage({ text: QUESTION });
  assert.equal(answerText(first.chat), FULL);
  // Within the window an ended answer is still replayed.
  const soon = makeChat(ai, { id, messages: [first.chat.messages[0]] });
  await soon.chat.resumeStream();
  assert.equal(answerText(soon.chat), FULL);

  await sleep(WINDOW_SECONDS * 1000 + 500);
  const raw = await call('GET', `/discovery/v2/assistant/${t.domain}/message/${id}/stream`, { token: t.assistantKey, base: worker.baseUrl });
  assert.equal(raw.status, 204);
  const late = makeChat(ai, { id, messages: [...first.chat.messages] });
  await late.chat.resumeStream();
  assert.equal(late.bodies[0].status, 204);
  assert.equal(late.chat.status, 'ready');
  assert.deepEqual(late.errors, []);
  assert.deepEqual(late.chat.messages, first.chat.messages, 'nothing added');
});

test('unknown or another organization\'s chat, a bad chat id or opt-in: a 4xx naming the field, nothing changed', async () => {
  const base = worker.baseUrl;
  const unknown = await call('GET', `/discovery/v2/assistant/${t.domain}/message/nochat${Date.now()}/stream`, { token: t.assistantKey, base });
  assertError(unknown, 404, 'not_found');
  assert.match(unknown.body.error, /^chatId: /);
  const badId = await call('GET', `/discovery/v2/assistant/${t.domain}/message/a%20b/stream`, { token: t.assistantKey, base });
  assertError(badId, 400, 'invalid_request');
  assert.match(badId.body.error, /^chatId: /);

  // A chat of t, running slowly; the stranger organization names the same chat id on its own domain.
  const ai = await import('ai6');
  const id = chatId();
  const owner = makeChat(ai, { id });
  const sending = owner.chat.sendMessage({ text: `SLOW_TOKENS ${QUESTION}` });
  await until(() => answerText(owner.chat).length > 0, 'the first text');
  for (const [method, suffix] of [['GET', 'stream'], ['POST', 'stop']]) {
    const foreign = await call(method, `/discovery/v2/assistant/${stranger.domain}/message/${id}/${suffix}`, { token: stranger.assistantKey, base });
    assertError(foreign, 404, 'not_found');
    assert.match(foreign.body.error, /^chatId: /);
  }
  const otherDomain = await call('POST', `/discovery/v2/assistant/${t.domain}/message/${id}/stop`, { token: stranger.assistantKey, base });
  assert.ok([403, 404].includes(otherDomain.status), `another organization's key on this domain: ${otherDomain.status}`);
  await sending;
  assert.equal(answerText(owner.chat), FULL, 'the answer ran to its end: nobody else stopped it');

  const url = `/discovery/v2/assistant/${t.domain}/message`;
  const notBool = await call('POST', url, { token: t.assistantKey, base, json: { fp: 'anonymous', id, resumable: 'yes', messages: [userMessage(QUESTION)] } });
  assertError(notBool, 400, 'invalid_request');
  assert.match(notBool.body.error, /^resumable: must be a boolean/);
  const noId = await call('POST', url, { token: t.assistantKey, base, json: { fp: 'anonymous', resumable: true, messages: [userMessage(QUESTION)] } });
  assertError(noId, 400, 'invalid_request');
  assert.match(noId.body.error, /^id: is required/);
  // Without the opt-in nothing is journaled: the chat has nothing new to resume.
  const plainId = chatId();
  const plain = makeChat(ai, { id: plainId, extraBody: {} });
  await plain.chat.sendMessage({ text: QUESTION });
  assert.equal(answerText(plain.chat), FULL);
  const none = await call('GET', `/discovery/v2/assistant/${t.domain}/message/${plainId}/stream`, { token: t.assistantKey, base });
  assertError(none, 404, 'not_found');
});

test('the SDK\'s AssistantClient: a resumable answer cut by its signal is resumed in full; stop; 204 is null', async () => {
  const { AssistantClient } = await import(new URL('../sdk-wasm/pkg/node.js', import.meta.url));
  const options = { baseUrl: worker.baseUrl, domain: t.domain, apiKey: t.assistantKey, protocol: 'v2', resumable: true };
  const first = new AssistantClient(options);
  const cut = new AbortController();
  const turn = first.sendMessage(`SLOW_TOKENS ${QUESTION}`, { signal: cut.signal });
  for await (const event of turn) {
    if (event.type === 'text') break;
  }
  cut.abort();
  await turn.result.catch(() => {});

  // A reloaded page: the same chat id and the conversation it had stored.
  const stored = [{ id: 'q1', role: 'user', content: `SLOW_TOKENS ${QUESTION}` }];
  const reloaded = new AssistantClient({ ...options, chatId: first.chatId, messages: stored });
  const resumed = await reloaded.resume();
  const result = await resumed.result;
  assert.equal(result.text, FULL, 'the whole answer, once');
  assert.match(result.threadId, /^thr_/);
  assert.deepEqual(reloaded.messages.map((m) => m.role), ['user', 'assistant'], 'the partial copy was replaced');
  assert.equal(reloaded.messages[1].content, FULL);

  const stalled = new AssistantClient(options);
  const stalledTurn = stalled.sendMessage(`STALL_AFTER_FIRST ${QUESTION}`);
  for await (const event of stalledTurn) {
    if (event.type === 'text') assert.deepEqual(await stalled.stop(), { stopped: true });
  }
  assert.equal((await stalledTurn.result).text, MOCK_TOKENS[0]);
  assert.deepEqual(await stalled.stop(), { stopped: false });

  await sleep(WINDOW_SECONDS * 1000 + 500);
  assert.equal(await reloaded.resume(), null, 'nothing to resume: 204');
  const stranger = new AssistantClient({ ...options, chatId: `never${Date.now()}` });
  await assert.rejects(stranger.resume(), (e) => e.status === 404 && e.code === 'not_found' && /^chatId: /.test(e.message));
  assert.throws(() => new AssistantClient({ ...options, protocol: 'v1' }), (e) => e.code === 'invalid_options');
});
