// Docs for agents over HTTP on the published fixture: the official MCP TypeScript client against the
// site's MCP server (tools listed and called), the JSON-RPC error codes and transport rules with raw
// requests, llms.txt / llms-full.txt and the page endpoint's Markdown. Every response is checked
// against the API reference (`call`, and `contractFetch` for the client).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BASE_URL, call, assertError, tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { contractFetch } from './contract/conformance.mjs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let t; // tenant with the fixture published
let stranger; // another organization, its own domain published too

const mcpPath = (domain) => `/discovery/v1/mcp/${domain}`;

async function connect(key, domain) {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE_URL}${mcpPath(domain)}`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    // The SDK passes a URL object; the contract check reads string URLs.
    fetch: (url, init) => contractFetch(String(url), init),
  });
  const client = new Client({ name: 'docs-edge-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A raw JSON-RPC POST: `body` is sent as given (a string) or as JSON. */
function rpc(body, { key = t.assistantKey, domain = t.domain, version } = {}) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (version) headers['mcp-protocol-version'] = version;
  return call('POST', mcpPath(domain), {
    token: key,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const textOf = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

before(async () => {
  t = await tenant();
  const res = await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS);
  assert.equal(res.status, 200, res.text);
  stranger = await tenant();
});

test('the official MCP client connects, lists the tools and calls each one against the fixture', async () => {
  const { client, transport } = await connect(t.assistantKey, t.domain);
  try {
    assert.equal(transport.protocolVersion, '2025-11-25', 'the newest revision was negotiated');
    assert.equal(client.getServerVersion()?.name, 'docs-edge');
    assert.match(client.getInstructions() ?? '', /search.*get_page.*ask/s);

    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ['search', 'get_page', 'ask']);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.inputSchema.required?.length, `${tool.name} names its required arguments`);
      assert.ok(tool.description.length > 80, `${tool.name} says what it does`);
      assert.equal(tool.annotations?.readOnlyHint, true);
    }

    const search = await client.callTool({ name: 'search', arguments: { query: 'static export', limit: 5 } });
    assert.notEqual(search.isError, true, textOf(search));
    const results = search.structuredContent.results;
    assert.equal(results.length, 5);
    assert.ok(results.slice(0, 3).every((r) => r.path.startsWith('api/static-export/')), `static export pages first: ${results.map((r) => r.path)}`);
    assert.ok(results[0].url.startsWith(`https://${t.domain}/api/static-export/`), results[0].url);
    assert.ok(results[0].excerpt.length > 0);
    assert.match(textOf(search), /^5 results for "static export"/);
    assert.ok(textOf(search).includes(`](${results[0].url})`), 'the text links each result');

    const page = await client.callTool({ name: 'get_page', arguments: { path: '/api/static-export/overview' } });
    assert.notEqual(page.isError, true, textOf(page));
    const markdown = textOf(page);
    assert.ok(markdown.startsWith(`# Static export\n\nSource: https://${t.domain}/api/static-export/overview\n`), markdown.slice(0, 200));
    assert.match(markdown, /Use the static export API to programmatically pre-render your site/);
    assert.match(markdown, /^> \*\*Info\*\*$/m, 'the <Info> callout is a labelled quote');
    assert.match(markdown, /^1\. \*\*Start a static export job\*\*$/m, 'steps are a numbered list');
    assert.match(markdown, /\[Start static export job\]\(https:\/\/[^)]+\/api\/static-export\/start-job\)/, 'links are absolute');
    assert.doesNotMatch(markdown.replace(/```[\s\S]*?```/g, ''), /<(Steps|Step|Info|Note)\b/, 'no raw components');

    const ask = await client.callTool({ name: 'ask', arguments: { question: 'How do I start a static export job?' } });
    assert.notEqual(ask.isError, true, textOf(ask));
    assert.ok(ask.structuredContent.answer.length > 20, ask.structuredContent.answer);
    assert.ok(ask.structuredContent.sources.length > 0, 'the answer has sources');
    assert.ok(ask.structuredContent.sources.some((s) => s.url.includes('/api/static-export/')), JSON.stringify(ask.structuredContent.sources));
    assert.match(textOf(ask), /\n\nSources:\n1\. \[/);

    const missing = await client.callTool({ name: 'get_page', arguments: { path: 'no/such/page' } });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /not found/);
    const invalid = await client.callTool({ name: 'search', arguments: { query: 'x', limit: 500 } });
    assert.equal(invalid.isError, true, 'from 2025-11-25, bad arguments are a tool error');
    assert.match(textOf(invalid), /limit/);
  } finally {
    await client.close();
  }
});

test('wrong key is 401, another organization\'s domain 404, for the client and raw requests', async () => {
  const status = (code) => (err) => err.code === code && /"code":"/.test(err.message);
  await assert.rejects(connect('svc_dsc_0000000000000000000000000000000000000000', t.domain), status(401));
  assertError(await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { key: 'svc_dsc_nope' }), 401, 'unauthorized');
  assertError(await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { domain: stranger.domain }), 404, 'not_found');
  assertError(await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { key: t.adminKey }), 403, 'wrong_key_kind');
  await assert.rejects(connect(t.assistantKey, stranger.domain), status(404));
});

test('malformed JSON-RPC gets the spec\'s error codes; notifications 202; GET 405', async () => {
  const parse = await rpc('{"jsonrpc": "2.0", "id": 1, "method": ');
  assert.equal(parse.status, 400);
  assert.equal(parse.body.error.code, -32700);
  assert.equal(parse.body.id, null);
  for (const bad of [{ jsonrpc: '1.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2 }, 17, { jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }]) {
    const res = await rpc(bad, { version: '2025-11-25' });
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(res.body.error.code, -32600, JSON.stringify(bad));
  }
  const unknown = await rpc({ jsonrpc: '2.0', id: 'u', method: 'prompts/list' }, { version: '2025-11-25' });
  assert.equal(unknown.status, 200);
  assert.deepEqual([unknown.body.id, unknown.body.error.code], ['u', -32601]);
  const badParams = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'rm_rf' } }, { version: '2025-11-25' });
  assert.equal(badParams.body.error.code, -32602);
  const oldRules = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search', arguments: {} } }, { version: '2025-06-18' });
  assert.equal(oldRules.body.error.code, -32602, 'before 2025-11-25, bad arguments are -32602');
  const notification = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, { version: '2025-11-25' });
  assert.equal(notification.status, 202);
  assert.equal(notification.text, '');
  assertError(await rpc({ jsonrpc: '2.0', id: 5, method: 'ping' }, { version: '2024-01-01' }), 400, 'invalid_request');

  const get = await call('GET', mcpPath(t.domain), { token: t.assistantKey, headers: { accept: 'text/event-stream' } });
  assertError(get, 405, 'method_not_allowed');
  assert.match(get.headers.get('allow'), /POST/);
  const preflight = await fetch(`${BASE_URL}${mcpPath(t.domain)}`, { method: 'OPTIONS' });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-headers'), /Mcp-Protocol-Version/);
});

test('the MCP endpoint and llms.txt count against the assistant\'s rate limits, with its headers', async () => {
  const remaining = (res) => Number(res.headers.get('ratelimit-remaining'));
  const one = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { version: '2025-11-25' });
  const two = await rpc({ jsonrpc: '2.0', id: 2, method: 'ping' }, { version: '2025-11-25' });
  const three = await call('GET', `/discovery/v1/llms/${t.domain}/llms.txt`, { token: t.assistantKey });
  for (const res of [one, two, three]) {
    assert.equal(res.status, 200);
    assert.ok(Number.isInteger(remaining(res)) && res.headers.get('ratelimit-limit'), 'RateLimit headers');
  }
  assert.ok(remaining(two) < remaining(one) && remaining(three) < remaining(two), 'each request counts');
});

test('revision negotiation: 2025-03-26 clients get their revision and batches; later ones no batches', async () => {
  const init = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } } });
  assert.equal(init.body.result.protocolVersion, '2025-03-26');
  const future = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'new', version: '1' } } });
  assert.equal(future.body.result.protocolVersion, '2025-11-25', 'an unknown revision gets the newest spoken');
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'custom domain', limit: 1 } } },
  ];
  const replies = await rpc(batch, { version: '2025-03-26' });
  assert.equal(replies.status, 200);
  assert.deepEqual(replies.body.map((r) => r.id), [1, 2]);
  assert.equal(replies.body[0].result.tools[0].outputSchema, undefined, '2025-03-26 tools have no outputSchema');
  assert.match(replies.body[1].result.content[0].text, /^1 results for "custom domain"/);
  const refused = await rpc(batch, { version: '2025-06-18' });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, -32600);
});

test('llms.txt and llms-full.txt of the live site; the page endpoint returns Markdown', async () => {
  const llms = await call('GET', `/discovery/v1/llms/${t.domain}/llms.txt`, { token: t.assistantKey });
  assert.equal(llms.status, 200);
  assert.match(llms.headers.get('content-type'), /^text\/plain/);
  const lines = llms.text.split('\n');
  assert.match(lines[0], /^# \S/);
  assert.match(llms.text, /\n\n> \S[^\n]+\n/);
  const links = [...llms.text.matchAll(/^- \[([^\]]+)\]\((\S+)\)(: .+)?$/gm)];
  assert.ok(links.length > 100, `${links.length} links`);
  assert.ok(links.every((m) => m[2].startsWith(`https://${t.domain}/`)), 'links are the live site\'s pages');
  assert.ok(/^## .+$/m.test(llms.text));
  assert.ok(links.some((m) => m[2] === `https://${t.domain}/api/static-export/overview`));

  const full = await call('GET', `/discovery/v1/llms/${t.domain}/llms-full.txt`, { token: t.assistantKey });
  assert.equal(full.status, 200);
  const page = await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path: 'api/static-export/overview', format: 'markdown' } });
  assert.equal(page.status, 200, page.text);
  assert.equal(page.body.path, 'api/static-export/overview');
  assert.ok(page.body.content.startsWith('# Static export\n'));
  assert.ok(full.text.includes(page.body.content), 'the page is a slice of llms-full.txt');
  const plain = await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path: 'api/static-export/overview' } });
  assert.notEqual(plain.body.content, page.body.content, 'text stays the default');
  assertError(await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path: 'index', format: 'html' } }), 400, 'invalid_request');
  assertError(await call('GET', `/discovery/v1/llms/${t.domain}/llms.txt`), 401, 'unauthorized');
  assertError(await call('GET', `/discovery/v1/llms/${stranger.domain}/llms.txt`, { token: t.assistantKey }), 404, 'not_found');
  assertError(await call('GET', `/discovery/v1/llms/${stranger.domain}/llms.txt`, { token: stranger.assistantKey }), 404, 'not_found');
});

test('the owner\'s skill.md: served beside llms.txt and as an MCP resource, never a page', async () => {
  const skill = '---\nname: acme-deploy\ndescription: Deploy and roll back Acme apps from an agent.\n---\n\n# Acme deploy\n\nRun `acme deploy --env production`.\n';
  const folder = mkdtempSync(join(tmpdir(), 'skill-site-'));
  writeFileSync(join(folder, 'docs.json'), JSON.stringify({ name: 'Acme', navigation: { pages: ['index'] } }));
  writeFileSync(join(folder, 'index.mdx'), '---\ntitle: Acme\n---\n\nAcme deploys apps.\n');
  const site = await tenant();
  const skillUrl = `/discovery/v1/llms/${site.domain}/skill.md`;

  // Published without one: nothing is served, only llms.txt is a resource.
  assert.equal((await publishFolder(site.domain, site.adminKey, folder)).status, 200);
  assertError(await call('GET', skillUrl, { token: site.assistantKey }), 404, 'not_found');
  const bare = await connect(site.assistantKey, site.domain);
  try {
    const { resources } = await bare.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), [`https://${site.domain}/llms.txt`], 'no skill.md, none listed');
    await assert.rejects(bare.client.readResource({ uri: `https://${site.domain}/skill.md` }), /-32002|not found/i);
  } finally {
    await bare.client.close();
  }

  // Re-published with one: served as written, listed and read, and still no page.
  writeFileSync(join(folder, 'skill.md'), skill);
  assert.equal((await publishFolder(site.domain, site.adminKey, folder)).status, 200);
  const served = await call('GET', skillUrl, { token: site.assistantKey });
  assert.equal(served.status, 200, served.text);
  assert.equal(served.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.equal(served.text, skill, 'served as written');
  const llms = await call('GET', `/discovery/v1/llms/${site.domain}/llms.txt`, { token: site.assistantKey });
  assert.doesNotMatch(llms.text, /skill/i, 'not a page of llms.txt');
  const search = await call('POST', `/discovery/v1/search/${site.domain}`, { token: site.assistantKey, json: { query: 'acme deploy production env' } });
  assert.equal(search.status, 200, search.text);
  assert.ok(search.body.every((hit) => !/skill/i.test(hit.path)), JSON.stringify(search.body));
  const { client } = await connect(site.assistantKey, site.domain);
  try {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), [`https://${site.domain}/llms.txt`, `https://${site.domain}/skill.md`]);
    const read = await client.readResource({ uri: `https://${site.domain}/skill.md` });
    assert.equal(read.contents[0].text, skill);
    assert.equal(read.contents[0].mimeType, 'text/markdown');
  } finally {
    await client.close();
  }
  assertError(await call('GET', skillUrl), 401, 'unauthorized');
});
