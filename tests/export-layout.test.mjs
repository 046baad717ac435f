// What a reader sees of page layouts in an export, in headless Chromium (issue 29, point 6, and
// its accessibility condition): `mode: custom` landing pages keep their Tailwind grid and their
// authors' `style` props (as generated class rules: the CSP allows no inline style), `wide` pages
// lose the table of contents, `expanded` groups stay open, pages show their sidebar icon and
// tag, docs.json `theme` gives its hallmarks, task lists are labelled, redirect stubs stay in the bundle, a
// missing OpenAPI operation is said on its page and warned of, and axe-core finds nothing in light and dark on the home page, a content page with code and
// the 404 page. On a site written for the purpose and on both real repositories in ../shared/fixtures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './support/browser.mjs';
import { FIXTURES, exportFolder, exportFixtures, closeExports, writeSite, openPage as openIn, accessibleInBothThemes as accessibleIn } from './support/export-pages.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export-layout');

const PURPOSE = {
  'docs.json': JSON.stringify({
    name: 'Layout Test',
    theme: 'linden',
    colors: { primary: '#a9bed4' },
    background: { decoration: 'grid' },
    navigation: {
      groups: [
        { group: 'Start', pages: ['index', 'guides/code', 'guides/tasks', 'guides/delete-user'] },
        { group: 'Always open', expanded: true, tag: 'BETA', pages: ['guides/wide', 'guides/other', 'guides/long'] },
        { group: 'Closed', icon: 'book', pages: ['guides/closed'] },
      ],
    },
    // A redirect to a page the bundle lacks, and a chain of two to one it has.
    redirects: [
      { source: '/enterprise/:path*', destination: '/en/enterprise/:path*' },
      { source: '/old-code', destination: '/legacy/code' },
      { source: '/legacy/:slug*', destination: '/guides/:slug*' },
    ],
  }, null, 2),
  'guides/tasks.mdx': '---\ntitle: Tasks\n---\n\n- [x] Write the docs\n- [ ] Publish them\n  - [ ] Check the links\n',
  'guides/delete-user.mdx': '---\ntitle: Delete a user\nopenapi: DELETE /users\n---\n\nRemoves a user.\n',
  'openapi.json': JSON.stringify({ openapi: '3.1.0', info: { title: 'Users', version: '1' }, paths: { '/users': { get: { summary: 'List users', responses: { 200: { description: 'OK' } } } } } }),
  'index.mdx': [
    '---', 'title: Welcome', 'mode: custom', '---',
    '<div className="px-6 py-16 max-w-4xl mx-auto">',
    '<h1 className="text-4xl font-bold text-gray-900 dark:text-white">Layout Test</h1>',
    '<p className="mt-3 text-lg text-gray-600 dark:text-gray-300">A landing page built with utility classes.</p>',
    '<div id="cards" className="mt-8 grid grid-cols-1 md:grid-cols-3 gap-6">',
    '<a href="/guides/code" className="block p-6 rounded-xl border border-gray-200 dark:border-zinc-700 text-gray-900 dark:text-white">Code</a>',
    '<a href="/guides/wide" className="block p-6 rounded-xl border border-gray-200 dark:border-zinc-700 text-gray-900 dark:text-white">Wide</a>',
    '<a href="/guides/other" className="block p-6 rounded-xl border border-gray-200 dark:border-zinc-700 text-gray-900 dark:text-white">Other</a>',
    '</div>',
    '<div id="styled" style={{ display: "flex", gap: 24, marginTop: "2rem", color: "red;}body{display:none", background: "url(javascript:alert(1))" }}>',
    '<span>One</span><span>Two</span>',
    '</div>',
    '<div id="hostile" className="w-[1px;}body{display:none] bg-[url(javascript:x)] p-4">Still here.</div>',
    '</div>', '',
  ].join('\n'),
  'guides/code.mdx': '---\ntitle: Code\nicon: rocket\ntag: NEW\n---\n\nRun this, then read [the wide page](/guides/wide).\n\n```bash\n' +
    `${'echo "a long line that scrolls sideways in its block because it does not wrap at all, on purpose" '.repeat(3)}\n` + '```\n\n## Next\n\nMore.\n',
  'guides/wide.mdx': '---\ntitle: Wide\nmode: wide\n---\n\n## A heading\n\nNo table of contents here.\n',
  'guides/other.mdx': '---\ntitle: Other\n---\n\nOther page.\n',
  'guides/closed.mdx': '---\ntitle: Closed\n---\n\nIn a closed group.\n',
  'guides/long.mdx': '---\ntitle: eth_getBlockTransactionCountByNumber\n---\n\nA label of one long word.\n\n' +
    '<CodeGroup>\n```bash npm\nnpm i sdk\n```\n```bash yarn\nyarn add sdk\n```\n</CodeGroup>\n\n![Hero Light](/images/hero-light.svg)\n',
  // A hero illustration over the 32 KiB a data: URL may take: shipped as a sanitised file.
  'images/hero-light.svg': '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200" width="400" height="200">' +
    '<script>document.title = "ran"</script><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#2563eb"/>' +
    '<stop offset="1" stop-color="#16a34a"/></linearGradient></defs><rect width="400" height="200" fill="url(#g)"/>' +
    Array.from({ length: 700 }, (_, i) => `<circle cx="${(i * 37) % 400}" cy="${(i * 53) % 200}" r="2" fill="#ffffff" opacity="0.5"/>`).join('') + '</svg>\n',
};

const exports = {};
let browser;

before(async () => {
  exports.purpose = await exportFolder(writeSite('docs-edge-layout-purpose-', PURPOSE));
  await exportFixtures(exports, {
    'agentops-docs': ['v2/introduction', 'v2/quickstart'],
    'dify-docs': ['en/home', 'en/self-host/deploy/overview', 'en/self-host/deploy/advanced-deployments/local-source-code'],
  });
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await closeExports(exports);
});

const openPage = (which, path, scheme = 'light') => openIn(browser, exports[which].server, path, scheme);
const accessible = (which, path, shot, status) => accessibleIn(browser, exports[which].server, path, join(ARTIFACTS, shot), status);

test('a custom-mode landing page keeps its Tailwind grid and style props, without inline style', async () => {
  const { page, context } = await openPage('purpose', 'index.html');
  assert.equal(await page.locator('aside.sidebar').count(), 0, 'no sidebar');
  assert.equal(await page.locator('aside.toc').count(), 0, 'no table of contents');
  assert.equal(await page.locator('footer.site-footer').count(), 0, 'no footer');
  const grid = await page.locator('#cards').evaluate((el) => {
    const s = getComputedStyle(el);
    return { display: s.display, columns: s.gridTemplateColumns.split(' ').length, gap: s.columnGap };
  });
  assert.deepEqual(grid, { display: 'grid', columns: 3, gap: '24px' });
  // The three cards are the grid's items, side by side: lines of nothing but elements are blocks
  // (as MDX unravels them), never one paragraph around the heading or the cards.
  assert.equal(await page.locator('p h1, p #cards, #cards > p').count(), 0, 'no paragraph wraps the elements');
  assert.equal(await page.locator('#cards > a').count(), 3);
  const lefts = await page.locator('#cards a').evaluateAll((as) => as.map((a) => Math.round(a.getBoundingClientRect().left)));
  assert.equal(new Set(lefts).size, 3, `card positions ${lefts}`);
  const card = await page.locator('#cards a').first().evaluate((el) => {
    const s = getComputedStyle(el);
    return { padding: s.paddingTop, radius: s.borderTopLeftRadius, border: s.borderTopWidth };
  });
  assert.deepEqual(card, { padding: '24px', radius: '12px', border: '1px' });
  const styled = await page.locator('#styled').evaluate((el) => {
    const s = getComputedStyle(el);
    return { display: s.display, gap: s.columnGap, marginTop: s.marginTop, color: s.color, image: s.backgroundImage, attr: el.getAttribute('style') };
  });
  assert.equal(styled.display, 'flex');
  assert.equal(styled.gap, '24px');
  assert.equal(styled.marginTop, '32px');
  assert.notEqual(styled.color, 'rgb(255, 0, 0)', 'the hostile colour was dropped');
  assert.equal(styled.image, 'none');
  assert.equal(styled.attr, null);
  assert.ok(await page.locator('#hostile').isVisible(), 'a hostile class did not hide the body');
  assert.equal(await page.locator('body').evaluate((b) => getComputedStyle(b).display), 'block');
  // Narrow screens get one column (md: is 48rem).
  await page.setViewportSize({ width: 600, height: 900 });
  assert.equal(await page.locator('#cards').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length), 1);
  await page.setViewportSize({ width: 1280, height: 900 });
  const html = readFileSync(join(exports.purpose.dir, 'index.html'), 'utf8');
  assert.ok(!/\sstyle=/.test(html), 'no inline style');
  assert.ok(html.includes('href="_static/pages/index.css"'));
  const css = readFileSync(join(exports.purpose.dir, '_static/pages/index.css'), 'utf8');
  for (const bad of ['javascript', 'body{', '</style', 'url(']) assert.ok(!css.includes(bad), `${bad} in the page's stylesheet`);
  await page.screenshot({ path: join(ARTIFACTS, 'purpose-landing.png'), fullPage: true });
  await context.close();
});

test('wide mode drops the table of contents; expanded groups stay open; page icon and tag in the sidebar', async () => {
  const { page, context } = await openPage('purpose', 'guides/wide.html');
  assert.equal(await page.locator('aside.toc').count(), 0);
  assert.equal(await page.locator('aside.sidebar').count(), 1);
  await page.goto(`${exports.purpose.server.url}/guides/code.html`);
  assert.equal(await page.locator('aside.toc').count(), 1);
  const sections = page.locator('.nav-tree > li.nav-section');
  assert.deepEqual(await sections.evaluateAll((ls) => ls.map((l) => [l.querySelector('.nav-section-label').textContent, l.classList.contains('collapsed')])),
    [['Start', false], ['Always openBETA', false], ['Closed', true]]);
  assert.ok(await page.locator('.nav-tree a', { hasText: 'Other' }).isVisible(), 'a page of the expanded group is listed');
  const current = page.locator('.nav-tree a.current');
  assert.equal(await current.locator('svg.icon').count(), 1);
  assert.equal((await current.locator('.nav-tag').innerText()).trim(), 'NEW');
  // A section's icon stands on its label's line, not above it.
  const closed = page.locator('.nav-section.collapsed .nav-section-label');
  const [icon, link] = await Promise.all([closed.locator('svg.icon').boundingBox(), closed.locator('a').boundingBox()]);
  assert.ok(icon && link && icon.x + icon.width <= link.x + 8 && Math.abs(icon.y + icon.height / 2 - (link.y + link.height / 2)) < link.height / 2,
    `icon ${JSON.stringify(icon)} beside link ${JSON.stringify(link)}`);
  await page.screenshot({ path: join(ARTIFACTS, 'purpose-code.png'), fullPage: true });
  await context.close();
});

test("docs.json theme: linden's monospace type, square corners and upper-case group labels", async () => {
  const { page, context } = await openPage('purpose', 'guides/code.html');
  const look = await page.evaluate(() => ({
    font: getComputedStyle(document.body).fontFamily,
    corner: getComputedStyle(document.querySelector('.nav-tree a.current')).borderTopLeftRadius,
    label: getComputedStyle(document.querySelector('.nav-section-label')).textTransform,
  }));
  assert.match(look.font, /monospace/, look.font);
  assert.deepEqual([look.corner, look.label], ['0px', 'uppercase']);
  await context.close();
});

test('long sidebar labels wrap, a code group names each block once, the grid stays at the top, a large SVG shows from the bundle', async () => {
  const { page, context } = await openPage('purpose', 'guides/long.html');
  for (const width of [1280, 900]) {
    await page.setViewportSize({ width, height: 900 });
    const fit = await page.locator('.nav-tree a', { hasText: 'eth_getBlock' }).evaluate((a) => {
      const side = a.closest('.sidebar').getBoundingClientRect();
      const box = a.getBoundingClientRect();
      return { overflow: a.scrollWidth - a.clientWidth, right: box.right, sideRight: side.right, lines: Math.round(box.height / parseFloat(getComputedStyle(a).lineHeight)) };
    });
    assert.ok(fit.overflow <= 0 && fit.right <= fit.sideRight, `at ${width}px the label stays in the sidebar: ${JSON.stringify(fit)}`);
    assert.ok(fit.lines >= 2, `at ${width}px the label wraps: ${JSON.stringify(fit)}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  // The group's tabs are the only place each block's label shows.
  const group = page.locator('.code-group');
  assert.deepEqual(await group.locator('[role="tab"]').allInnerTexts(), ['npm', 'yarn']);
  assert.equal(await group.locator('.code-title:visible').count(), 0, 'no title line repeats the tab');
  assert.equal((await group.innerText()).match(/\bnpm\b/g).length, 2, 'npm: the tab and the command');
  // The grid decoration: behind the top of the page, faded out further down, scrolling with it.
  const background = await page.evaluate(() => {
    const s = getComputedStyle(document.body);
    return { image: s.backgroundImage, attachment: s.backgroundAttachment, size: s.backgroundSize };
  });
  assert.ok(background.image.startsWith('linear-gradient(rgba(0, 0, 0, 0),'), background.image);
  assert.equal(background.image.match(/linear-gradient/g).length, 3, background.image);
  assert.ok(!background.attachment.includes('fixed'), background.attachment);
  // The hero illustration is a file of the bundle, drawn, its script gone.
  const hero = page.locator('img[alt="Hero Light"]');
  await hero.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('img[alt="Hero Light"]')?.complete);
  assert.equal(await hero.getAttribute('src'), '../images/hero-light.svg');
  assert.equal(await hero.evaluate((img) => img.naturalWidth), 400, 'the sanitised SVG draws');
  const svg = readFileSync(join(exports.purpose.dir, 'images/hero-light.svg'), 'utf8');
  assert.ok(!svg.includes('<script') && svg.includes('fill="url(#g)"'), svg.slice(0, 300));
  assert.notEqual(await page.title(), 'ran');
  await page.screenshot({ path: join(ARTIFACTS, 'purpose-long.png'), fullPage: true });
  await context.close();
});

test('a task list: each box is labelled by its item, and the page passes axe in light and dark', async () => {
  const { page, context } = await openPage('purpose', 'guides/tasks.html');
  const boxes = await page.locator('main input[type="checkbox"]').evaluateAll((inputs) => inputs.map((i) => [i.labels[0]?.innerText.trim(), i.checked, i.disabled]));
  assert.deepEqual(boxes, [['Write the docs', true, true], ['Publish them', false, true], ['Check the links', false, true]]);
  assert.equal(await page.getByRole('checkbox', { name: 'Publish them' }).count(), 1);
  await context.close();
  await accessible('purpose', 'guides/tasks.html', 'purpose-tasks');
});

test('redirect stubs follow chains to a page of the bundle, else lead to its 404 page, never to the live site', async () => {
  const { page, context } = await openPage('purpose', '404.html');
  const base = exports.purpose.server.url;
  await page.goto(`${base}/old-code.html`);
  await page.waitForURL(`${base}/guides/code.html`);
  await page.goto(`${base}/enterprise.html`);
  await page.waitForURL(`${base}/404.html`);
  await context.close();
  for (const file of exports.purpose.files.filter((f) => f.endsWith('.html'))) {
    const html = readFileSync(join(exports.purpose.dir, file), 'utf8');
    if (html.includes('http-equiv="refresh"')) assert.ok(!/url=https?:/.test(html), `${file} leads off the bundle`);
  }
  assert.ok(!readFileSync(join(exports.purpose.dir, '_redirects'), 'utf8').includes('://'), 'no rule names a domain');
});

test('a page naming an operation its OpenAPI document lacks says so, and the publish warns at its line', async () => {
  const { page, context } = await openPage('purpose', 'guides/delete-user.html');
  assert.match(await page.locator('main').innerText(), /The operation DELETE \/users is not in the site's OpenAPI documents\./);
  await context.close();
  const warning = exports.purpose.warnings.find((w) => w.startsWith('guides/delete-user.mdx:3: `openapi: DELETE /users`'));
  assert.ok(warning, exports.purpose.warnings.join('\n'));
});

test('the purpose site: no accessibility violations in light and dark (home, code page, wide page, 404)', async () => {
  await accessible('purpose', 'index.html', 'purpose-home');
  await accessible('purpose', 'guides/code.html', 'purpose-code');
  await accessible('purpose', 'guides/wide.html', 'purpose-wide');
  await accessible('purpose', '404.html', 'purpose-404');
});

test('dify-docs: its custom-mode home keeps its layout; accessible in light and dark', { skip: !existsSync(join(FIXTURES, 'dify-docs')) }, async () => {
  const { page, context } = await openPage('dify', 'en/home.html');
  assert.equal(await page.locator('aside.sidebar').count(), 0);
  const wrapper = await page.locator('.custom-body > div').first().evaluate((el) => {
    const s = getComputedStyle(el);
    return { maxWidth: s.maxWidth, paddingTop: s.paddingTop, marginLeft: s.marginLeft };
  });
  assert.equal(wrapper.maxWidth, '1024px');
  assert.equal(wrapper.paddingTop, '64px');
  assert.notEqual(wrapper.marginLeft, '0px', 'centred');
  // The home page is hidden from the navigation and in no tab's folder: no tab is marked as its.
  assert.equal(await page.locator('.tabs-bar .tab.current').count(), 0);
  await page.screenshot({ path: join(ARTIFACTS, 'dify-home.png'), fullPage: true });
  await context.close();
  await accessible('dify', 'en/home.html', 'dify-home');
  await accessible('dify', 'en/self-host/deploy/advanced-deployments/local-source-code.html', 'dify-code');
  await accessible('dify', '404.html', 'dify-404');
});

test('agentops-docs (mint.json): introduction and a page with code are accessible in light and dark', { skip: !existsSync(join(FIXTURES, 'agentops-docs')) }, async () => {
  await accessible('agentops', 'v2/introduction.html', 'agentops-intro');
  await accessible('agentops', 'v2/quickstart.html', 'agentops-quickstart');
});
