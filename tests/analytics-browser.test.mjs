// Exported pages in headless Chromium: the analytics beacon (one page view per view, searches with
// their result count, nothing under Global Privacy Control, and no beacon code at all when analytics
// is off) and the API playground against this worker's own /openapi.json (GET /health, and a POST
// with a JSON body and a key), with screenshots in test-artifacts/analytics-browser/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_URL, ROOT_TOKEN, assertError, call, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles } from './support/export.mjs';
import { launchChromium, serveFolder } from './support/browser.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { reportWhen as reportWhenReady } from './support/analytics.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'analytics-browser');
const cleanup = [];
let t;
let site; // the exported bundle, served
let browser;

/** A small docs site whose API reference is the worker's own OpenAPI document. */
async function docsFolder() {
  const dir = scratchDir('docs-edge-playground-docs-');
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const openapi = await call('GET', '/openapi.json');
  writeFileSync(join(dir, 'openapi.json'), openapi.text);
  writeFileSync(join(dir, 'docs.json'), JSON.stringify({
    name: 'Playground docs',
    navigation: { pages: ['index', 'guide', 'api/health', 'api/search'] },
  }));
  writeFileSync(join(dir, 'index.mdx'), '---\ntitle: Home\n---\nWelcome to the docs.\n');
  writeFileSync(join(dir, 'guide.mdx'), '---\ntitle: Guide\n---\nPublish your docs with one upload.\n');
  mkdirSync(join(dir, 'api'));
  writeFileSync(join(dir, 'api', 'health.mdx'), '---\ntitle: Health\nopenapi: /openapi.json GET /health\n---\n');
  writeFileSync(join(dir, 'api', 'search.mdx'), '---\ntitle: Search\nopenapi: /openapi.json POST /discovery/v1/search/{domain}\n---\n');
  return dir;
}

/** Publishes `folder` for a new tenant of the worker at `base`, exports it (with the start request's
 * `options`) and unpacks the bundle. */
async function exportSite(folder, base, options = {}) {
  const tn = await tenant({ base });
  assert.equal((await publishFolder(tn.domain, tn.adminKey, folder, { base })).status, 200);
  const start = await startExport(tn.adminKey, { domain: tn.domain, ...options }, base);
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(tn.adminKey, start.body.jobId, { base });
  assert.equal(job.status, 'completed', job.error);
  const { dir } = await downloadBundle((await requestBundle(tn.adminKey, job.jobId, base)).body.bundleUrl);
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return { tenant: tn, dir };
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const folder = await docsFolder();
  // The beacon is opt-in per export.
  const exported = await exportSite(folder, BASE_URL, { analytics: true });
  t = exported.tenant;
  site = await serveFolder(exported.dir);
  cleanup.push(() => site.close());
  browser = await launchChromium();
  cleanup.push(() => browser.close());
}, { timeout: 240_000 });

after(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** A fresh context that may reach only the static site and the worker; records the worker requests. */
async function context({ gpc = false } = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  if (gpc) await ctx.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
  const workerRequests = [];
  const allowed = [new URL(site.url).host, new URL(BASE_URL).host];
  ctx.on('request', (req) => {
    if (new URL(req.url()).host === new URL(BASE_URL).host) workerRequests.push(`${req.method()} ${new URL(req.url()).pathname}`);
  });
  await ctx.route('**/*', (route) => (allowed.includes(new URL(route.request().url()).host) ? route.continue() : route.abort('blockedbyclient')));
  return { ctx, workerRequests };
}

const eventsPath = () => `/discovery/v1/analytics/${t.domain}/events`;

const reportWhen = (ready) => reportWhenReady(t.domain, t.adminKey, ready);

test('each page view sends one beacon and is counted once; a search sends its result count', { timeout: 120_000 }, async () => {
  const { ctx, workerRequests } = await context();
  const page = await ctx.newPage();
  const beacon = () => page.waitForRequest((r) => r.url().endsWith(eventsPath()) && r.method() === 'POST');
  let sent = beacon();
  await page.goto(`${site.url}/index.html`);
  assert.deepEqual(JSON.parse((await sent).postData()), { events: [{ type: 'pageview', path: '/index.html' }] });
  sent = beacon();
  await page.goto(`${site.url}/guide.html`);
  await sent;
  sent = beacon();
  await page.reload();
  await sent;
  // No cookies go with it: the page has none and the worker sets none.
  assert.deepEqual(await ctx.cookies(), []);

  sent = beacon();
  await page.locator('.search-input').waitFor({ state: 'visible' });
  await page.waitForFunction(() => !document.querySelector('.search-input').disabled);
  await page.locator('.search-input').fill('zyxwvut');
  const search = JSON.parse((await sent).postData()).events[0];
  assert.deepEqual(search, { type: 'search', path: '/guide.html', query: 'zyxwvut', resultCount: 0 });
  await page.screenshot({ path: join(ARTIFACTS, 'search-no-results.png') });

  const report = await reportWhen((r) => r.totals.pageViews >= 3 && r.totals.searches >= 1);
  assert.deepEqual(report.pageViews, [{ path: 'guide', count: 2 }, { path: 'index', count: 1 }]);
  assert.deepEqual(report.zeroResultSearches, [{ query: 'zyxwvut', count: 1 }]);
  assert.equal(report.totals.pageViews, 3);
  // The only requests the pages made to the service are the four beacons.
  assert.deepEqual(workerRequests, Array(4).fill(`POST ${eventsPath()}`));
  await ctx.close();
});

test('under Global Privacy Control no beacon is sent', async () => {
  const { ctx, workerRequests } = await context({ gpc: true });
  const page = await ctx.newPage();
  await page.goto(`${site.url}/index.html`);
  await page.waitForLoadState('load');
  assert.equal(await page.evaluate(() => navigator.globalPrivacyControl), true);
  // The beacon would be queued during load; the page's scripts have all run by now.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.deepEqual(workerRequests, []);
  await ctx.close();
});

/** Opens the Try it panel of an endpoint page, pointing it at this worker. */
async function openPanel(page, path) {
  await page.goto(`${site.url}/${path}`);
  const panel = page.locator('details.try-it-panel');
  await panel.locator('summary').click();
  await panel.locator('input[name="server"]').fill(BASE_URL);
  return panel;
}

test('the playground calls GET /health from the page, only on Send', async () => {
  const { ctx, workerRequests } = await context({ gpc: true });
  const page = await ctx.newPage();
  const panel = await openPanel(page, 'api/health.html');
  assert.deepEqual(workerRequests, [], 'nothing is requested before Send');
  await panel.locator('button.try-send').click();
  await panel.locator('.try-status').waitFor();
  assert.match(await panel.locator('.try-status').innerText(), /^200 /);
  const body = JSON.parse(await panel.locator('.try-body').innerText());
  assert.equal(body.status, 'ok');
  assert.match(await panel.locator('.try-body').innerText(), /\n {2}"status": "ok"/, 'the JSON is shown formatted');
  assert.deepEqual(workerRequests, ['GET /health']);
  await page.screenshot({ path: join(ARTIFACTS, 'playground-health.png'), fullPage: true });
  await ctx.close();
});

test('the playground sends a POST with a JSON body and a key kept only in memory; a blocked call is explained', async () => {
  const { ctx, workerRequests } = await context({ gpc: true });
  const page = await ctx.newPage();
  const panel = await openPanel(page, 'api/search.html');
  const example = JSON.parse(await panel.locator('textarea[name="body"]').inputValue());
  assert.equal(typeof example.query, 'string', 'the body starts from the document\'s example');
  await panel.locator('input[name="path-domain"]').fill(t.domain);
  await panel.locator('input[name="auth-Authorization"]').fill(t.assistantKey);
  await panel.locator('textarea[name="body"]').fill(JSON.stringify({ query: 'publish your docs', pageSize: 2 }));
  await panel.locator('button.try-send').click();
  await panel.locator('.try-status').waitFor();
  assert.match(await panel.locator('.try-status').innerText(), /^200 /);
  const results = JSON.parse(await panel.locator('.try-body').innerText());
  assert.ok(Array.isArray(results) && results.length >= 1 && results.length <= 2, JSON.stringify(results));
  assert.match(await panel.locator('.try-headers').innerText(), /ratelimit-limit/i);
  await page.screenshot({ path: join(ARTIFACTS, 'playground-search.png'), fullPage: true });
  const stored = await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]);
  assert.deepEqual(stored, [0, 0, '']);
  assert.deepEqual(workerRequests.filter((r) => r.startsWith('POST')), [`POST /discovery/v1/search/${t.domain}`]);

  // A server that does not allow the call (this worker's operator API has no CORS headers).
  await panel.locator('input[name="server"]').fill(`${BASE_URL}/v1/admin/orgs/x/keys#`);
  await panel.locator('button.try-send').click();
  await panel.locator('.try-error').waitFor();
  assert.match(await panel.locator('.try-error').innerText(), /CORS/);
  await page.screenshot({ path: join(ARTIFACTS, 'playground-blocked.png'), fullPage: true });
  await ctx.close();
});

test('with analytics and the playground off, the bundle has neither', { timeout: 240_000 }, async () => {
  const state = scratchDir('docs-edge-features-off-');
  cleanup.push(() => rmSync(state, { recursive: true, force: true }));
  const off = await startWorker({
    persistTo: state,
    vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', FEATURE_ANALYTICS: 'false', FEATURE_PLAYGROUND: 'false' },
  });
  cleanup.push(() => off.stop());
  const { tenant: tn, dir } = await exportSite(await docsFolder(), off.baseUrl);
  // Asking for the beacon where analytics is off is refused, naming the field.
  const asked = await startExport(tn.adminKey, { domain: tn.domain, analytics: true }, off.baseUrl);
  assertError(asked, 400, 'invalid_request');
  assert.match(asked.body.error, /^analytics: /);
  const text = listFiles(dir).filter((f) => /\.(html|js|css)$/.test(f)).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
  for (const absent of ['sendBeacon', '/analytics/', 'try-it']) assert.ok(!text.includes(absent), `${absent} is in the bundle`);
  assert.match(text, /api-ref/, 'the reference is there without its panel');
  const events = await call('POST', `/discovery/v1/analytics/${tn.domain}/events`, {
    base: off.baseUrl,
    body: JSON.stringify({ events: [{ type: 'pageview', path: '/' }] }),
    headers: { 'content-type': 'text/plain' },
  });
  assertError(events, 404, 'feature_disabled');
  // Every analytics endpoint is off, the CSV included, and feedback too: a rating would be stored
  // for a report nobody can read.
  assertError(await call('GET', `/v1/analytics/${tn.domain}`, { base: off.baseUrl, token: tn.adminKey }), 404, 'feature_disabled');
  assertError(await call('GET', `/v1/analytics/${tn.domain}/conversations.csv`, { base: off.baseUrl, token: tn.adminKey }), 404, 'feature_disabled');
  const question = { fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: 'publish', parts: [{ type: 'text', text: 'publish' }] }] };
  const answer = await call('POST', `/discovery/v2/assistant/${tn.domain}/message`, { base: off.baseUrl, token: tn.assistantKey, json: question });
  assert.equal(answer.status, 200, 'the assistant itself stays on');
  const messageId = answer.text.match(/"messageId":"([^"]+)"/)?.[1];
  assert.ok(messageId, answer.text);
  const feedback = await call('POST', `/discovery/v1/assistant/${tn.domain}/feedback`, {
    base: off.baseUrl,
    token: tn.assistantKey,
    json: { threadId: answer.headers.get('x-thread-id'), messageId, rating: 'up' },
  });
  assertError(feedback, 404, 'feature_disabled');
  assert.match(feedback.body.error, /analytics/);
});
