// API reference pages of an export as a reader sees them, in headless Chromium (issue 29, point 2):
// every endpoint page the navigation names is in the bundle (no 404), with request samples (the
// spec's own first, then curl, Python, JavaScript) and response examples as highlighted tabs beside
// the reference on a wide screen, under it on a narrow one; `api:` pages get the endpoint bar and
// samples from their ParamFields; authored RequestExamples move beside the reference; axe-core finds
// no violation on the pages looked at, light and dark. On the whole of dify-docs in
// ../shared/fixtures (the run's shared site: support/fixture-site.mjs) and on a site written for
// the purpose.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { launchChromium } from './support/browser.mjs';
import { exportFolder, exportFixtures, FIXTURES, openPage as openIn, accessibleInBothThemes } from './support/export-pages.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export-api');
const HAS_DIFY = existsSync(join(FIXTURES, 'dify-docs'));

const SPEC = {
  openapi: '3.1.0',
  servers: [{ url: 'https://api.example.com/v1' }],
  components: { securitySchemes: { key: { type: 'http', scheme: 'bearer' } } },
  security: [{ key: [] }],
  paths: {
    '/users/{id}': {
      get: {
        summary: 'Get user',
        'x-codeSamples': [{ lang: 'go', label: 'Go SDK', source: 'client.Users.Get(ctx, "u1")' }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: 'u1' }],
        responses: { 200: { description: 'The user', content: { 'application/json': { example: { id: 'u1', name: 'Ada' } } } } },
      },
    },
  },
};

/** The site written for this test: a generated endpoint page, an `api:` page, an authored example. */
const PURPOSE = {
  'docs.json': JSON.stringify({
    name: 'API Test',
    colors: { primary: '#2563eb' },
    api: { mdx: { auth: { method: 'bearer' } } },
    navigation: { groups: [{ group: 'API', openapi: 'openapi.json', pages: ['index', 'GET /users/{id}', 'create'] }] },
  }, null, 2),
  'openapi.json': JSON.stringify(SPEC, null, 2),
  'index.mdx': '---\ntitle: Home\n---\n\nThe API.\n',
  'create.mdx': [
    '---', 'title: Create user', 'api: "POST https://api.example.com/v1/users"', '---', '',
    '<ParamField body="name" type="string" required>The name.</ParamField>', '',
    '<ResponseExample>', '', '```json 201', '{"id": "u2"}', '```', '', '</ResponseExample>', '',
  ].join('\n'),
};

const exports = {};
let browser;

before(async () => {
  const purpose = scratchDir('docs-edge-api-purpose-');
  for (const [path, text] of Object.entries(PURPOSE)) {
    mkdirSync(dirname(join(purpose, path)), { recursive: true });
    writeFileSync(join(purpose, path), text);
  }
  exports.purpose = await exportFolder(purpose);
  await exportFixtures(exports, { 'dify-docs': null });
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  for (const { server, dir } of Object.values(exports)) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A page of an export at `width`, every other host blocked, script errors caught. */
function openPage(which, path, width, scheme = 'light') {
  return openIn(browser, exports[which].server, path, scheme, 200, { width });
}

/** Where the reference and the examples stand, the tabs of the examples, and their coloured tokens. */
function apiLayout(page) {
  return page.evaluate(() => {
    const box = (el) => el && (({ x, y, width }) => ({ x, y, width }))(el.getBoundingClientRect());
    const aside = document.querySelector('.api-aside');
    return {
      bar: document.querySelector('.endpoint')?.innerText.replace(/\s+/g, ' ').trim(),
      main: box(document.querySelector('.api-main')),
      aside: box(aside),
      sticky: aside && getComputedStyle(aside).position,
      tabs: [...document.querySelectorAll('.api-aside .tab-button')].map((b) => b.textContent),
      tokens: document.querySelectorAll('.api-aside code [class^="tk-"]').length,
      coloured: [...document.querySelectorAll('.api-aside code [class^="tk-"]')].slice(0, 20)
        .some((t) => getComputedStyle(t).color !== getComputedStyle(t.closest('code')).color),
      inlineStyle: document.querySelectorAll('[style]').length,
    };
  });
}

/** Reference left and examples right at 1280 px; one column at 400 px, the examples under it. */
async function twoColumnsThenOne(which, path, shot) {
  let { page, context, errors, outside } = await openPage(which, path, 1280);
  const wide = await apiLayout(page);
  await page.screenshot({ path: join(ARTIFACTS, `${shot}-1280.png`) });
  assert.ok(wide.main && wide.aside, `${path}: two parts`);
  assert.ok(wide.aside.x >= wide.main.x + wide.main.width, `${path}: examples right of the reference ${JSON.stringify(wide)}`);
  assert.ok(Math.abs(wide.aside.y - wide.main.y) < 40, `${path}: side by side ${JSON.stringify(wide)}`);
  assert.equal(wide.sticky, 'sticky');
  assert.equal(wide.inlineStyle, 0, 'no inline style');
  assert.deepEqual(errors, [], `script errors on ${path}`);
  assert.deepEqual(outside, [], `requests outside the bundle from ${path}`);
  await context.close();
  ({ page, context } = await openPage(which, path, 400));
  const narrow = await apiLayout(page);
  await page.screenshot({ path: join(ARTIFACTS, `${shot}-400.png`), fullPage: true });
  assert.equal(narrow.aside.x, narrow.main.x, `${path}: one column ${JSON.stringify(narrow)}`);
  assert.ok(narrow.aside.y > narrow.main.y + 100, `${path}: examples under the reference`);
  await context.close();
  return wide;
}

test('a generated endpoint page: the spec\'s sample first, then curl, Python and JavaScript, coloured, beside the reference', async () => {
  const wide = await twoColumnsThenOne('purpose', 'api-reference/get-user.html', 'purpose-get-user');
  assert.equal(wide.bar, 'GET /users/{id}');
  assert.deepEqual(wide.tabs, ['Go SDK', 'cURL', 'Python', 'JavaScript', '200']);
  assert.ok(wide.tokens > 10 && wide.coloured, `coloured tokens: ${JSON.stringify(wide)}`);
  const { page, context } = await openPage('purpose', 'api-reference/get-user.html', 1280);
  await page.locator('.api-aside .tab-button', { hasText: 'cURL' }).click();
  const curl = await page.locator('.api-aside .tab-panel.active code').first().innerText();
  assert.match(curl, /curl --request GET \\\n\s+--url 'https:\/\/api\.example\.com\/v1\/users\/u1' \\\n\s+--header 'Authorization: Bearer <token>'/);
  await context.close();
  await accessibleInBothThemes(browser, exports.purpose.server, 'api-reference/get-user.html', join(ARTIFACTS, 'axe-purpose-get-user'));
});

test('an api: page gets the endpoint bar and samples from its ParamFields; its ResponseExample moves beside', async () => {
  const wide = await twoColumnsThenOne('purpose', 'create.html', 'purpose-api-frontmatter');
  assert.equal(wide.bar, 'POST /v1/users');
  assert.deepEqual(wide.tabs, ['cURL', 'Python', 'JavaScript', '201']);
  const { page, context } = await openPage('purpose', 'create.html', 1280);
  const aside = page.locator('.api-aside');
  assert.equal(await aside.locator('.response-example').count(), 1, 'the authored example is in the right column');
  assert.match(await aside.locator('.response-example code').textContent(), /"id": "u2"/);
  const curl = await aside.locator('.api-samples .tab-panel code').first().textContent();
  assert.match(curl, /--header 'Authorization: Bearer <token>'/, 'credentials as docs.json api.mdx.auth says');
  assert.match(curl, /"name": "string"/, 'the body comes from the ParamField');
  await context.close();
  await accessibleInBothThemes(browser, exports.purpose.server, 'create.html', join(ARTIFACTS, 'axe-purpose-create'));
});

/** Page files an exported page's relative `.html` links name, resolved in the bundle. */
function linkedFiles(file, html) {
  return [...html.matchAll(/href="([^"#?:]+\.html)"/g)].map((m) => posix.normalize(posix.join(posix.dirname(file), m[1])));
}

/** `(spec, entry)` of every endpoint entry of docs.json's navigation, the spec the nearest `openapi` up the tree. */
function endpointEntries(node, spec, out) {
  if (Array.isArray(node)) node.forEach((n) => endpointEntries(n, spec, out));
  else if (node && typeof node === 'object') {
    const own = node.openapi === undefined ? spec : (node.openapi.source ?? node.openapi);
    for (const [key, value] of Object.entries(node)) if (key !== 'openapi') endpointEntries(value, own, out);
  } else if (typeof node === 'string' && /^(\S+\.(json|ya?ml) )?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//.test(node)) {
    out.add(`${spec} ${node}`);
  }
  return out;
}

test('dify-docs: every endpoint the navigation names is a page with samples, and no sidebar link is a 404', { skip: !HAS_DIFY }, async () => {
  const { dir, files } = exports.dify;
  const config = JSON.parse(readFileSync(join(FIXTURES, 'dify-docs', 'docs.json'), 'utf8'));
  const entries = endpointEntries(config.navigation, undefined, new Set());
  const endpointPages = [];
  const missing = new Set();
  for (const file of files.filter((f) => f.endsWith('.html') && !f.startsWith('_static/'))) {
    const html = readFileSync(join(dir, file), 'utf8');
    if (!html.includes('<div class="endpoint">')) continue;
    endpointPages.push(file);
    assert.ok(html.includes('class="api-aside"') && html.includes('data-title="cURL"'), `${file}: samples`);
    for (const target of linkedFiles(file, html)) if (!existsSync(join(dir, target))) missing.add(`${file} -> ${target}`);
  }
  assert.equal(endpointPages.length, entries.size, 'a page per (spec, endpoint) entry');
  assert.deepEqual([...missing], []);
  // What a static host answers for every endpoint page of the English API tab's sidebar.
  const first = endpointPages.find((f) => f.startsWith('en/api-reference/'));
  const { page, context } = await openPage('dify', first, 1280);
  const hrefs = await page.locator('.sidebar a[href$=".html"]').evaluateAll((as) => as.map((a) => a.href));
  assert.ok(hrefs.length > 20, `${hrefs.length} sidebar links`);
  for (const href of hrefs) assert.equal((await fetch(href)).status, 200, href);
  await context.close();
  const wide = await twoColumnsThenOne('dify', 'en/api-reference/chat-messages/send-chat-message.html', 'dify-send-chat-message');
  assert.ok(wide.tabs.includes('cURL') && wide.tabs.includes('Python') && wide.tabs.includes('JavaScript') && wide.tabs.includes('200'), wide.tabs.join());
  assert.ok(wide.tokens > 20 && wide.coloured, `coloured tokens: ${JSON.stringify(wide)}`);
  await accessibleInBothThemes(browser, exports.dify.server, 'en/api-reference/chat-messages/send-chat-message.html', join(ARTIFACTS, 'axe-dify-send-chat-message'));
});
