// Assistant v2 (AI SDK v5+ UI message stream), driven by the real clients of ai@5, ai@6 and ai@7:
// `DefaultChatTransport` posts what `useChat` posts and parses our SSE, `readUIMessageStream` builds the
// UI message from it; every chunk is also checked against that version's `uiMessageChunkSchema`.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as ai5 from 'ai5';
import * as ai6 from 'ai6';
import * as ai7 from 'ai7';
import { BASE_URL, call, assertError, tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';

const CLIENTS = { 'ai@5': ai5, 'ai@6': ai6, 'ai@7': ai7 };
let t;

before(async () => {
  t = await tenant();
  const res = await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS);
  assert.equal(res.status, 200, res.text);
});

const messageUrl = () => `${BASE_URL}/discovery/v2/assistant/${t.domain}/message`;
let nextId = 0;
const userMessage = (text) => ({ id: `u${++nextId}`, role: 'user', parts: [{ type: 'text', text }] });

/** The SSE `data:` payloads of a raw v2 body, `[DONE]` included as a string. */
function sseData(text) {
  return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6))
    .map((d) => (d === '[DONE]' ? d : JSON.parse(d)));
}

/** One useChat turn through `ai`'s own transport; also returns the raw response it parsed. */
async function chatTurn(ai, messages, body = {}) {
  const raw = {};
  const transport = new ai.DefaultChatTransport({
    api: messageUrl(),
    headers: { authorization: `Bearer ${t.assistantKey}` },
    body: { fp: 'anonymous', ...body },
    // Keeps a copy of what the server sent, to compare with what the client made of it.
    fetch: async (url, init) => {
      raw.request = JSON.parse(init.body);
      const res = await fetch(url, init);
      raw.status = res.status;
      raw.headers = res.headers;
      raw.text = await res.text();
      return new Response(raw.text, { status: res.status, headers: res.headers });
    },
  });
  const stream = await transport.sendMessages({
    chatId: 'chat-v2', messages, trigger: 'submit-message', messageId: undefined, abortSignal: undefined,
  });
  let message;
  for await (const snapshot of ai.readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
  return { message, raw };
}

for (const [name, ai] of Object.entries(CLIENTS)) {
  test(`${name}: a UI message with the streamed text, source-url parts and the threadId in metadata; a second turn continues the thread`, async () => {
    const first = await chatTurn(ai, [userMessage('How do I start a static export job?')]);
    assert.equal(first.raw.status, 200);
    assert.equal(first.raw.headers.get('x-vercel-ai-ui-message-stream'), 'v1');
    assert.match(first.raw.headers.get('content-type'), /^text\/event-stream/);
    assert.equal(first.raw.request.id, 'chat-v2', 'the transport sent its own fields, which are accepted');
    assert.equal(first.raw.request.trigger, 'submit-message');

    const chunks = sseData(first.raw.text);
    assert.equal(chunks.at(-1), '[DONE]');
    const schema = ai.uiMessageChunkSchema();
    for (const chunk of chunks.slice(0, -1)) {
      const result = await schema.validate(chunk);
      assert.ok(result.success, `${name} rejects ${JSON.stringify(chunk)}: ${result.error?.message}`);
    }
    const types = chunks.slice(0, -1).map((c) => c.type);
    assert.deepEqual([types[0], types[1]], ['start', 'start-step']);
    // The follow-ups travel between the two, as one `data-suggestions` chunk.
    assert.deepEqual(types.filter((type) => type !== 'data-suggestions').slice(-2), ['finish-step', 'finish']);
    assert.ok(types.filter((type) => type === 'data-suggestions').length <= 1);
    assert.ok(types.indexOf('source-url') < types.indexOf('text-start'), 'sources come before the text');
    assert.ok(types.includes('text-end'));
    const threadId = first.raw.headers.get('x-thread-id');
    assert.match(threadId, /^thr_/);
    const finish = chunks.at(-2);
    // Only what ai@5.0.0's strict schema knows: the thread in messageMetadata, no threadId/finishReason.
    assert.deepEqual(finish, { type: 'finish', messageMetadata: { threadId } });
    assert.deepEqual(chunks[0].messageMetadata, { threadId });

    const { message } = first;
    assert.equal(message.role, 'assistant');
    assert.equal(message.id, chunks[0].messageId);
    const streamedText = chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('');
    assert.ok(streamedText.length > 50, 'an answer was streamed');
    const text = message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
    assert.equal(text, streamedText);
    const sources = message.parts.filter((p) => p.type === 'source-url');
    assert.ok(sources.length >= 1);
    assert.deepEqual(sources.map((s) => s.url), chunks.filter((c) => c.type === 'source-url').map((c) => c.url));
    assert.ok(sources.some((s) => s.url.includes('/api/static-export/')), JSON.stringify(sources));
    assert.ok(sources.every((s) => s.url.startsWith(`https://${t.domain}/`) && s.title));
    assert.equal(message.metadata?.threadId, threadId);

    // The next turn as useChat sends it: the whole conversation, the assistant's message as the client
    // built it (state fields, step-start and source-url parts), plus the thread.
    const second = await chatTurn(ai, [first.raw.request.messages[0], message, userMessage('And how long is the bundle link valid?')], { threadId });
    assert.equal(second.raw.status, 200, second.raw.text);
    assert.equal(second.raw.headers.get('x-thread-id'), threadId);
    assert.equal(second.message.metadata?.threadId, threadId);
    const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
    assert.equal(thread.status, 200, thread.text);
    assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
    assert.equal(thread.body.messages[1].content, text);
  });
}

test('v2 validation errors name the field path', async () => {
  const valid = () => ({ fp: 'anonymous', messages: [userMessage('hi')] });
  const withPart = (part) => ({ ...valid(), messages: [{ id: 'a1', role: 'assistant', parts: [part] }, userMessage('hi')] });
  const cases = [
    [{ ...valid(), fp: undefined }, /^fp: /],
    [{ ...valid(), messages: [{ id: 'm', role: 'data', parts: [] }] }, /^messages\[0\]\.role: must be one of system, assistant, user/],
    [{ ...valid(), messages: [{ id: 'm', role: 'user', parts: [{ type: 'tool-invocation' }] }] }, /^messages\[0\]\.parts\[0\]\.type: must be one of text, reasoning, source-url, file, step-start/],
    [{ ...valid(), messages: [{ id: 'm', role: 'user' }] }, /^messages\[0\]\.parts: /],
    [withPart({ type: 'source-url', url: 'https://x.example' }), /^messages\[0\]\.parts\[0\]\.sourceId: /],
    [withPart({ type: 'file', url: 'https://x.example/a.png' }), /^messages\[0\]\.parts\[0\]\.mediaType: /],
    [withPart({ type: 'reasoning' }), /^messages\[0\]\.parts\[0\]\.text: /],
    [{ ...valid(), filter: { groups: 'api' } }, /^filter\.groups: /],
    [{ ...valid(), filter: { groups: [1] } }, /^filter\.groups\[0\]: /],
    [{ ...valid(), context: [{ type: 'code', value: 'x', path: 5 }] }, /^context\[0\]\.path: /],
    [{ ...valid(), currentPath: '/'.padEnd(201, 'a') }, /^currentPath: /],
    [{ ...valid(), messages: [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'x' }] }] }, /^messages\[0\]\.role: the last message must be the user's/],
  ];
  for (const [body, pattern] of cases) {
    const res = await call('POST', `/discovery/v2/assistant/${t.domain}/message`, { token: t.assistantKey, json: body });
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.error, pattern, JSON.stringify(body));
  }
});

test('v2 honours filter.groups: every source comes from the named group', async () => {
  const question = 'How do I add tabs to my site?';
  const { message } = await chatTurn(ai7, [userMessage(question)], { filter: { groups: ['Components'] } });
  const sources = message.parts.filter((p) => p.type === 'source-url').map((s) => new URL(s.url).pathname);
  assert.ok(sources.length >= 1, 'some page of the group answered');
  assert.ok(sources.every((p) => p.startsWith('/components/')), sources.join(', '));
  // Not vacuous: the same question filtered to another group that covers it (site tabs are
  // navigation) is answered from that group's pages, none of the first group's.
  const other = await chatTurn(ai7, [userMessage(question)], { filter: { groups: ['Manage your site'] } });
  const elsewhere = other.message.parts.filter((p) => p.type === 'source-url').map((s) => new URL(s.url).pathname);
  assert.ok(elsewhere.length >= 1, 'some page of the other group answered');
  assert.ok(elsewhere.every((p) => !p.startsWith('/components/')), elsewhere.join(', '));
});

test('v2 uses the same keys, CORS and rate-limit headers as v1', async () => {
  const wrongKind = await call('POST', `/discovery/v2/assistant/${t.domain}/message`, { token: t.adminKey, json: { fp: 'a', messages: [userMessage('hi')] } });
  assertError(wrongKind, 403, 'wrong_key_kind');
  const res = await fetch(messageUrl(), {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json', origin: 'https://app.example' },
    body: JSON.stringify({ fp: 'a', messages: [userMessage('What is a static export?')] }),
  });
  await res.text();
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.ok(Number(res.headers.get('ratelimit-remaining')) >= 0);
  assert.match(res.headers.get('access-control-expose-headers') ?? '', /x-thread-id/i);
});
