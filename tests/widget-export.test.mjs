// The assistant widget in exported sites: the start request's `assistant` (validated, 400 naming the
// field), a bundle without it carrying no widget and no request for one, and the demo docs exported
// with `"apiBase": "same-origin"`, served by docs-edge-serve, in Chromium: the launcher on every page,
// Ctrl+I opens the panel, an answer streams from docs-edge-serve's own answer routes, a citation
// leads to a page of the bundle, a rating reaches the server, no CSP violation under the policy the
// server sends, axe-core finds nothing with the panel open. Screenshots (light, dark, narrow) go to
// test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertError, BASE_URL, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { downloadBundle, listFiles, requestBundle, startExport, waitForJob } from './support/export.mjs';
import { launchBrowser } from './support/browser.mjs';
import { startServe } from './support/serve.mjs';
import { bundleLink } from '../sdk-wasm/js/widget/config.js';
import { answers, ask, axeViolations, panel, recordViolations, recordWidgetEvents } from './support/widget.mjs';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
let t;
let serve;
let browser;

/** Exports the published demo docs with `extra` in the start request; returns the bundle link. */
async function exported(extra) {
  const start = await startExport(t.adminKey, { domain: t.domain, ...extra });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const link = await requestBundle(t.adminKey, job.jobId);
  assert.equal(link.status, 200, link.text);
  return link.body;
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS)).status, 200);
});

after(async () => {
  await browser?.close();
  await serve?.remove();
});

test('the start request’s assistant is checked: an https URL or same-origin, and a public key', async () => {
  const cases = [
    [{ apiBase: 'http://api.example.com', key: t.assistantKey }, /^assistant\.apiBase: must be "same-origin"/],
    [{ apiBase: 'https://api.example.com/?x=1', key: t.assistantKey }, /^assistant\.apiBase: /],
    [{ apiBase: 'same-origin', key: t.adminKey }, /^assistant\.key: must be a public assistant key/],
    [{ apiBase: 'same-origin' }, /^assistant\.key: is required/],
    ['same-origin', /^assistant: /],
  ];
  for (const [assistant, message] of cases) {
    const res = await startExport(t.adminKey, { domain: t.domain, assistant });
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.error, message, JSON.stringify(assistant));
  }
});

test('on an exported page a link to the docs’ site becomes the bundle’s file, as the export names it', () => {
  const page = { domain: 'docs.example.com', linkBase: 'file:///srv/bundle/', linkIndex: new Set(['guides', 'zh/%E6%8C%87%E5%8D%97']) };
  const cases = [
    ['https://docs.example.com/quickstart#install', 'file:///srv/bundle/quickstart.html#install'],
    ['https://docs.example.com/', 'file:///srv/bundle/index.html'],
    ['https://docs.example.com/guides/', 'file:///srv/bundle/guides/index.html'],
    ['https://docs.example.com/guides/setup.mdx', 'file:///srv/bundle/guides/setup.html'],
    ['https://docs.example.com/zh/指南#概述', 'file:///srv/bundle/zh/%E6%8C%87%E5%8D%97/index.html#%E6%A6%82%E8%BF%B0'],
    ['https://other.example.com/quickstart', 'https://other.example.com/quickstart'],
    ['mailto:docs@docs.example.com', 'mailto:docs@docs.example.com'],
  ];
  for (const [href, want] of cases) assert.equal(bundleLink(href, page), want, href);
  // Off an exported page (no link base) every link stays the live site's.
  assert.equal(bundleLink('https://docs.example.com/quickstart', { ...page, linkBase: undefined }), 'https://docs.example.com/quickstart');
});

test('an export that does not ask carries no widget and no request for one', async () => {
  const link = await exported({});
  const { dir } = await downloadBundle(link.bundleUrl);
  const files = listFiles(dir);
  assert.ok(files.includes('quickstart.html'));
  assert.deepEqual(files.filter((f) => f.includes('widget')), []);
  const page = readFileSync(join(dir, 'quickstart.html'), 'utf8');
  assert.ok(!page.includes('widget') && !page.includes('data-key'), 'no script tag');
  const manifest = JSON.parse(readFileSync(join(dir, '_docs-edge/manifest.json'), 'utf8'));
  assert.equal(manifest.assistant, undefined);
  assert.ok(!manifest.contentSecurityPolicy.includes('wasm'), manifest.contentSecurityPolicy);
});

test('an export for another service names it in its pages and its policy', async () => {
  const link = await exported({ assistant: { apiBase: `${BASE_URL}/`, key: t.assistantKey } });
  const { dir } = await downloadBundle(link.bundleUrl);
  const files = listFiles(dir);
  assert.ok(files.includes('_static/widget.js'));
  assert.ok(files.some((f) => /^_static\/widget\/panel\.[0-9a-f]{10}\.js$/.test(f)), files.filter((f) => f.includes('widget')).join());
  assert.ok(files.some((f) => /^_static\/widget\/sdk\.[0-9a-f]{10}\.wasm$/.test(f)));
  // The bundle's copy is the one the worker serves at /widget.js.
  const served = Buffer.from(await (await fetch(`${BASE_URL}/widget.js`)).arrayBuffer());
  assert.ok(served.equals(readFileSync(join(dir, '_static/widget.js'))));
  const page = readFileSync(join(dir, 'assistant/overview.html'), 'utf8');
  assert.ok(
    page.includes(
      `<script defer src="../_static/widget.js" data-api="${BASE_URL}" data-domain="${t.domain}" data-key="${t.assistantKey}" data-link-base="../"></script>`,
    ),
    page.slice(0, 1200),
  );
  const manifest = JSON.parse(readFileSync(join(dir, '_docs-edge/manifest.json'), 'utf8'));
  assert.deepEqual(manifest.assistant, { apiBase: BASE_URL, key: t.assistantKey });
  assert.match(manifest.contentSecurityPolicy, /script-src 'self' 'sha256-[^']+' 'wasm-unsafe-eval';/);
  // The service's origin, unless the test deployment's playground already opens connect-src to any API.
  const connect = manifest.contentSecurityPolicy.match(/connect-src ([^;]*);/)[1];
  assert.ok([`'self' ${BASE_URL}`, "'self' https: http:"].includes(connect), connect);
});

test('exported with same-origin and served by docs-edge-serve, the widget answers from the bundle', async () => {
  const link = await exported({ assistant: { apiBase: 'same-origin', key: t.assistantKey } });
  const keyHash = createHash('sha256').update(t.assistantKey).digest('hex');
  serve = await startServe({
    config: {
      static_export: { enabled: true, bundle_url: link.bundleUrl, sha256: link.sha256 },
      assistant: { enabled: true, key_sha256: [keyHash] },
      admin: { key_sha256: [createHash('sha256').update(t.adminKey).digest('hex')] },
    },
  });
  await serve.waitFor((h) => h.sha256 === link.sha256, 'the bundle');
  const widget = await fetch(`${serve.url}/widget.js`);
  assert.equal(widget.status, 200);
  assert.equal(widget.headers.get('access-control-allow-origin'), '*');
  // A part the bundle does not have is a 404 that is asked for again, never kept a year.
  const missing = await fetch(`${serve.url}/widget/panel.0000000000.js`);
  await missing.arrayBuffer();
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('cache-control'), 'no-cache');

  browser = await launchBrowser();
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const outside = [];
  // Every request stays on docs-edge-serve: the answers cite the docs' own domain, and the widget
  // links those citations to the bundle's pages.
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    // The bundle's analytics beacon (the test deployment has analytics on) is not the widget's.
    if (url.pathname.startsWith('/discovery/v1/analytics/')) return route.fulfill({ status: 204 });
    if (url.origin !== serve.url) {
      outside.push(url.href);
      return route.abort();
    }
    return route.continue();
  });
  await recordViolations(page);
  const response = await page.goto(`${serve.url}/quickstart`);
  const csp = response.headers()['content-security-policy'];
  assert.match(csp, /script-src 'self' 'sha256-[^']+' 'wasm-unsafe-eval';/);
  assert.ok(!csp.includes("'unsafe-eval'") && !csp.includes("'unsafe-inline'"), csp);
  await recordWidgetEvents(page);
  await page.locator('docs-assistant .launcher').waitFor();

  await page.keyboard.press('Control+KeyI');
  await panel(page).waitFor();
  const answer = await ask(page, 'How do I start a static export job?');
  assert.ok((await answer.locator('.md').textContent()).length > 40, await answer.textContent());
  const events = await page.evaluate(() => window.widgetEvents.map((e) => e.type));
  assert.ok(events.includes('answer'), events.join());

  // The widget's part of the page: the exported theme's own findings (contrast of muted text, two
  // banner landmarks) are the export's, reported apart.
  assert.deepEqual(await axeViolations(page, 'docs-assistant'), []);
  await page.screenshot({ path: join(ARTIFACTS, 'widget-export-light.png') });
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  await page.waitForFunction(() => document.querySelector('docs-assistant').getAttribute('data-theme') === 'dark');
  await page.screenshot({ path: join(ARTIFACTS, 'widget-export-dark.png') });
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));

  // A rating reaches the server's feedback route and is stored with the conversation: the report
  // counts it.
  await answer.getByRole('button', { name: 'Helpful', exact: true }).click();
  await page.waitForFunction(() => window.widgetEvents.some((e) => e.type === 'feedback'));
  const report = await fetch(`${serve.url}/v1/analytics/${t.domain}`, { headers: { authorization: `Bearer ${t.adminKey}` } });
  assert.equal(report.status, 200, await report.clone().text());
  assert.equal((await report.json()).totals.feedbackUp, 1);

  // Citations lead to the bundle's own pages, as its pages name them (`a/b.html`), anchors kept (the
  // answer's sources here may have none: the first test checks anchors on their own).
  const cited = (await page.evaluate(() => window.widgetEvents.find((e) => e.type === 'answer').detail.sources)).map((s) => s.url);
  assert.ok(cited.length > 0 && cited.every((u) => u.startsWith(`https://${t.domain}/`)), cited.join());
  const local = (u) => {
    const { pathname, hash } = new URL(u);
    return `${serve.url}${pathname === '/' ? '/index' : pathname.replace(/\/$/, '')}.html${hash}`;
  };
  const hrefs = await answer.locator('.sources a[href]').evaluateAll((links) => links.map((a) => a.href));
  assert.deepEqual(hrefs, cited.map(local));
  const inline = await answer.locator('.md a.cite').evaluateAll((links) => links.map((a) => a.href));
  assert.ok(inline.length > 0 && inline.every((h) => hrefs.includes(h)), inline.join());
  const citation = answer.locator('.sources a[href]').first();
  await citation.click();
  await page.waitForURL(hrefs[0]);
  const title = await page.locator('main h1').textContent();
  assert.ok(title.length > 0, 'a page of the bundle');

  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(outside, []);
  assert.deepEqual(errors, []);

  const narrow = await browser.context.newPage();
  await narrow.setViewportSize({ width: 390, height: 780 });
  const question = 'How long is the bundle link valid?';
  await narrow.goto(`${serve.url}/quickstart?ask=${encodeURIComponent(question)}`);
  await narrow.locator('docs-assistant .user', { hasText: question }).waitFor();
  await narrow.waitForFunction(() => document.querySelector('docs-assistant').shadowRoot.querySelector('.log').getAttribute('aria-busy') === 'false');
  await answers(narrow).last().locator('.actions button').first().waitFor();
  await narrow.screenshot({ path: join(ARTIFACTS, 'widget-export-narrow.png') });
  await narrow.close();
  await page.close();
});
