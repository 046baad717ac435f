// The exported fixture in headless Chromium, served by a plain static server with every other host
// blocked: pages render, sidebar links work, search finds a page, no request leaves the bundle (an
// export asks for no beacon, so none reports to this service although the deployment has analytics
// on), no page holds a raw <Component> tag, an `openapi:` page shows its endpoint, and code is
// coloured (highlight.js in the builder script) in light and dark with its highlighted lines, on the
// fixture and on the two real repositories of ../shared/fixtures; on those two, the pages using the most
// components show no MDX source, JSX expression or raw math in their visible text. axe-core finds no
// violation on any page visited, light and dark. (The opt-in beacon and the playground:
// analytics-browser.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles, readFile } from './support/export.mjs';
import { launchChromium, serveFolder } from './support/browser.mjs';
import { accessibleInBothThemes, openPage } from './support/export-pages.mjs';
import { fixtureSite } from './support/fixture-site.mjs';
import { axeViolations } from './support/widget.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export-browser');
const REPOSITORIES = fileURLToPath(new URL('../../shared/fixtures/', import.meta.url));
let dir;
let files;
let server;
let browser;
let context;
const outside = []; // requests to any host but the static server

before(async () => {
  const t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS)).status, 200);
  dir = await exportSite(t);
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
  for (const { server: repoServer } of Object.values(repositories)) await repoServer.close();
  for (const folder of [dir, ...Object.values(repositories).map((r) => r.dir)]) {
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
});

/** Exports the tenant's published site and downloads the bundle: its folder. */
async function exportSite(t) {
  const start = await startExport(t.adminKey, { domain: t.domain });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const bundle = await requestBundle(t.adminKey, job.jobId);
  return (await downloadBundle(bundle.body.bundleUrl)).dir;
}

/** A real repository of ../shared/fixtures published (as its owner's CI would, remote files left
 * out; the run's shared site), exported and served, once for the file: `{ dir, server }`. */
const repositories = {};
async function exportedRepository(name) {
  if (!repositories[name]) {
    const { t, result } = await fixtureSite(name);
    assert.ok(result.site.pageCount > 50, JSON.stringify(result.site).slice(0, 300));
    const bundleDir = await exportSite(t);
    repositories[name] = { dir: bundleDir, server: await serveFolder(bundleDir) };
  }
  return repositories[name];
}

/** Fence languages that ask for no colours. */
const PLAIN_LANGUAGES = new Set(['text', 'txt', 'plaintext', 'plain', 'output', 'log', 'none', 'ascii', 'console-output']);

/** Fenced blocks naming a language in the bundle's pages, and of them those split into tokens. */
function countHighlighted(bundleDir) {
  const counts = { blocks: 0, tokens: 0, plain: {} };
  for (const file of listFiles(bundleDir).filter((f) => f.endsWith('.html'))) {
    const html = readFile(bundleDir, file).toString();
    for (const [, lang, code] of html.matchAll(/<code class="language-([^"]+)">([\s\S]*?)<\/code>/g)) {
      if (PLAIN_LANGUAGES.has(lang)) continue;
      counts.blocks += 1;
      if (code.includes('<span class="tk-')) counts.tokens += 1;
      else counts.plain[lang] = (counts.plain[lang] ?? 0) + 1;
    }
  }
  return counts;
}

/** Colours of a page's first token of `selector` and of its code's plain text, in the browser. */
async function tokenColours(page, selector) {
  return page.evaluate((sel) => {
    const token = document.querySelector(sel);
    const code = token.closest('code');
    return { token: getComputedStyle(token).color, plain: getComputedStyle(code).color };
  }, selector);
}

/** The `count` exported pages of repository `source` whose MDX uses the most kinds of component (outside
 * code fences), one per file name (the translations of a page are alike), as paths of `bundleFiles`. */
function componentRichPages(source, bundleFiles, count = 3) {
  const exported = new Set(bundleFiles);
  const ranked = readdirSync(source, { recursive: true })
    .filter((f) => f.endsWith('.mdx') && !f.split('/').some((part) => part.startsWith('.') || part === 'node_modules'))
    .map((f) => {
      const prose = readFileSync(join(source, f), 'utf8').replace(/^\s*(```|~~~)[\s\S]*?^\s*\1/gm, '');
      return { html: f.replace(/\.mdx$/, '.html'), kinds: new Set(prose.match(/<[A-Z][A-Za-z]*/g)).size };
    })
    .filter((p) => exported.has(p.html))
    .sort((a, b) => b.kinds - a.kinds || a.html.localeCompare(b.html));
  const names = new Set();
  return ranked.filter((p) => !names.has(basename(p.html)) && names.add(basename(p.html))).slice(0, count).map((p) => p.html);
}

/** The page's text as a reader sees it with every accordion open and every tab and view shown, code
 * (where JSX, `$` and braces are the content) and math left out. Alters the page: use it last. */
function visibleProse(page) {
  return page.evaluate(() => {
    for (const details of document.querySelectorAll('details')) details.open = true;
    for (const box of document.querySelectorAll('.js-tabs, .js-views')) box.classList.remove('js-tabs', 'js-views');
    for (const el of document.querySelectorAll('pre, code, math, svg')) el.remove();
    return document.body.innerText;
  });
}

/** What in `text` is MDX the renderer left unrendered: component tags, JSX props, comments and
 * expressions, LaTeX. Prose's own `$5`, `a < b` or `{{variable}}` is not. */
const UNRENDERED = [
  /<\/?[A-Z][A-Za-z0-9]*(\.[A-Za-z]+)?(?=[\s/>])/g, // <Card, </Tabs>, <Note>
  /\b[A-Za-z][\w-]*=\{[^}\n]*\}?/g, // cols={2}, icon={<img …
  /\{\s*\/\*|\*\/\s*\}/g, // {/* comment */}
  /(?<!\{)\{\s*(["'`]).*?\1\s*\}(?!\})/g, // {" "}
  /\$\$|\\(frac|sqrt|begin|end|sum|int|mathbf|mathrm|cdot|times|left|right|alpha|beta)\b/g, // $$ x $$, \frac
];
function unrenderedSource(text) {
  return UNRENDERED.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => text.slice(Math.max(0, m.index - 30), m.index + 40)));
}

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

test('the pages visited have no accessibility violations in light and dark', async () => {
  for (const path of ['index.html', 'fr/index.html', 'components/tabs.html', 'api/static-export/start-job.html']) {
    await accessibleInBothThemes(browser, server, path, join(ARTIFACTS, `axe-${path.replace(/\W+/g, '-')}`));
  }
});

test('code is coloured in light and dark, and highlighted lines stand out', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const themed = await browser.newContext({ colorScheme });
    const page = await themed.newPage();
    const failed = [];
    page.on('response', (res) => res.status() >= 400 && failed.push(`${res.status()} ${res.url()}`));
    await page.goto(`${server.url}/create/code.html`);
    await page.waitForLoadState('load');
    for (const token of ['.tk-k', '.tk-s', '.tk-c']) {
      const { token: colour, plain } = await tokenColours(page, `pre ${token}`);
      assert.notEqual(colour, plain, `${colorScheme}: ${token} is coloured (${colour} on text ${plain})`);
    }
    const highlighted = page.locator('.code-block .line.hl').first();
    await highlighted.scrollIntoViewIfNeeded();
    const backgrounds = await highlighted.evaluate((line) => [
      getComputedStyle(line).backgroundColor,
      getComputedStyle(line.parentElement.querySelector('.line:not(.hl)')).backgroundColor,
    ]);
    assert.notEqual(backgrounds[0], backgrounds[1], `${colorScheme}: a highlighted line has its own background`);
    await page.screenshot({ path: join(ARTIFACTS, `code-${colorScheme}.png`) });
    assert.deepEqual(failed, [], 'every file the page asks for is in the bundle');
    assert.deepEqual(await axeViolations(page), [], `axe (${colorScheme})`);
    await themed.close();
  }
});

for (const name of ['agentops-docs', 'dify-docs']) {
  test(`${name}: at least 95% of the fenced blocks naming a language are split into tokens, and shown coloured`, { skip: !existsSync(join(REPOSITORIES, name)) }, async () => {
    const { dir: bundleDir } = await exportedRepository(name);
    const { blocks, tokens, plain } = countHighlighted(bundleDir);
    console.log(`${name}: ${tokens} of ${blocks} fenced blocks with a language split into tokens (${((tokens / blocks) * 100).toFixed(1)}%); plain: ${JSON.stringify(plain)}`);
    assert.ok(blocks > 200, `${blocks} blocks`);
    assert.ok(tokens >= 0.95 * blocks, `${tokens} of ${blocks}`);
    const pageFile = listFiles(bundleDir).find((f) => f.endsWith('.html') && readFile(bundleDir, f).includes('<code class="language-python"><span class="line"><span class="tk-'));
    for (const scheme of ['light', 'dark']) {
      const { page, context: themed, errors } = await openPage(browser, repositories[name].server, pageFile, scheme);
      try {
        const { token, plain: text } = await tokenColours(page, 'code.language-python [class^="tk-"]');
        assert.notEqual(token, text, `${pageFile} (${scheme}): tokens are coloured`);
        assert.deepEqual(await axeViolations(page), [], `axe on ${pageFile} (${scheme})`);
        assert.deepEqual(errors, [], `script errors on ${pageFile}`);
      } finally {
        await themed.close();
      }
    }
  });

  test(`${name}: pages full of components show no component source, JSX expression or raw math, and pass axe in light and dark`, { skip: !existsSync(join(REPOSITORIES, name)) }, async () => {
    const { dir: bundleDir, server: repoServer } = await exportedRepository(name);
    const pages = componentRichPages(join(REPOSITORIES, name), listFiles(bundleDir));
    console.log(`${name}: visible text checked on ${pages.join(', ')}`);
    assert.equal(pages.length, 3, 'three exported pages of the repository use many components');
    for (const path of pages) {
      await accessibleInBothThemes(browser, repoServer, path, join(ARTIFACTS, `${name}-${path.replace(/\W+/g, '-')}`));
      const { page, context: own } = await openPage(browser, repoServer, path);
      try {
        const text = await visibleProse(page);
        assert.ok(text.length > 500, `${path}: the page has prose (${text.length} characters)`);
        assert.deepEqual(unrenderedSource(text), [], `${path}: visible text holds unrendered source`);
      } finally {
        await own.close();
      }
    }
  });
}

test('no request left the bundle, none to the analytics service either', () => {
  assert.deepEqual(outside, []);
});
