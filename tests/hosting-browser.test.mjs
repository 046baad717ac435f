// A hosted domain in Chromium, through the worker by `Host`: the browser resolves the domain to
// the worker's loopback address (`--host-resolver-rules`), so every request carries the domain in
// `Host` as it would behind a Custom Domain. The sidebar leads from page to page (its links name
// the bundle's files, `a/b.html`, which the site serves as they are), the offline
// search finds a page, the widget answers from the site's own origin, no request goes to any other
// origin, and axe-core finds nothing on four pages in light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { BASE_URL, ROOT_TOKEN, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { waitForJob } from './support/export.mjs';
import { launchChromium } from './support/browser.mjs';
import { accessibleInBothThemes } from './support/export-pages.mjs';
import { offlineSearch } from './support/export-site.mjs';
import { ask, panel, recordViolations } from './support/widget.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'hosting-browser');
let t;
let site; // { url }: the hosted domain at the worker's port
let browser;
let context;
const outside = []; // requests to any origin but the site's

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS)).status, 200);
  const on = await call('PUT', `/v1/admin/orgs/${t.org.orgId}/domains/${t.domain}/hosting`, {
    token: ROOT_TOKEN,
    json: { enabled: true, assistant: { key: t.assistantKey } },
  });
  assert.equal(on.status, 200, on.text);
  const { job } = await waitForJob(t.adminKey, on.body.exportJob.jobId);
  assert.equal(job.status, 'completed', job.error);
  const worker = new URL(BASE_URL);
  site = { url: `http://${t.domain}:${worker.port}` };
  browser = await launchChromium([`--host-resolver-rules=MAP ${t.domain} ${worker.hostname}`]);
  context = await browser.newContext();
  await context.route('**/*', (route) => {
    if (new URL(route.request().url()).origin === site.url) return route.continue();
    outside.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  // An isolate trusts what it read of a host's pointer (none, before the export) for five seconds.
  for (let tries = 0; tries < 40; tries += 1) {
    if ((await statusUnder(t.domain, '/')) === 200) break;
    await new Promise((r) => setTimeout(r, 250));
  }
});

after(async () => {
  await browser?.close();
});

/** The status of `path` asked of the worker under `host` (fetch cannot set `Host`). */
function statusUnder(host, path) {
  return new Promise((resolve, reject) => {
    request(new URL(path, BASE_URL), { headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject).end();
  });
}

/** Opens `path` of the site in a new page; fails on an HTTP error or a script error. */
async function open(path) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const res = await page.goto(`${site.url}${path}`);
  assert.equal(res.status(), 200, `${path} answered ${res.status()}`);
  assert.equal(new URL(res.url()).origin, site.url);
  await page.waitForLoadState('load');
  return { page, errors };
}

test('the sidebar leads from page to page of the hosted domain', async () => {
  const { page, errors } = await open('/');
  assert.ok((await page.locator('main h1').first().textContent()).trim().length > 0);
  const hrefs = await page.locator('aside.sidebar a[href]:visible').evaluateAll((as) => as.map((a) => a.href));
  assert.ok(hrefs.length >= 4, hrefs.join());
  for (const [index, href] of hrefs.entries()) {
    assert.ok(href.startsWith(`${site.url}/`), href);
    const path = new URL(href).pathname;
    // From the home page each time: the sidebar a reader sees there.
    await page.goto(`${site.url}/`);
    await page.locator('aside.sidebar a[href]:visible').nth(index).click();
    await page.waitForURL((url) => url.pathname === path);
    assert.ok((await page.locator('main h1').first().textContent()).trim().length > 0, path);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the offline search finds a page and leads to it', async () => {
  const { page, errors } = await open('/quickstart');
  const { links, files } = await offlineSearch(page, 'rate limits');
  assert.ok(files.length > 0, 'the search files came from the site');
  assert.ok(links.some((h) => h.includes('rate-limits')), links.join());
  await page.locator('.search-results a').first().click();
  await page.waitForLoadState('load');
  assert.equal(new URL(page.url()).origin, site.url);
  assert.ok((await page.locator('main h1').first().textContent()).trim().length > 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the widget answers from the site\'s own origin', async () => {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const asked = [];
  page.on('request', (req) => asked.push(req.url()));
  await recordViolations(page);
  await page.goto(`${site.url}/quickstart`);
  // Opened from its launcher, as a reader opens it.
  await page.locator('docs-assistant .launcher').click();
  await panel(page).waitFor();
  const answer = await ask(page, 'What are the rate limits of the assistant?');
  assert.ok((await answer.locator('.md').textContent()).length > 40, await answer.textContent());
  assert.ok(asked.some((u) => u.startsWith(`${site.url}/discovery/`)), asked.join('\n'));
  assert.deepEqual(await page.evaluate(() => window.violations), [], 'CSP violations');
  assert.deepEqual(errors, []);
  await page.close();
});

test('four pages have no accessibility violations in light and dark', async () => {
  for (const path of ['', 'quickstart', 'assistant/overview', 'export/overview']) {
    await accessibleInBothThemes(browser, site, path, join(ARTIFACTS, `axe-${path.replace(/\W+/g, '-') || 'index'}`));
  }
});

test('no request went to any origin but the site\'s', () => {
  assert.deepEqual(outside, []);
});
