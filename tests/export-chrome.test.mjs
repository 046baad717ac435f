// What a reader sees of a site's chrome and icons in an export, in headless Chromium (issue 29,
// points 3 and 4): the header's links and call-to-action button, the footer's social links as
// named SVG icons, the banner and its dismissal, component icons as SVG from Font Awesome, Lucide
// and Tabler (an unknown name a neutral dot), the sets' licences in the bundle, and axe-core
// finding nothing in light and dark. On a page written for the purpose and on pages of both real
// repositories in ../shared/fixtures (mint.json and docs.json as kept; the run's shared sites).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFile } from './support/export.mjs';
import { launchChromium } from './support/browser.mjs';
import { FIXTURES, exportFolder, exportFixtures, closeExports, writeSite, openPage as openIn, accessibleInBothThemes as accessibleIn } from './support/export-pages.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export-chrome');

/** The site written for this test: every place the format shows an icon, and all the chrome. */
const PURPOSE = {
  'docs.json': JSON.stringify({
    name: 'Chrome Test',
    colors: { primary: '#a9bed4' },
    navigation: { pages: ['index', 'guides/start'] },
    navbar: {
      links: [{ label: 'Community', href: 'https://discord.gg/example', icon: 'discord' }, { label: 'Start', href: '/guides/start' }],
      primary: { type: 'button', label: 'Get started', href: 'https://app.example.com' },
    },
    footer: {
      socials: { x: 'https://x.com/example', github: 'https://github.com/example', linkedin: 'https://www.linkedin.com/company/example' },
      links: [{ header: 'Company', items: [{ label: 'Blog', href: 'https://example.com/blog' }, { label: 'Start', href: '/guides/start' }] }],
    },
    banner: { content: 'New: read the [start guide](/guides/start).', dismissible: true },
  }, null, 2),
  // Block components stand apart from each other, as in the format's own examples.
  'index.mdx': [
    '---', 'title: Home', '---',
    '<CardGroup cols={2}>',
    '<Card title="Rocket" icon="rocket" href="/guides/start">\n\nSolid by default.\n\n</Card>',
    '<Card title="Brand" icon="github" iconType="brands">\n\nA brand.\n\n</Card>',
    '<Card title="Lucide" icon="square-dashed-mouse-pointer">\n\nOnly in Lucide.\n\n</Card>',
    '<Card title="Tabler" icon="brand-vercel">\n\nOnly in Tabler.\n\n</Card>',
    '</CardGroup>',
    '<Card title="Unknown" icon="no-such-icon-anywhere">\n\nA dot.\n\n</Card>',
    '<Note>\n\nA note.\n\n</Note>', '<Warning>\n\nA warning.\n\n</Warning>',
    '<Steps>', '<Step title="One" icon="download">\n\nInstall.\n\n</Step>', '</Steps>',
    '<AccordionGroup>', '<Accordion title="More" icon="circle-question">\n\nHidden.\n\n</Accordion>', '</AccordionGroup>',
    'Inline <Icon icon="star" /> and a <Badge icon="check">badge</Badge>.', '',
  ].join('\n\n'),
  'guides/start.mdx': '---\ntitle: Start\n---\n\nStart here.\n',
};

const exports = {};
let browser;

before(async () => {
  exports.purpose = await exportFolder(writeSite('docs-edge-chrome-purpose-', PURPOSE));
  await exportFixtures(exports, {
    'agentops-docs': ['v2/introduction', 'v2/quickstart'],
    'dify-docs': ['en/home', 'en/cloud/use-dify/getting-started/introduction'],
  });
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await closeExports(exports);
});

/** A page of export `which` in light or dark (see support/export-pages.mjs). */
const openPage = (which, path, scheme = 'light') => openIn(browser, exports[which].server, path, scheme);

/** axe-core finds nothing on `path` of export `which` in light and in dark; a screenshot of each. */
const accessibleInBothThemes = (which, path, shot) => accessibleIn(browser, exports[which].server, path, join(ARTIFACTS, shot));

/** Icons on the page: `[class, has shapes]` of every `svg.icon`. */
function icons(page, within) {
  return page.locator(`${within} svg.icon`).evaluateAll((svgs) => svgs.map((s) => [s.getAttribute('class'), s.children.length > 0, s.getAttribute('aria-hidden')]));
}

test('header links, call-to-action, footer socials and banner from docs.json', async () => {
  const { page, context } = await openPage('purpose', 'index.html');
  const header = page.locator('header.topbar');
  await assert.doesNotReject(header.getByRole('link', { name: 'Community' }).waitFor({ state: 'visible' }));
  assert.equal(await header.getByRole('link', { name: 'Community' }).getAttribute('rel'), 'noopener');
  assert.equal(await header.getByRole('link', { name: 'Start', exact: true }).getAttribute('href'), 'guides/start.html');
  const cta = header.locator('a.topbar-cta');
  assert.ok(await cta.isVisible());
  assert.equal((await cta.innerText()).trim(), 'Get started');
  assert.equal(await cta.getAttribute('href'), 'https://app.example.com');
  // One banner landmark: the header.
  assert.equal(await page.getByRole('banner').count(), 1);
  // Footer socials: links named for screen readers, each an SVG icon hidden from them.
  const socials = page.locator('footer .footer-socials a');
  assert.deepEqual(await socials.evaluateAll((as) => as.map((a) => a.getAttribute('aria-label')).sort()), ['GitHub', 'LinkedIn', 'X']);
  for (const [cls, shapes, hidden] of await icons(page, 'footer .footer-socials')) {
    assert.ok(cls === 'icon' && shapes && hidden === 'true', cls);
  }
  assert.equal(await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Blog' }).count(), 1);
  // The banner renders its Markdown; dismissed, it stays hidden on the next page.
  const banner = page.getByRole('region', { name: 'Announcement' });
  assert.equal(await banner.getByRole('link', { name: 'start guide' }).getAttribute('href'), 'guides/start.html');
  await banner.getByRole('button', { name: 'Dismiss announcement' }).click();
  assert.ok(await banner.isHidden());
  await page.goto(`${exports.purpose.server.url}/guides/start.html`);
  await page.waitForLoadState('load');
  assert.ok(await page.locator('.site-banner').isHidden());
  await context.close();
});

test('component icons are SVG from Font Awesome, Lucide and Tabler; an unknown name is a dot', async () => {
  const { page, context } = await openPage('purpose', 'index.html');
  const cards = await icons(page, '.card');
  assert.equal(cards.length, 5);
  assert.deepEqual(cards.map(([cls]) => cls), ['icon', 'icon', 'icon', 'icon', 'icon icon-unknown']);
  assert.ok(cards.every(([, shapes, hidden]) => shapes && hidden === 'true'));
  assert.ok(!(await page.locator('main').innerText()).includes('\u2022'), 'no "•" glyph');
  // Lucide and Tabler draw strokes, Font Awesome fills.
  const paint = await page.locator('.card svg.icon').evaluateAll((svgs) => svgs.map((s) => s.getAttribute('stroke') ?? s.getAttribute('fill')));
  assert.deepEqual(paint, ['currentColor', 'currentColor', 'currentColor', 'currentColor', 'currentColor']);
  assert.equal(await page.locator('.card svg.icon[stroke]').count(), 2);
  for (const place of ['.callout-note .callout-icon', '.callout-warning .callout-icon', '.step', '.accordion summary', '.badge', '.prose p']) {
    assert.ok((await icons(page, place)).length >= 1, `an icon in ${place}`);
  }
  const html = readFile(exports.purpose.dir, 'index.html').toString();
  const body = html.replace(/<head>.*<\/head>/s, '');
  assert.ok(!body.includes('style=') && !body.includes('<script'), 'no inline style or script in the body');
  const licences = exports.purpose.files.filter((f) => f.startsWith('_static/icons/'));
  assert.deepEqual(licences.sort(), ['_static/icons/LICENSE-fontawesome.txt', '_static/icons/LICENSE-lucide.txt', '_static/icons/LICENSE-tabler.txt']);
  await page.screenshot({ path: join(ARTIFACTS, 'purpose-icons.png'), fullPage: true });
  await context.close();
});

test('the purpose page has no accessibility violations in light and dark', async () => {
  await accessibleInBothThemes('purpose', 'index.html', 'purpose');
});

test('agentops-docs (mint.json): topbar button, footer socials and card icons; accessible in light and dark', { skip: !existsSync(join(FIXTURES, 'agentops-docs')) }, async () => {
  const { page, context } = await openPage('agentops', 'v2/introduction.html');
  const cta = page.locator('header a.topbar-cta');
  assert.ok(await cta.isVisible());
  assert.equal((await cta.innerText()).trim(), 'Your Dashboard');
  assert.deepEqual(await page.locator('footer .footer-socials a').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label')).sort()), ['Discord', 'GitHub', 'X']);
  assert.equal((await icons(page, 'footer .footer-socials')).filter(([cls, shapes]) => cls === 'icon' && shapes).length, 3);
  // Its introduction's cards show remote images (`icon={<img src="https://…">}`), which the bundle
  // may not load; the quickstart's name Font Awesome icons.
  await page.goto(`${exports.agentops.server.url}/v2/quickstart.html`);
  const cards = await icons(page, '.card');
  assert.ok(cards.length >= 4 && cards.every(([cls, shapes]) => cls === 'icon' && shapes), JSON.stringify(cards));
  await page.screenshot({ path: join(ARTIFACTS, 'agentops-quickstart-cards.png'), fullPage: true });
  await context.close();
  await accessibleInBothThemes('agentops', 'v2/introduction.html', 'agentops');
});

test('dify-docs (docs.json): navbar link and button, footer socials and card icons; accessible in light and dark', { skip: !existsSync(join(FIXTURES, 'dify-docs')) }, async () => {
  const { page, context } = await openPage('dify', 'en/home.html');
  assert.ok(await page.locator('header').getByRole('link', { name: 'GitHub' }).isVisible());
  assert.equal((await page.locator('header a.topbar-cta').innerText()).trim(), 'Try Dify');
  const cards = await icons(page, '.card');
  assert.ok(cards.length >= 5 && cards.every(([cls, shapes]) => cls === 'icon' && shapes), JSON.stringify(cards));
  // Its home is `mode: custom`, which has no footer (as the format draws it); a guide has one.
  assert.equal(await page.locator('footer.site-footer').count(), 0);
  await page.goto(`${exports.dify.server.url}/en/cloud/use-dify/getting-started/introduction.html`);
  assert.deepEqual(await page.locator('footer .footer-socials a').evaluateAll((as) => as.map((a) => a.getAttribute('aria-label')).sort()), ['GitHub', 'LinkedIn', 'X']);
  await context.close();
  await accessibleInBothThemes('dify', 'en/home.html', 'dify');
});
