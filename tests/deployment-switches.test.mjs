// Feature switches that must gate, on workers started with their own variables, and an air-gapped
// deployment's LLM rule: a backend whose LLM_BASE_URL host is not declared in INTERNAL_HOSTS is refused
// (500, the reason in the log, no request sent, even though the address answers); one on a declared
// host is used. The LLM is tests/support/llm-mock.mjs on 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { assertError, call } from './support/api.mjs';
import { startLlmMock, MOCK_TOKENS } from './support/llm-mock.mjs';
import { startPublishedWorker } from './support/own-worker.mjs';

const cleanup = [];
let mock;

const worker = (name, vars) => startPublishedWorker(name, { LINK_SIGNING_KEY: 'switches-test-key', ...vars }, cleanup);

const question = (text) => ({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: text, parts: [{ type: 'text', text }] }] });

function rpc(w, body, version = '2025-11-25') {
  return call('POST', `/discovery/v1/mcp/${w.t.domain}`, {
    base: w.baseUrl,
    token: w.t.assistantKey,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version },
    body: JSON.stringify(body),
  });
}

let refused; // air-gapped, openai at a reachable but undeclared host, search and static export off
let accepted; // air-gapped, openai at a declared internal host

before(async () => {
  mock = await startLlmMock();
  cleanup.push(() => mock.close());
  const port = new URL(mock.baseUrl).port;
  const llm = { ASSISTANT_BACKEND: 'openai', LLM_API_KEY: 'sk-switches-test', LLM_MODEL: 'switches-model' };
  refused = await worker('airgap-refused', {
    DEPLOYMENT_KIND: 'air-gapped',
    FEATURE_ASSISTANT: 'true',
    FEATURE_STATIC_EXPORT: 'false',
    ...llm,
    // `localhost` reaches the mock as well as 127.0.0.1 does; only the declared name counts.
    LLM_BASE_URL: `http://localhost:${port}/v1`,
    INTERNAL_HOSTS: `127.0.0.1:${port}`,
  });
  accepted = await worker('airgap-accepted', {
    DEPLOYMENT_KIND: 'air-gapped',
    FEATURE_ASSISTANT: 'true',
    ...llm,
    LLM_BASE_URL: mock.baseUrl,
    INTERNAL_HOSTS: `127.0.0.1:${port}`,
  });
}, { timeout: 400_000 });

after(async () => {
  for (const step of cleanup.reverse()) await step();
});

test('air-gapped: an LLM outside INTERNAL_HOSTS is refused with no request sent; a declared one answers', async () => {
  const before = mock.requests.length;
  const res = await call('POST', `/discovery/v1/assistant/${refused.t.domain}/message`, { base: refused.baseUrl, token: refused.t.assistantKey, json: question('What is a static export?') });
  assertError(res, 500, 'internal_error');
  assert.doesNotMatch(res.text, /INTERNAL_HOSTS|localhost/, 'the reason goes to the log, not the caller');
  assert.match(refused.output(), /LLM_BASE_URL host `localhost` is not declared internal/);
  assert.equal(mock.requests.length, before, 'nothing reached the LLM');

  const ok = await call('POST', `/discovery/v1/assistant/${accepted.t.domain}/message`, { base: accepted.baseUrl, token: accepted.t.assistantKey, json: question('What is a static export?') });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(mock.requests.length, before + 1);
  assert.equal(mock.requests.at(-1).body.model, 'switches-model');
  for (const token of MOCK_TOKENS) assert.ok(ok.text.includes(JSON.stringify(token)), `${token} streamed: ${ok.text}`);
});

test('static export off: all five export routes answer 404 feature_disabled', async () => {
  const { baseUrl: base, t } = refused;
  const token = t.adminKey;
  const routes = [
    ['POST', '/v1/static-export/jobs', { domain: t.domain }],
    ['GET', '/v1/static-export/jobs/se_0123456789abcdef'],
    ['DELETE', '/v1/static-export/jobs/se_0123456789abcdef'],
    ['POST', '/v1/static-export/jobs/se_0123456789abcdef/bundle'],
    ['GET', '/v1/static-export/bundles/se_0123456789abcdef?expires=1&sig=x'],
  ];
  for (const [method, path, json] of routes) {
    const res = await call(method, path, { base, token, json });
    assertError(res, 404, 'feature_disabled');
    assert.match(res.body.error, /staticExport/, path);
  }
});

test('MCP follows the switches: search off leaves only ask; both off, the route is off', async () => {
  const list = await rpc(refused, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.body.result.tools.map((tool) => tool.name), ['ask']);
  for (const [name, args] of [['search', { query: 'export' }], ['get_page', { path: 'quickstart' }]]) {
    const res = await rpc(refused, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.error.code, -32602, res.text);
    assert.match(res.body.error.message, /switched off/);
  }
  const init = await rpc(refused, { jsonrpc: '2.0', id: 3, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  assert.doesNotMatch(init.body.result.instructions, /get_page/);
  // llms.txt follows search.
  for (const file of ['llms.txt', 'llms-full.txt']) {
    assertError(await call('GET', `/discovery/v1/llms/${refused.t.domain}/${file}`, { base: refused.baseUrl, token: refused.t.assistantKey }), 404, 'feature_disabled');
  }
  // The accepted worker is air-gapped with the assistant on and search at its default (off): the
  // assistant's tool only there too; the main test worker (cloud) offers all three (tests/mcp.test.mjs).
  const both = await rpc(accepted, { jsonrpc: '2.0', id: 4, method: 'tools/list' });
  assert.deepEqual(both.body.result.tools.map((tool) => tool.name), ['ask']);
});
