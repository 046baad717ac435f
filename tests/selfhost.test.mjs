// Self-hosting: the demo site exported by the running worker, served by docs-edge-serve from its
// bundleUrl, in Chromium with every other host blocked; search, pages and the assistant answered
// offline from the bundle's search packs; then the ways a bundle can go wrong (expired link, tampered archive, wrong SHA-256, pinned
// version, traversal entry) each keep the last good one live; SIGHUP and the refresh loop pick up a
// republish; and a deployment with features switched off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { callChatApi } from '@ai-sdk/ui-utils';
import * as ai5 from 'ai5';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BASE_URL, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { exportLink } from './support/export.mjs';
import { launchChromium } from './support/browser.mjs';
import { startServe } from './support/serve.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

let t;
let first; // { job, link }
let serve;
const scratch = scratchDir('docs-edge-selfhost-');

/** Publishes `folder`, exports it (with the start request's `options`) and generates the bundle;
 * returns the job and the bundle link. */
async function exportSite(who, folder = DEMO_DOCS, base, options = {}) {
  assert.equal((await publishFolder(who.domain, who.adminKey, folder, { base })).status, 200);
  return exportLink(who, options, base);
}

/** The demo docs with the quickstart retitled: a republish the server must pick up. */
function retitledDocs(title) {
  const dir = join(scratch, title.replace(/\W+/g, '-'));
  cpSync(DEMO_DOCS, dir, { recursive: true });
  const page = join(dir, 'quickstart.mdx');
  writeFileSync(page, readFileSync(page, 'utf8').replace('title: "Quickstart"', `title: "${title}"`));
  return dir;
}

/** A local HTTP server answering every GET with `bytes`, for archives the worker would never make. */
async function hostBytes(bytes) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length });
    res.end(bytes);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/bundle.tar.gz`, close: () => new Promise((r) => server.close(r)) };
}

/** One ustar entry (header and padded data), written by hand so its name can climb out. */
function tarEntry(name, data) {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  Buffer.from(data).copy(padded);
  return Buffer.concat([header, padded]);
}

before(async () => {
  t = await tenant();
  // With the beacon (opt-in per export): the tests below check what this server's policy does with it.
  first = await exportSite(t, DEMO_DOCS, undefined, { analytics: true });
  assert.match(first.link.sha256, /^[0-9a-f]{64}$/);
  serve = await startServe({ config: { static_export: { enabled: true, bundle_url: first.link.bundleUrl, sha256: first.link.sha256 } } });
  await serve.waitFor((h) => h.jobId === first.job.jobId, 'the first bundle');
});

after(async () => {
  await serve?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

test('the export, served by docs-edge-serve, works in Chromium with every other host blocked', async () => {
  const health = await serve.health();
  assert.equal(health.source, 'fresh');
  assert.equal(health.sha256, first.link.sha256);
  assert.equal(health.domain, t.domain);
  assert.equal(health.lastRefreshError, null);

  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const own = new URL(serve.url).host;
    const outside = [];
    // Analytics is on in this (cloud) deployment and the export asked for it: the pages' beacon
    // reports to the service, the one request allowed to leave the bundle (the CSP the server sends
    // names that origin alone).
    const service = new URL(BASE_URL).host;
    const beacons = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.host === own) return route.continue();
      if (url.host === service && url.pathname === `/discovery/v1/analytics/${t.domain}/events`) {
        beacons.push(url.href);
        return route.continue();
      }
      outside.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push(msg.text()); });

    const home = await page.goto(`${serve.url}/`);
    assert.equal(home.status(), 200);
    assert.match(await page.title(), /Docs Edge/);
    // The export's canonical, extensionless URL.
    const quick = await page.goto(`${serve.url}/quickstart`);
    assert.equal(quick.status(), 200);
    assert.equal(await page.locator('h1').first().innerText(), 'Quickstart');
    const nested = await page.goto(`${serve.url}/assistant/overview`);
    assert.equal(nested.status(), 200);

    // Offline search from the bundle's index.
    const input = page.locator('.search-input');
    await page.waitForFunction(() => !document.querySelector('.search-input').disabled);
    await input.fill('publish docs folder');
    const results = page.locator('.search-results a');
    await results.first().waitFor({ timeout: 10_000 });
    const hrefs = await results.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.some((h) => h.includes('quickstart')), hrefs.join(', '));

    // CSP violations and script errors show up as console errors.
    assert.deepEqual(problems, []);

    const missing = await page.goto(`${serve.url}/no/such/page`);
    assert.equal(missing.status(), 404);
    assert.match(await page.locator('h1').first().innerText(), /not found/i);
    // Styled like every page although it is deeper than the bundle's 404.html.
    assert.ok(await page.evaluate(() => document.styleSheets.length > 0 && document.styleSheets[0].cssRules.length > 0));
    assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
    assert.deepEqual(outside, [], 'requests left the bundle');
    assert.ok(beacons.length >= 3, `page views were reported (${beacons.length} beacons)`);
  } finally {
    await browser.close();
  }
});

test('a server with analytics off keeps the bundle\'s beacon in: its policy drops the beacon origin', async () => {
  // The same bundle (exported with analytics on) on a server whose own deployment has analytics off:
  // the first test lets the beacon through because there the server's switches allow it.
  const quiet = await startServe({
    config: { static_export: { enabled: true, bundle_url: first.link.bundleUrl, sha256: first.link.sha256 } },
    env: { FEATURE_ANALYTICS: 'false' },
  });
  const browser = await launchChromium();
  try {
    const health = await quiet.waitFor((h) => h.jobId === first.job.jobId, 'the bundle');
    assert.deepEqual([health.pages.analytics, health.pages.playground], [false, false]);
    // The bundle does carry a beacon (the manifest says where it posts), and the cloud server above
    // lets it through.
    const manifest = await (await fetch(`${quiet.url}/_docs-edge/manifest.json`)).json();
    assert.ok(manifest.beaconEndpoint.endsWith(`/discovery/v1/analytics/${t.domain}/events`), manifest.beaconEndpoint);
    assert.equal((await serve.health()).pages.analytics, true);
    const res = await fetch(`${quiet.url}/quickstart`);
    assert.equal(res.headers.get('content-security-policy'), health.pages.contentSecurityPolicy);
    assert.match(res.headers.get('content-security-policy'), /connect-src 'self';/);
    const context = await browser.newContext();
    const own = new URL(quiet.url).host;
    const outside = [];
    // Every other host blocked, the service's included: nothing may even be attempted.
    await context.route('**/*', (route) => {
      if (new URL(route.request().url()).host === own) return route.continue();
      outside.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    const refused = [];
    page.on('console', (msg) => { if (/Content Security Policy/.test(msg.text())) refused.push(msg.text()); });
    for (const path of ['/', '/quickstart']) {
      assert.equal((await page.goto(`${quiet.url}${path}`)).status(), 200);
      await page.waitForLoadState('load');
    }
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    assert.deepEqual(outside, [], 'no request left for the beacon host or any other');
    assert.ok(refused.some((m) => m.includes('/analytics/')), `the browser refused the beacon: ${refused.join(' | ')}`);
  } finally {
    await browser.close();
    await quiet.remove();
  }
});

test('static hosting: content types, ETag, Range, HEAD, compression, caching and security headers', async () => {
  const res = await fetch(`${serve.url}/quickstart`, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/html/);
  assert.equal(res.headers.get('content-encoding'), 'gzip');
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.match(res.headers.get('content-security-policy'), /script-src 'self' 'sha256-/);
  assert.ok(res.headers.get('last-modified'));
  const etag = res.headers.get('etag');
  assert.ok(etag);
  const again = await fetch(`${serve.url}/quickstart`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);

  const css = await fetch(`${serve.url}/_static/site.css`, { headers: { range: 'bytes=0-9', 'accept-encoding': 'identity' } });
  assert.equal(css.status, 206);
  assert.equal(css.headers.get('content-type'), 'text/css');
  assert.equal((await css.arrayBuffer()).byteLength, 10);
  assert.equal((await fetch(`${serve.url}/_static/search/en/meta.json`)).status, 200);
  const head = await fetch(`${serve.url}/index.html`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal((await head.text()).length, 0);
  const dir = await fetch(`${serve.url}/assistant/`);
  assert.equal(dir.status, 404, 'a folder without index.html is not found');
  assert.equal((await fetch(`${serve.url}/`, { method: 'POST' })).status, 405);
});

test('a page asked for as Markdown answers with its Markdown; a browser still gets the HTML', async () => {
  const html = await fetch(`${serve.url}/quickstart`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  assert.match(html.headers.get('content-type'), /^text\/html/);
  const varies = (res) => res.headers.get('vary')?.split(',').map((v) => v.trim().toLowerCase()) ?? [];
  assert.ok(varies(html).includes('accept'), html.headers.get('vary'));
  const htmlTag = html.headers.get('etag');
  for (const accept of ['text/markdown', 'text/plain', 'text/markdown, text/html;q=0.5']) {
    const res = await fetch(`${serve.url}/quickstart`, { headers: { accept } });
    assert.equal(res.status, 200, accept);
    assert.equal(res.headers.get('content-type'), 'text/markdown; charset=utf-8', accept);
    assert.ok(varies(res).includes('accept'), res.headers.get('vary'));
    const text = await res.text();
    assert.match(text, /^# Quickstart\n\nSource: /, accept);
    assert.doesNotMatch(text, /<html/);
    assert.notEqual(res.headers.get('etag'), htmlTag, 'each representation has its own validator');
  }
  const index = await fetch(`${serve.url}/`, { headers: { accept: 'text/markdown' } });
  assert.equal(index.headers.get('content-type'), 'text/markdown; charset=utf-8');
  const missing = await fetch(`${serve.url}/no/such/page`, { headers: { accept: 'text/markdown' } });
  assert.equal(missing.status, 404);
});

test('a restart after the link expired serves the cached bundle', async () => {
  const past = Math.floor(Date.now() / 1000) - 10;
  const sig = createHmac('sha256', process.env.LINK_SIGNING_KEY).update(`bundle\n${first.job.jobId}\n${past}`).digest('hex');
  const expired = new URL(first.link.bundleUrl);
  expired.searchParams.set('expires', String(past));
  expired.searchParams.set('sig', sig);
  // A new instance (cache folders are one instance's) holding what the first one kept.
  const cacheDir = join(scratch, 'restart-cache');
  mkdirSync(cacheDir, { recursive: true });
  cpSync(join(serve.cacheDir, 'bundle.tar.gz'), join(cacheDir, 'bundle.tar.gz'));
  const restarted = await startServe({
    cacheDir,
    config: { static_export: { enabled: true, bundle_url: expired.toString() } },
  });
  try {
    const health = await restarted.waitFor((h) => h.jobId, 'the cached bundle');
    assert.equal(health.source, 'cached');
    assert.equal(health.jobId, first.job.jobId);
    assert.match(health.lastRefreshError, /403/);
    assert.match(restarted.log(), /serving_cached_bundle/);
    assert.doesNotMatch(restarted.log(), new RegExp(sig), 'the link signature stays out of the log');
    assert.equal((await fetch(`${restarted.url}/quickstart`)).status, 200);
  } finally {
    await restarted.remove();
  }
});

test('offline search and assistant from the bundle: same answers as the worker, useChat v4 and v5 unchanged', async () => {
  // No way out: the link points at a closed port, so everything comes from the cached archive.
  const cacheDir = join(scratch, 'assistant-cache');
  mkdirSync(cacheDir, { recursive: true });
  cpSync(join(serve.cacheDir, 'bundle.tar.gz'), join(cacheDir, 'bundle.tar.gz'));
  const keyHash = createHash('sha256').update(t.assistantKey).digest('hex');
  const offline = await startServe({
    cacheDir,
    config: { static_export: { enabled: true, bundle_url: 'http://127.0.0.1:9/gone.tar.gz' }, assistant: { enabled: true, key_sha256: [keyHash] } },
  });
  try {
    assert.equal((await offline.waitFor((h) => h.jobId, 'the cached bundle')).source, 'cached');
    const auth = { authorization: `Bearer ${t.assistantKey}` };
    const query = { query: 'publish docs folder', pageSize: 3 };
    const ours = await call('POST', `/discovery/v1/search/${t.domain}`, { base: offline.url, token: t.assistantKey, json: query });
    const worker = await call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: query });
    assert.equal(ours.status, 200, ours.text);
    assert.ok(ours.body.length > 0);
    assert.deepEqual(ours.body, worker.body, 'the same index and the same core search');
    const pageQuery = { path: 'quickstart' };
    const ourPage = await call('POST', `/discovery/v1/page/${t.domain}`, { base: offline.url, token: t.assistantKey, json: pageQuery });
    assert.equal(ourPage.status, 200, ourPage.text);
    assert.deepEqual(ourPage.body, (await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: pageQuery })).body);
    // Read from the bundle's packs through the cache: the meta and what these reads touched.
    const { search } = await offline.health();
    assert.ok(search.metaBytes > 0 && search.cacheEntries > 0 && search.cacheBytes <= search.cacheCapacity, JSON.stringify(search));
    const denied = await call('POST', `/discovery/v1/search/${t.domain}`, { base: offline.url, token: 'svc_dsc_wrong', json: query });
    assert.equal(denied.status, 401);
    const bad = await call('POST', `/discovery/v1/search/${t.domain}`, { base: offline.url, token: t.assistantKey, json: { query: 'x', pageSize: 0 } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /^pageSize: /);

    // Each client against the server and against the worker: the same answer, parsed the same way.
    const question = 'How do I publish my docs?';
    const v4 = async (base, token) => {
      let done;
      await callChatApi({
        api: `${base}/discovery/v1/assistant/${t.domain}/message`,
        body: { id: 'c1', messages: [{ id: 'u1', role: 'user', content: question, parts: [{ type: 'text', text: question }] }], fp: 'anonymous' },
        streamProtocol: 'data',
        headers: { authorization: `Bearer ${token}` },
        restoreMessagesOnFailure() {},
        onResponse() {},
        onUpdate() {},
        onFinish(message, details) { done = { message, details }; },
        generateId: () => 'g1',
        lastMessage: undefined,
        fetch,
      });
      return done;
    };
    const v5 = async (base) => {
      const transport = new ai5.DefaultChatTransport({ api: `${base}/discovery/v2/assistant/${t.domain}/message`, headers: auth, body: { fp: 'anonymous' } });
      const stream = await transport.sendMessages({
        chatId: 'c2', trigger: 'submit-message', messageId: undefined, abortSignal: undefined,
        messages: [{ id: 'u2', role: 'user', parts: [{ type: 'text', text: question }] }],
      });
      let message;
      for await (const snapshot of ai5.readUIMessageStream({ stream, terminateOnError: true })) message = snapshot;
      return message;
    };
    const types = (parts) => parts.map((p) => p.type);

    const [ours4, worker4] = [await v4(offline.url, t.assistantKey), await v4(process.env.BASE_URL, t.assistantKey)];
    assert.ok(ours4.message.content.length > 40, ours4.message.content);
    assert.equal(ours4.details.finishReason, 'stop');
    assert.equal(ours4.message.content, worker4.message.content, 'the same extractive answer as the worker');
    assert.deepEqual(types(ours4.message.parts), types(worker4.message.parts));

    const [ours5, worker5] = [await v5(offline.url), await v5(process.env.BASE_URL)];
    const text = (m) => m.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
    assert.equal(text(ours5), ours4.message.content, 'one extractive answer, two encodings');
    assert.deepEqual(types(ours5.parts), types(worker5.parts));
    assert.ok(ours5.parts.some((p) => p.type === 'source-url'), JSON.stringify(types(ours5.parts)));
    assert.match(ours5.metadata?.threadId ?? '', /^thr_/);
  } finally {
    await offline.remove();
  }
});

test('a tampered archive, a wrong SHA-256, a pinned version mismatch and a traversal entry keep the last good bundle', async () => {
  const good = await fetch(first.link.bundleUrl).then((r) => r.arrayBuffer()).then((b) => Buffer.from(b));
  const tampered = Buffer.from(good);
  tampered[Math.floor(tampered.length / 2)] ^= 0xff;
  const manifest = JSON.stringify({ format: 1, domain: t.domain, jobId: 'se_0000000000000000', version: null, publishId: 'x',
    createdAt: '2026-11-22T00:00:00.000Z', pageCount: 1, features: { search: true, assistant: true, analytics: true, playground: true, staticExport: true } });
  const traversal = gzipSync(Buffer.concat([
    tarEntry('_docs-edge/manifest.json', manifest),
    tarEntry('index.html', '<p>replaced</p>'),
    tarEntry('../escaped.html', '<p>outside</p>'),
    Buffer.alloc(1024),
  ]));
  const hosts = [await hostBytes(tampered), await hostBytes(traversal)];
  try {
    const cases = [
      [{ bundle_url: hosts[0].url }, /archive refused/],
      [{ bundle_url: first.link.bundleUrl, sha256: '0'.repeat(64) }, /SHA-256/],
      [{ bundle_url: first.link.bundleUrl, version: 'v9' }, /pins v9/],
      [{ bundle_url: hosts[1].url }, /contains `\.\.`/],
    ];
    for (const [staticExport, error] of cases) {
      const health = await serve.reload({ static_export: { enabled: true, ...staticExport } });
      assert.match(health.lastRefreshError ?? '', error);
      assert.equal(health.jobId, first.job.jobId, 'the previous bundle stays live');
      const page = await fetch(`${serve.url}/quickstart`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(await page.text(), /replaced/);
    }
    assert.throws(() => readFileSync(join(serve.cacheDir, 'sites', '..', '..', 'escaped.html')));
  } finally {
    await Promise.all(hosts.map((h) => h.close()));
  }
});

test('SIGHUP after a republish serves the new version', async () => {
  const second = await exportSite(t, retitledDocs('Quickstart, second edition'));
  const health = await serve.reload({ static_export: { enabled: true, bundle_url: second.link.bundleUrl, sha256: second.link.sha256 } });
  assert.equal(health.jobId, second.job.jobId);
  assert.equal(health.lastRefreshError, null);
  assert.match(await (await fetch(`${serve.url}/quickstart`)).text(), /Quickstart, second edition/);
});

test('the refresh loop exports, downloads and switches on its own', async () => {
  const own = await tenant();
  assert.equal((await publishFolder(own.domain, own.adminKey)).status, 200);
  const looping = await startServe({
    config: { static_export: { enabled: true }, refresh: { api_url: process.env.BASE_URL, domain: own.domain, every: '2s' } },
    env: { DOCS_EDGE_ADMIN_KEY: own.adminKey },
  });
  try {
    const firstRound = await looping.waitFor((h) => h.jobId, 'the first refresh', 120_000);
    assert.equal(firstRound.source, 'fresh');
    assert.match(await (await fetch(`${looping.url}/quickstart`)).text(), /<h1[^>]*>Quickstart</);
    assert.equal((await publishFolder(own.domain, own.adminKey, retitledDocs('Quickstart, refreshed'))).status, 200);
    await looping.waitFor((h) => h.jobId && h.jobId !== firstRound.jobId && h.publishId !== firstRound.publishId, 'a refresh after the republish', 120_000);
    assert.match(await (await fetch(`${looping.url}/quickstart`)).text(), /Quickstart, refreshed/);
    assert.doesNotMatch(looping.log(), new RegExp(own.adminKey), 'the admin key stays out of the log');
  } finally {
    await looping.remove();
  }
});

test('an air-gapped worker switches search and the assistant off, in its endpoints and its exported pages', async () => {
  const state = scratchDir('docs-edge-airgapped-');
  const worker = await startWorker({
    persistTo: state,
    vars: { ROOT_TOKEN: process.env.ROOT_TOKEN, LINK_SIGNING_KEY: process.env.LINK_SIGNING_KEY, DEPLOYMENT_KIND: 'air-gapped' },
  });
  try {
    const base = worker.baseUrl;
    const features = await call('GET', '/v1/features', { base });
    assert.equal(features.status, 200);
    assert.deepEqual(features.body, {
      kind: 'air-gapped',
      features: { search: false, assistant: false, analytics: false, playground: false, staticExport: true },
    });
    const own = await tenant({ base });
    const { link } = await exportSite(own, DEMO_DOCS, base);
    const search = await call('POST', `/discovery/v1/search/${own.domain}`, { base, token: own.assistantKey, json: { query: 'publish' } });
    assert.equal(search.status, 404);
    assert.equal(search.body.code, 'feature_disabled');
    const message = { fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: 'hi', parts: [{ type: 'text', text: 'hi' }] }] };
    const assistant = await call('POST', `/discovery/v2/assistant/${own.domain}/message`, { base, token: own.assistantKey, json: message });
    assert.equal(assistant.status, 404);
    assert.equal(assistant.body.code, 'feature_disabled');
    // The MCP server's tools are search and the assistant: with both off, so is the route; llms.txt
    // follows search.
    const mcp = await call('POST', `/discovery/v1/mcp/${own.domain}`, {
      base,
      token: own.assistantKey,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(mcp.status, 404, mcp.text);
    assert.equal(mcp.body.code, 'feature_disabled');
    const llms = await call('GET', `/discovery/v1/llms/${own.domain}/llms.txt`, { base, token: own.assistantKey });
    assert.equal(llms.body.code, 'feature_disabled');

    // Served by docs-edge-serve: the manifest records the switches, the pages have no search box.
    // The server air-gapped too: the worker is declared internal, search and the assistant stay off.
    const keyHash = createHash('sha256').update(own.assistantKey).digest('hex');
    const gapped = await startServe({
      config: { static_export: { enabled: true, bundle_url: link.bundleUrl, sha256: link.sha256 }, assistant: { enabled: true, key_sha256: [keyHash] } },
      env: { DEPLOYMENT_KIND: 'air-gapped', INTERNAL_HOSTS: new URL(base).host },
    });
    try {
      const health = await gapped.waitFor((h) => h.jobId, 'the air-gapped bundle');
      assert.equal(health.deployment.kind, 'air-gapped');
      const offSearch = await call('POST', `/discovery/v1/search/${own.domain}`, { base: gapped.url, token: own.assistantKey, json: { query: 'publish' } });
      assert.equal(offSearch.status, 404);
      assert.equal(offSearch.body.code, 'feature_disabled');
      const manifest = await (await fetch(`${gapped.url}/_docs-edge/manifest.json`)).json();
      assert.equal(manifest.features.search, false);
      assert.equal(manifest.features.staticExport, true);
      const html = await (await fetch(`${gapped.url}/quickstart`)).text();
      assert.match(html, /<h1/);
      assert.doesNotMatch(html, /search-input|data-search/);
      assert.equal((await fetch(`${gapped.url}/_static/search/en/meta.json`)).status, 404);
    } finally {
      await gapped.remove();
    }
  } finally {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
  }
});
