// The exported fixture in headless Chromium, served by a plain static server with every other host
// blocked: pages render, sidebar links work, search finds a page, no request leaves the bundle (an
// export asks for no beacon, so none reports to this service although the deployment has analytics
// on), no page holds a raw <Component> tag, and an `openapi:` page shows its endpoint. (The opt-in
// beacon and the playground: analytics-browser.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles, readFile } from './support/export.mjs';
import { launchChromium, serveFolder } from './support/browser.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export-browser');
let dir;
let files;
let server;
let browser;
let context;
const outside = []; // requests to any host but the static server

before(async () => {
  const t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS)).status, 200);
  const start = await startExport(t.adminKey, { domain: t.domain });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const bundle = await requestBundle(t.adminKey, job.jobId);
  ({ dir } = await downloadBundle(bundle.body.bundleUrl));
  files = listFiles(dir);
  server = await serveFolder(dir);
  browser = await launchChromium();
  context = await browser.newContext();
  const own = new URL(server.url).host;
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === own) return route.continue();
    outside.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens a page of the bundle; fails on an HTTP error or a script error. */
async function open(page, path) {
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const res = await page.goto(`${server.url}/${path}`);
  assert.equal(res.status(), 200, `${path} answered ${res.status()}`);
  await page.waitForLoadState('load');
  assert.deepEqual(errors, [], `script errors on ${path}`);
}

test('no page holds a raw <Component> tag outside code', () => {
  const html = files.filter((f) => f.endsWith('.html'));
  assert.ok(html.length > 1000);
  for (const file of html) {
    // Code blocks may show JSX as text; it is escaped there, so any `<` + capital is a real tag.
    const text = readFile(dir, file).toString();
    const raw = text.match(/<\/?[A-Z][A-Za-z0-9]*[\s/>]/);
    assert.equal(raw, null, `${file} has a raw tag ${raw?.[0]}`);
  }
});

test('pages render with title, sidebar and table of contents; sidebar links lead to pages', async () => {
  const page = await context.newPage();
  await open(page, 'index.html');
  await page.screenshot({ path: join(ARTIFACTS, 'index.png'), fullPage: false });
  assert.ok((await page.locator('main h1').first().textContent()).trim().length > 0);
  const links = await page.locator('aside.sidebar a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(links.length > 20, `the sidebar lists the navigation (${links.length} links)`);
  for (const href of links) {
    assert.ok(!/^[a-z]+:/.test(href) || href.startsWith('http'), href);
    if (/^https?:/.test(href)) continue;
    const target = new URL(href, `${server.url}/index.html`).pathname.slice(1);
    assert.ok(files.includes(target), `sidebar link ${href} resolves to a file of the bundle`);
  }
  // Collapsed groups hide their links until opened; follow the ones a reader sees first.
  const visible = await page.locator('aside.sidebar a[href]:visible').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(visible.length >= 6, `the sidebar shows links (${visible.length})`);
  for (const href of visible.filter((h) => !/^https?:/.test(h)).slice(0, 6)) {
    await page.locator(`aside.sidebar a[href="${href}"]:visible`).first().click();
    await page.waitForLoadState('load');
    assert.equal(new URL(page.url()).pathname, new URL(href, `${server.url}/index.html`).pathname);
    assert.ok((await page.locator('main h1').first().textContent()).trim().length > 0);
    await page.goto(`${server.url}/index.html`);
  }
  await open(page, 'fr/index.html');
  assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
  await open(page, 'components/tabs.html');
  await page.screenshot({ path: join(ARTIFACTS, 'components-tabs.png') });
  await page.close();
});

test('search finds a page from the bundle alone', async () => {
  const page = await context.newPage();
  await open(page, 'index.html');
  const input = page.locator('.search-input');
  await input.waitFor({ state: 'visible' });
  await page.waitForFunction(() => !document.querySelector('.search-input').disabled);
  await input.fill('static export bundle');
  const results = page.locator('.search-results a');
  await results.first().waitFor({ timeout: 10_000 });
  const hrefs = await results.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.some((h) => h.includes('api/static-export/')), hrefs.join(', '));
  await page.screenshot({ path: join(ARTIFACTS, 'search.png') });
  await results.first().click();
  await page.waitForLoadState('load');
  assert.match(new URL(page.url()).pathname, /\.html$/);
  await page.close();
});

test('an openapi: page shows its endpoint', async () => {
  const page = await context.newPage();
  await open(page, 'api/static-export/start-job.html');
  const text = await page.locator('main').innerText();
  assert.match(text, /POST/);
  assert.match(text, /\/static-export\/jobs/);
  assert.match(text, /domain/, 'the request body fields are listed');
  await page.screenshot({ path: join(ARTIFACTS, 'openapi-page.png'), fullPage: true });
  await page.close();
});

test('no request left the bundle, none to the analytics service either', () => {
  assert.deepEqual(outside, []);
});
