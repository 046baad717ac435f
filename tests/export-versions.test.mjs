// Versions in the export (issue 29, point 9), in headless Chromium, on a site written for the
// purpose: two versions sharing one page, published once. The default export holds one version
// and its switch links the other to the live site; `"versions": "all"` holds both, the shared page
// under each version's path, a switch on every page that works without JavaScript, and a search
// index per version; an unknown version is a 400 naming the field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startExport, readFile } from './support/export.mjs';
import { launchChromium } from './support/browser.mjs';
import { axeViolations } from './support/widget.mjs';
import { exportPublished, openPage, writeSite } from './support/export-pages.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export-versions');

const SITE = {
  'docs.json': JSON.stringify({
    name: 'Versions Test',
    colors: { primary: '#2563eb' },
    navigation: {
      versions: [
        { version: 'v2', default: true, groups: [{ group: 'Guide', pages: ['v2/index', 'shared/intro', 'v2/install'] }] },
        { version: 'v1', groups: [{ group: 'Guide', pages: ['v1/index', 'shared/intro'] }] },
      ],
    },
  }),
  'v2/index.mdx': '---\ntitle: Welcome to v2\n---\n\nThe current release. Read the [introduction](/shared/intro).\n',
  'v2/install.mdx': '---\ntitle: Install v2\n---\n\nInstall the zeppelin package.\n',
  'v1/index.mdx': '---\ntitle: Welcome to v1\n---\n\nThe walrus release. Read the [introduction](/shared/intro).\n',
  'shared/intro.mdx': '---\ntitle: Introduction\n---\n\nEvery version shares this page. Back to the [start](/v2/index).\n',
};

let t;
let browser;
const bundles = {};

before(async () => {
  t = await tenant();
  const published = await publishFolder(t.domain, t.adminKey, writeSite('docs-edge-versions-', SITE));
  assert.equal(published.status, 200, published.text);
  bundles.default = await exportPublished(t);
  bundles.all = await exportPublished(t, { versions: 'all' });
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  for (const bundle of Object.values(bundles)) {
    await bundle.server.close();
    rmSync(bundle.dir, { recursive: true, force: true });
  }
});

test('an unknown version is a 400 naming the field', async () => {
  const res = await startExport(t.adminKey, { domain: t.domain, versions: ['v2', 'v9'] });
  assert.equal(res.status, 400, res.text);
  assert.ok(res.body.code && res.body.error.startsWith('versions: unknown version `v9`'), res.text);
  const shape = await startExport(t.adminKey, { domain: t.domain, versions: 'every' });
  assert.equal(shape.status, 400, shape.text);
  assert.ok(shape.body.error.startsWith('versions: '), shape.text);
});

test('the default export holds one version; its switch links the other on the live site', async () => {
  const { files, dir } = bundles.default;
  for (const page of ['v2/index.html', 'v2/install.html', 'shared/intro.html']) assert.ok(files.includes(page), page);
  assert.ok(!files.some((f) => f.startsWith('v1/')), files.filter((f) => f.startsWith('v1/')).join(', '));
  const html = readFile(dir, 'shared/intro.html').toString();
  assert.ok(html.includes(`href="https://${t.domain}/shared/intro">v1 <span class="version-live">(live site)</span>`), html);
  const install = readFile(dir, 'v2/install.html').toString();
  // The live site serves a folder's index page at the folder's URL.
  assert.ok(install.includes(`href="https://${t.domain}/v1">v1 `), 'a page v1 lacks: its first page');
});

test('"versions": "all" holds both, the shared page under each, with a switch that works without script', async () => {
  const { files, server, dir } = bundles.all;
  for (const page of ['v2/index.html', 'shared/intro.html', 'v1/index.html', 'v1/shared/intro.html']) assert.ok(files.includes(page), page);
  const manifest = JSON.parse(readFile(dir, '_docs-edge/manifest.json').toString());
  assert.equal(manifest.version, 'v2', 'the version at the site\'s own paths');
  assert.deepEqual(manifest.versions, ['v2', 'v1'], 'the manifest lists every version the bundle holds');
  const search = files.filter((f) => f.endsWith('/meta.json') && f.startsWith('_static/search/'));
  assert.deepEqual(search.sort(), ['_static/search/en.v1/meta.json', '_static/search/en/meta.json']);

  for (const javaScriptEnabled of [true, false]) {
    const { page, context, errors, outside } = await openPage(browser, server, 'v1/shared/intro.html', 'light', 200, { javaScriptEnabled });
    const sidebar = await page.locator('aside.sidebar').innerText();
    assert.ok(sidebar.includes('Welcome to v1') && !sidebar.includes('Install v2'), sidebar);
    const summary = page.locator('.version-switch summary');
    // "Version" is there for screen readers only (visually hidden).
    assert.equal(await summary.locator('.visually-hidden').innerText(), 'Version');
    assert.equal((await summary.innerText()).replace('Version', '').trim(), 'v1');
    await summary.click();
    const v2 = page.locator('.version-switch a', { hasText: 'v2' });
    assert.ok(await v2.isVisible());
    await v2.click();
    await page.waitForURL(/\/shared\/intro\.html$/);
    assert.ok(!page.url().includes('/v1/'), page.url());
    assert.equal((await page.locator('.version-switch summary').innerText()).replace('Version', '').trim(), 'v2');
    // v1 lacks v2/install: the switch there leads to v1's first page.
    await page.goto(`${server.url}/v2/install.html`);
    await page.locator('.version-switch summary').click();
    await page.locator('.version-switch a', { hasText: 'v1' }).click();
    await page.waitForURL(/\/v1\/index\.html$/);
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    await context.close();
  }

  for (const scheme of ['light', 'dark']) {
    const { page, context } = await openPage(browser, server, 'v1/shared/intro.html', scheme);
    await page.locator('.version-switch summary').click();
    await page.screenshot({ path: join(ARTIFACTS, `switch-${scheme}.png`) });
    assert.deepEqual(await axeViolations(page), [], scheme);
    await context.close();
  }
});

test("the bundle's search finds each version's pages on that version's pages", async () => {
  const { server } = bundles.all;
  const hits = async (path, query) => {
    const { page, context } = await openPage(browser, server, path);
    await page.waitForFunction(() => !document.querySelector('.search-input').disabled);
    await page.locator('.search-input').fill(query);
    await page.locator('.search-results a, .search-results .search-empty').first().waitFor({ timeout: 10_000 });
    const hrefs = await page.locator('.search-results a').evaluateAll((as) => as.map((a) => new URL(a.href).pathname.slice(1)));
    await context.close();
    return hrefs;
  };
  assert.deepEqual(await hits('v1/index.html', 'walrus'), ['v1/index.html']);
  assert.deepEqual(await hits('v1/index.html', 'zeppelin'), [], 'v2 pages are not in v1 search');
  assert.deepEqual(await hits('v2/index.html', 'zeppelin'), ['v2/install.html']);
  const shared = await hits('v1/index.html', 'shares');
  assert.deepEqual(shared, ['v1/shared/intro.html'], "v1's copy of the shared page");
  assert.deepEqual(await hits('shared/intro.html', 'shares'), ['shared/intro.html']);
});
