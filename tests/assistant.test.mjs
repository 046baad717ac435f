// Assistant v1 with the extractive backend, driven by the real AI SDK v4 client (`callChatApi` from
// @ai-sdk/ui-utils@1, what `useChat` uses), plus validation, threads and answer quality on the fixture.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { callChatApi } from '@ai-sdk/ui-utils';
import { BASE_URL, call, assertError, tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { contractFetch } from './contract/conformance.mjs';

let t; // tenant with the fixture published

before(async () => {
  t = await tenant();
  const res = await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS);
  assert.equal(res.status, 200, res.text);
});

const messageUrl = () => `${BASE_URL}/discovery/v1/assistant/${t.domain}/message`;
let nextId = 0;
const userMessage = (text) => ({ id: `u${++nextId}`, role: 'user', content: text, createdAt: new Date(), parts: [{ type: 'text', text }] });

/** Sources as the v4 client holds them: the result of the `search` tool invocation (no `h:` parts,
 * which ai@4.1 cannot parse). */
function searchSources(message) {
  return message.parts.filter((p) => p.type === 'tool-invocation' && p.toolInvocation.toolName === 'search')
    .flatMap((p) => p.toolInvocation.result);
}

/** One useChat turn: posts what useChat posts and collects what the client makes of our stream. */
async function chatTurn(messages, extraBody = {}) {
  let finished;
  let lastData = [];
  let response;
  let streamed = '';
  await callChatApi({
    api: messageUrl(),
    body: { id: 'chat-1', messages, fp: 'anonymous', retrievalPageSize: 5, context: [], ...extraBody },
    streamProtocol: 'data',
    headers: { authorization: `Bearer ${t.assistantKey}` },
    restoreMessagesOnFailure() {},
    onResponse(res) {
      response = res;
    },
    onUpdate({ message, data }) {
      streamed = message.content;
      lastData = data ?? lastData;
    },
    onFinish(message, details) {
      finished = { message, details };
    },
    generateId: () => `gen-${++nextId}`,
    lastMessage: messages[messages.length - 1],
    fetch: contractFetch,
  });
  return { ...finished, data: lastData, response, streamed };
}

test('the AI SDK v4 client reads a grounded answer with sources and a thread id', async () => {
  const turn = await chatTurn([userMessage('How do I start a static export job?')]);
  const { message, data, response } = turn;
  assert.equal(response.headers.get('x-vercel-ai-data-stream'), 'v1');
  const threadId = response.headers.get('x-thread-id');
  assert.match(threadId, /^thr_[0-9a-f]{16}$/);
  assert.ok(message.content.length > 40, message.content);
  const textParts = message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
  assert.equal(textParts, message.content);
  const sources = searchSources(message);
  assert.ok(sources.length >= 1, 'at least one source');
  for (const s of sources) {
    assert.ok(s.url.startsWith(`https://${t.domain}/`), s.url);
    assert.ok(s.title);
  }
  assert.ok(sources.some((s) => s.url.includes('/api/static-export/')), JSON.stringify(sources));
  assert.deepEqual(data.at(-1), { type: 'finish', threadId });
  assert.equal(turn.details.finishReason, 'stop');
  assert.ok(turn.details.usage.completionTokens > 0);
});

test('a follow-up with threadId continues the same thread and is understood from earlier turns', async () => {
  const first = userMessage('How do I generate the export bundle?');
  const one = await chatTurn([first]);
  const threadId = one.response.headers.get('x-thread-id');
  const followUp = userMessage('and how long is the link valid?');
  const two = await chatTurn([first, one.message, followUp], { threadId });
  assert.equal(two.response.headers.get('x-thread-id'), threadId);
  assert.deepEqual(two.data.at(-1), { type: 'finish', threadId });
  const sources = searchSources(two.message).map((s) => s.url);
  assert.ok(sources.some((u) => u.includes('static-export')), `follow-up stays on topic: ${sources}`);
  const thread = await call('GET', `/v1/threads/${threadId}`, { token: t.adminKey });
  assert.equal(thread.status, 200, thread.text);
  assert.equal(thread.body.threadId, threadId);
  assert.deepEqual(thread.body.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  assert.equal(thread.body.messages[2].content, 'and how long is the link valid?');
  assert.equal(thread.body.messages[3].content, two.message.content);
  assert.ok(thread.body.messages[3].sources.length >= 1);
});

test('an unknown threadId is a 404; another organization cannot read a thread', async () => {
  const res = await call('POST', `/discovery/v1/assistant/${t.domain}/message`, {
    token: t.assistantKey,
    json: { fp: 'anonymous', threadId: 'thr_0000000000000000', messages: [userMessage('hi')] },
  });
  assertError(res, 404, 'not_found');
  const one = await chatTurn([userMessage('What is the assistant?')]);
  const threadId = one.response.headers.get('x-thread-id');
  const stranger = await tenant();
  assertError(await call('GET', `/v1/threads/${threadId}`, { token: stranger.adminKey }), 404, 'not_found');
  assertError(await call('GET', `/v1/threads/${threadId}`, { token: t.assistantKey }), 403, 'wrong_key_kind');
});

// One failing case per rule of §2.1, with the field path the 400 must name.
const valid = () => ({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: 'hi', parts: [{ type: 'text', text: 'hi' }] }] });
const withMessage = (patch) => {
  const body = valid();
  Object.assign(body.messages[0], patch);
  return body;
};
const withPart = (part) => {
  const body = valid();
  body.messages = [
    { id: 'm0', role: 'assistant', content: 'x', parts: [part] },
    body.messages[0],
  ];
  return body;
};
const VALIDATION_CASES = [
  ['fp missing', (() => { const b = valid(); delete b.fp; return b; })(), /^fp: /],
  ['fp not a string', { ...valid(), fp: 7 }, /^fp: /],
  ['messages missing', { fp: 'anonymous' }, /^messages: /],
  ['messages not an array', { fp: 'anonymous', messages: {} }, /^messages: /],
  // A missing id is accepted: a default ai@4 useChat sends none (tests/assistant-compat.test.mjs).
  ['message id not a string', withMessage({ id: 5 }), /^messages\[0\]\.id: must be a string/],
  ['role not allowed', withMessage({ role: 'robot' }), /^messages\[0\]\.role: must be one of/],
  ['content missing', withMessage({ content: undefined }), /^messages\[0\]\.content: /],
  ['createdAt not ISO 8601', withMessage({ createdAt: 'yesterday' }), /^messages\[0\]\.createdAt: /],
  ['annotations not an array', withMessage({ annotations: 'x' }), /^messages\[0\]\.annotations: /],
  ['part type unknown', withMessage({ parts: [{ type: 'video' }] }), /^messages\[0\]\.parts\[0\]\.type: /],
  ['text part without text', withMessage({ parts: [{ type: 'text' }] }), /^messages\[0\]\.parts\[0\]\.text: /],
  ['reasoning without details', withPart({ type: 'reasoning', reasoning: 'r' }), /^messages\[0\]\.parts\[0\]\.details: /],
  ['reasoning detail of unknown type', withPart({ type: 'reasoning', reasoning: 'r', details: [{ type: 'secret' }] }), /^messages\[0\]\.parts\[0\]\.details\[0\]\.type: /],
  ['redacted detail without data', withPart({ type: 'reasoning', reasoning: 'r', details: [{ type: 'redacted' }] }), /^messages\[0\]\.parts\[0\]\.details\[0\]\.data: /],
  ['source with sourceType other than url', withPart({ type: 'source', source: { sourceType: 'file', id: 's', url: 'https://x' } }), /^messages\[0\]\.parts\[0\]\.source\.sourceType: /],
  ['source without url', withPart({ type: 'source', source: { sourceType: 'url', id: 's' } }), /^messages\[0\]\.parts\[0\]\.source\.url: /],
  ['tool invocation with bad state', withPart({ type: 'tool-invocation', toolInvocation: { state: 'done', toolCallId: 'c', toolName: 'n', args: {} } }), /^messages\[0\]\.parts\[0\]\.toolInvocation\.state: must be one of partial-call, call, result/],
  ['tool result without result', withPart({ type: 'tool-invocation', toolInvocation: { state: 'result', toolCallId: 'c', toolName: 'n', args: {} } }), /^messages\[0\]\.parts\[0\]\.toolInvocation\.result: /],
  ['tool call without toolName', withPart({ type: 'tool-invocation', toolInvocation: { state: 'call', toolCallId: 'c', args: {} } }), /^messages\[0\]\.parts\[0\]\.toolInvocation\.toolName: /],
  ['attachment without url', withMessage({ experimental_attachments: [{ name: 'a.png' }] }), /^messages\[0\]\.experimental_attachments\[0\]\.url: /],
  ['threadId not a string', { ...valid(), threadId: 5 }, /^threadId: /],
  ['retrievalPageSize out of range', { ...valid(), retrievalPageSize: 500 }, /^retrievalPageSize: /],
  ['filter not an object', { ...valid(), filter: 'en' }, /^filter: /],
  ['filter.language not a string', { ...valid(), filter: { language: 3 } }, /^filter\.language: /],
  ['context item type unknown', { ...valid(), context: [{ type: 'image', value: 'x' }] }, /^context\[0\]\.type: /],
  ['context item without value', { ...valid(), context: [{ type: 'code' }] }, /^context\[0\]\.value: /],
  ['currentPath over 200 characters', { ...valid(), currentPath: '/'.padEnd(201, 'a') }, /^currentPath: /],
];

for (const [name, body, pattern] of VALIDATION_CASES) {
  test(`validation: ${name}`, async () => {
    const res = await call('POST', `/discovery/v1/assistant/${t.domain}/message`, { token: t.assistantKey, json: body });
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.error, pattern);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });
}

test('useChat extra fields are accepted', async () => {
  const body = { ...valid(), id: 'chat', data: { a: 1 }, revisionId: 'r', messages: [{ ...valid().messages[0], toolInvocations: [], reasoning: 'x', revisionId: 'r2' }] };
  const res = await call('POST', `/discovery/v1/assistant/${t.domain}/message`, { token: t.assistantKey, json: body });
  assert.equal(res.status, 200, res.text);
});

// Questions written for this test, each with the page(s) that answer it (pages in navigation: one no
// navigation lists is served but kept out of search, as the format says).
const QUESTIONS = [
  ['How do I start a static export job?', ['api/static-export/']],
  ['How do I set up a custom domain for my docs?', ['customize/custom-domain']],
  ['How do I add redirects?', ['create/redirects']],
  ['How do I install the Mintlify CLI?', ['cli/install']],
  ['How can I preview my docs locally?', ['cli/preview', 'cli/install', 'cli/index']],
  ['How do I configure single sign-on for the dashboard?', ['dashboard/sso']],
  ['What roles can dashboard members have?', ['dashboard/roles']],
  ['How do I embed the AI assistant widget?', ['assistant/widget']],
  ['How do I use tabs in a page?', ['components/tabs']],
  ['How do I add an accordion component?', ['components/accordions']],
  ['How do I create a changelog?', ['create/changelogs', 'components/update']],
  ['How do I set up multi-language documentation?', ['guides/internationalization', 'organize/navigation']],
  ['How do I host docs at a subpath with Cloudflare Workers?', ['deploy/cloudflare']],
  ['How do I configure preview deployments?', ['deploy/preview-deployments']],
  ['How do I use reusable snippets?', ['create/reusable-snippets']],
  ['How do I add custom fonts?', ['customize/fonts']],
  // The developer-documentation guide's "Set up your API reference" section answers it too.
  ['How do I set up an OpenAPI reference?', ['api-playground/openapi-setup', 'guides/developer-documentation']],
  ['How do I export analytics to CSV?', ['analytics/export']],
  ['How do I generate an llms.txt file?', ['ai/llmstxt']],
  ['How do I add Mermaid diagrams?', ['components/mermaid-diagrams']],
  ['How do I set up a monorepo?', ['deploy/monorepo']],
];

test('extractive answers cite the expected page for at least 90 % of the questions', async () => {
  const misses = [];
  for (const [question, expected] of QUESTIONS) {
    const { message } = await chatTurn([userMessage(question)]);
    const urls = searchSources(message).map((s) => s.url);
    const hit = urls.some((u) => expected.some((e) => u.includes(`/${e}`)));
    if (!hit) misses.push(`${question} -> ${urls.join(', ') || 'no sources'}`);
  }
  const rate = (QUESTIONS.length - misses.length) / QUESTIONS.length;
  assert.ok(QUESTIONS.length >= 20);
  assert.ok(rate >= 0.9, `hit rate ${rate.toFixed(2)}; misses:\n${misses.join('\n')}`);
});

test('an unrelated question is answered as not covered, without sources', async () => {
  const { message } = await chatTurn([userMessage('What is the boiling point of tungsten in kelvin?')]);
  assert.match(message.content, /doesn't cover|does not cover/i);
  assert.equal(searchSources(message).length, 0);
});
