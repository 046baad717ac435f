// The client compatibility matrix (issue #13): the real client code of every AI SDK release people pin,
// against the running worker. Each release must report no error, build the full text and the sources,
// recover the thread id and continue the thread, and receive the follow-up questions. v4 releases run their own `@ai-sdk/ui-utils`
// (`callChatApi`, what `useChat` calls); v5+ releases run `DefaultChatTransport`, which validates every
// chunk with that release's own (for most of them strict) `uiMessageChunkSchema`.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { BASE_URL, call, assertError, tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';

const require = createRequire(import.meta.url);
/** A module as the aliased `ai` release resolves it (its own nested copy, if it has one). */
const fromRelease = (alias, name) => createRequire(require.resolve(`${alias}/package.json`))(name);

const V4 = { '4.1.15': 'ai4_1_15', '4.1.66': 'ai4_1_66', '4.2.11': 'ai4_2_11', '4.3.19': 'ai' };
const V5_PLUS = {
  '5.0.0': 'ai5_0_0', '5.0.91': 'ai5_0_91', '5.0.92': 'ai5_0_92', '5.0.216': 'ai5_0_216', '5 newest': 'ai5',
  '6.0.0': 'ai6_0_0', '6.0.230': 'ai6_0_230', '6 newest': 'ai6',
  '7.0.0': 'ai7_0_0', '7.0.31': 'ai7_0_31', '7 newest': 'ai7',
};

let t;
before(async () => {
  t = await tenant();
  const res = await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS);
  assert.equal(res.status, 200, res.text);
});

let nextId = 0;
const QUESTION = 'How do I start a static export job?';
const FOLLOW_UP = 'And how long is the bundle link valid?';

/** Sources as a v4 client holds them: the `search` tool invocation's result. */
function v4Sources(message) {
  const invocations = message.toolInvocations
    ?? message.parts?.filter((p) => p.type === 'tool-invocation').map((p) => p.toolInvocation) ?? [];
  return invocations.filter((i) => i.toolName === 'search' && i.state === 'result').flatMap((i) => i.result);
}

async function v4Turn(alias, messages, extraBody = {}) {
  const { callChatApi } = fromRelease(alias, '@ai-sdk/ui-utils');
  let finished;
  let data = [];
  let response;
  let raw = '';
  await callChatApi({
    api: `${BASE_URL}/discovery/v1/assistant/${t.domain}/message`,
    body: { id: 'chat-compat', messages, fp: 'anonymous', ...extraBody },
    streamProtocol: 'data',
    headers: { authorization: `Bearer ${t.assistantKey}` },
    restoreMessagesOnFailure() {},
    onResponse(res) { response = res; },
    onUpdate(update) { data = update.data ?? data; },
    onFinish(message, details) { finished = { message, details }; },
    generateId: () => `gen-${++nextId}`,
    lastMessage: messages.at(-1),
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      raw = await res.text();
      return new Response(raw, { status: res.status, headers: res.headers });
    },
  });
  return { ...finished, data, response, raw };
}

/** Follow-ups as every release receives them: one to three distinct questions, none the question asked. */
function assertSuggestions(questions, release) {
  assert.ok(Array.isArray(questions) && questions.length >= 1 && questions.length <= 3, `${release}: ${JSON.stringify(questions)}`);
  assert.ok(questions.every((q) => typeof q === 'string' && q && q !== QUESTION), `${release}: ${JSON.stringify(questions)}`);
  assert.equal(new Set(questions).size, questions.length);
}

const v4User = (text) => ({ id: `u${++nextId}`, role: 'user', content: text, createdAt: new Date(), parts: [{ type: 'text', text }] });

for (const [release, alias] of Object.entries(V4)) {
  test(`ai@${release} (v1 data stream): text, sources, thread id, follow-up`, async () => {
    const first = v4User(QUESTION);
    const one = await v4Turn(alias, [first]);
    assert.ok(one.message, `ai@${release} finished the message`);
    assert.equal(one.response.headers.get('cache-control'), 'no-cache, no-transform');
    assert.equal(one.response.headers.get('x-accel-buffering'), 'no');
    assert.ok(one.raw.split('\n').every((l) => l === '' || '0238abcdefg9'.includes(l[0])), 'only codes ai@4.1.15 parses');
    const streamed = one.raw.split('\n').filter((l) => l.startsWith('0:')).map((l) => JSON.parse(l.slice(2))).join('');
    assert.ok(streamed.length > 40);
    assert.equal(one.message.content, streamed, 'the full text');
    const sources = v4Sources(one.message);
    assert.ok(sources.some((s) => s.url.includes('/api/static-export/')), JSON.stringify(sources));
    assert.ok(sources.every((s) => s.url.startsWith(`https://${t.domain}/`) && s.title));
    const threadId = one.response.headers.get('x-thread-id');
    assert.deepEqual(one.data.at(-1), { type: 'finish', threadId }, 'the thread id in the 2: data part');
    assertSuggestions(one.data.find((d) => d.type === 'suggestions')?.questions, `ai@${release}`);
    assert.equal(one.details.finishReason, 'stop');
    const stored = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
    assert.equal(stored.body.messages[1].id, one.message.id, 'the stored answer has the id the client saw');

    const two = await v4Turn(alias, [first, one.message, v4User(FOLLOW_UP)], { threadId });
    assert.equal(two.response.status, 200);
    assert.ok(two.message.content.length > 20);
    assert.deepEqual(two.data.at(-1), { type: 'finish', threadId });
    const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
    assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  });
}

/**
 * The messages as a default ai@4 `useChat` sends them (`sendExtraMessageFields: false`): what
 * @ai-sdk/react 1.x maps each message to before `callChatApi`, so no `id` and no `createdAt`.
 */
const asUseChatSendsThem = (messages) => messages.map(
  ({ role, content, experimental_attachments, data, annotations, toolInvocations, parts }) => ({
    role,
    content,
    ...(experimental_attachments !== undefined && { experimental_attachments }),
    ...(data !== undefined && { data }),
    ...(annotations !== undefined && { annotations }),
    ...(toolInvocations !== undefined && { toolInvocations }),
    ...(parts !== undefined && { parts }),
  }),
);

test('every ai@4 release with a default useChat (messages without ids): answer and follow-up', async () => {
  for (const [release, alias] of Object.entries(V4)) {
    const first = v4User(QUESTION);
    const one = await v4Turn(alias, asUseChatSendsThem([first]));
    assert.equal(one.response.status, 200, `ai@${release}: ${one.raw.slice(0, 200)}`);
    assert.ok(one.message.content.length > 40, `ai@${release} got the text`);
    assertSuggestions(one.data.find((d) => d.type === 'suggestions')?.questions, `ai@${release}`);
    assert.ok(v4Sources(one.message).some((s) => s.url.includes('/api/static-export/')), `ai@${release} got the sources`);
    const threadId = one.response.headers.get('x-thread-id');
    const two = await v4Turn(alias, asUseChatSendsThem([first, one.message, v4User(FOLLOW_UP)]), { threadId });
    assert.equal(two.response.status, 200, `ai@${release} follow-up: ${two.raw.slice(0, 200)}`);
    assert.ok(two.message.content.length > 20);
    const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
    assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant'], `ai@${release}`);
  }
});

test('v1 keep-alives (empty lines) are skipped by every ai@4 parser', async () => {
  for (const [release, alias] of Object.entries(V4)) {
    const { processDataStream } = fromRelease(alias, '@ai-sdk/ui-utils');
    const texts = [];
    const body = 'f:{"messageId":"m"}\n\n\n0:"a"\n\n0:"b"\ne:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":1},"isContinued":false}\nd:{"finishReason":"stop","usage":{"promptTokens":1,"completionTokens":1},"threadId":"thr_1"}\n';
    const stream = new Response(body).body;
    await processDataStream({ stream, onTextPart: (x) => texts.push(x) });
    assert.deepEqual(texts, ['a', 'b'], `ai@${release}`);
  }
});

/** Every chunk of a raw v2 body through a release's own transport: its schema validates each one. */
async function v2Transport(ai, body, status = 200) {
  const transport = new ai.DefaultChatTransport({
    api: `${BASE_URL}/unused`,
    fetch: async () => new Response(body, { status, headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = await transport.sendMessages({ chatId: 'c', messages: [], trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
  const chunks = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return chunks;
}

async function v2Turn(ai, messages, extraBody = {}, trigger = 'submit-message', messageId = undefined) {
  const raw = {};
  const transport = new ai.DefaultChatTransport({
    api: `${BASE_URL}/discovery/v2/assistant/${t.domain}/message`,
    headers: { authorization: `Bearer ${t.assistantKey}` },
    body: { fp: 'anonymous', ...extraBody },
    fetch: async (url, init) => {
      raw.request = JSON.parse(init.body);
      const res = await fetch(url, init);
      raw.headers = res.headers;
      raw.text = await res.text();
      return new Response(raw.text, { status: res.status, headers: res.headers });
    },
  });
  const stream = await transport.sendMessages({ chatId: 'chat-compat', messages, trigger, messageId, abortSignal: undefined });
  let message;
  for await (const snapshot of ai.readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
  return { message, raw };
}

const v2User = (text) => ({ id: `u${++nextId}`, role: 'user', parts: [{ type: 'text', text }] });

for (const [release, alias] of Object.entries(V5_PLUS)) {
  test(`ai@${release} (v2 UI message stream): every chunk passes its schema; text, sources, thread id, follow-up`, async () => {
    const ai = await import(alias);
    const first = v2User(QUESTION);
    const one = await v2Turn(ai, [first]);
    assert.equal(one.raw.headers.get('cache-control'), 'no-cache, no-transform');
    assert.equal(one.raw.headers.get('x-accel-buffering'), 'no');
    const threadId = one.raw.headers.get('x-thread-id');
    assert.equal(one.message.metadata?.threadId, threadId, 'the thread id in messageMetadata');
    const data = one.raw.text.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
    const streamed = data.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('');
    assert.ok(streamed.length > 40);
    assert.equal(one.message.parts.filter((p) => p.type === 'text').map((p) => p.text).join(''), streamed);
    const sources = one.message.parts.filter((p) => p.type === 'source-url');
    assert.ok(sources.some((s) => s.url.includes('/api/static-export/')), JSON.stringify(sources));
    const offered = one.message.parts.filter((p) => p.type === 'data-suggestions');
    assert.equal(offered.length, 1, `ai@${release} keeps the follow-ups among the message's parts`);
    assertSuggestions(offered[0].data.questions, `ai@${release}`);
    const stored = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
    assert.equal(stored.body.messages[1].id, one.message.id, 'the stored answer has the id the client saw');

    const two = await v2Turn(ai, [first, one.message, v2User(FOLLOW_UP)], { threadId });
    assert.equal(two.raw.headers.get('x-thread-id'), threadId);
    assert.equal(two.message.metadata?.threadId, threadId);
    assert.ok(two.message.parts.some((p) => p.type === 'text' && p.text.length > 20));
    const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
    assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);

    // The error path as the worker writes it (error chunk, finish, [DONE]), and a keep-alive comment.
    const failed = one.raw.text.split('data: {"type":"text-start"')[0]
      + ': keep-alive\n\n'
      + 'data: {"type":"error","errorText":"the answer could not be completed: the language model failed"}\n\n'
      + `data: {"type":"finish","messageMetadata":{"threadId":"${threadId}"}}\n\ndata: [DONE]\n\n`;
    const chunks = await v2Transport(ai, failed);
    assert.deepEqual(chunks.slice(-2).map((c) => c.type), ['error', 'finish'], `ai@${release} accepts the error path`);
  });
}

test('v4 reload() replaces the last answer instead of adding a second one', async () => {
  const first = v4User(QUESTION);
  const one = await v4Turn('ai4_1_15', [first]);
  const threadId = one.response.headers.get('x-thread-id');
  // reload(): the history without the last answer, the question resent with its id.
  const again = await v4Turn('ai4_1_15', [first], { threadId });
  assert.equal(again.response.status, 200);
  const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
  assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant']);
  assert.equal(thread.body.messages[1].id, again.message.id, 'the stored answer is the regenerated one');
});

test('v5+ regenerate-message replaces the named answer; bad trigger or messageId is a 400 and changes nothing', async () => {
  const ai = await import('ai5_0_0');
  const first = v2User(QUESTION);
  const one = await v2Turn(ai, [first]);
  const threadId = one.raw.headers.get('x-thread-id');
  const follow = v2User(FOLLOW_UP);
  const two = await v2Turn(ai, [first, one.message, follow], { threadId });
  // regenerate() of the second answer: the client drops it and names it.
  const again = await v2Turn(ai, [first, one.message, follow], { threadId }, 'regenerate-message', two.message.id);
  assert.equal(again.message.metadata?.threadId, threadId);
  let thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
  assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  assert.equal(thread.body.messages[3].id, again.message.id);
  assert.equal(thread.body.messages[1].id, one.message.id, 'the earlier answer stays');

  const url = `/discovery/v2/assistant/${t.domain}/message`;
  const body = { fp: 'anonymous', threadId, messages: [first, one.message, follow] };
  const unknownTrigger = await call('POST', url, { token: t.assistantKey, json: { ...body, trigger: 'rewind' } });
  assertError(unknownTrigger, 400, 'invalid_request');
  assert.match(unknownTrigger.body.error, /^trigger: must be one of submit-message, regenerate-message/);
  const strangerId = await call('POST', url, { token: t.assistantKey, json: { ...body, trigger: 'regenerate-message', messageId: 'msg_not_here' } });
  assertError(strangerId, 400, 'invalid_request');
  assert.match(strangerId.body.error, /^messageId: /);
  const after = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
  assert.deepEqual(after.body.messages, thread.body.messages, 'the thread is unchanged');
});

test('a long thread keeps working past the old single-record limit (messages stored one key each)', async () => {
  const long = 'x'.repeat(30_000);
  const v1 = `/discovery/v1/assistant/${t.domain}/message`;
  let threadId;
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${BASE_URL}${v1}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fp: 'anonymous', ...(threadId ? { threadId } : {}), messages: [{ id: `long${i}`, role: 'user', content: `${long} static export ${i}` }] }),
    });
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.match(text, /\nd:\{"finishReason":"stop"/, `answer ${i} finished: ${text.slice(-200)}`);
    threadId = res.headers.get('x-thread-id');
  }
  // 10 questions of 16,000 stored characters each: about 165 KB, over the 128 KiB single-value limit.
  const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
  assert.equal(thread.body.messages.length, 20);
  assert.ok(thread.body.messages.every((m) => m.role === 'assistant' || m.content.length === 16_000));
});
