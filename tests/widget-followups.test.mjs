// Follow-up questions and the support link in the widget, in headless Chromium, against the shared
// worker's extractive assistant: starter questions from the page's headings (`data-page-starters`),
// follow-ups under an answer that ask themselves when clicked, the support link (`data-support-url`)
// under an answer the docs do not cover and after a thumbs-down, its showings and clicks counted by
// the analytics report, and axe-core with all of it on screen; the link docs.json sets
// (`x-docs-edge.support`), which the page's own attribute overrides.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStaticServer } from '../scripts/lib/static-server.mjs';
import { BASE_URL, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './support/browser.mjs';
import { reportWhen } from './support/analytics.mjs';
import { answers, ask, axeViolations, panel } from './support/widget.mjs';

const SUPPORT = 'https://support.example.com/help';
const QUESTION = 'How do I start a static export job?';
const NOT_COVERED = 'Can penguins teleport quantum marmalade?';

let t;
let site;
let browser;
/** A site whose docs.json sets its support link (tests/fixtures/agent-skills-docs). */
let own;

before(async () => {
  t = await tenant();
  const published = await publishFolder(t.domain, t.adminKey, DEMO_DOCS);
  assert.equal(published.status, 200, published.text);
  own = await tenant();
  const ownPublished = await publishFolder(own.domain, own.adminKey, fileURLToPath(new URL('./fixtures/agent-skills-docs', import.meta.url)));
  assert.equal(ownPublished.status, 200, ownPublished.text);
  site = await startStaticServer({
    mounts: {},
    handle(req, res) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (req.url.startsWith('/own')) {
        const attribute = req.url === '/own-attribute' ? `data-support-url="${SUPPORT}"` : '';
        res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quay</title></head><body><main><h1>Quay</h1></main>
<script src="${BASE_URL}/widget.js" data-domain="${own.domain}" data-key="${own.assistantKey}" ${attribute} defer></script></body></html>`);
        return true;
      }
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide</title></head>
<body><nav><h2>Site menu</h2></nav><main><h1>Guide</h1><h2>Install the CLI <a href="#install">#</a></h2><p>Text.</p>
<h2>Configure a site</h2><h3>Install the CLI</h3><h3>Environment variables</h3><h2>Deploy</h2></main>
<script src="${BASE_URL}/widget.js" data-domain="${t.domain}" data-key="${t.assistantKey}" data-page-starters
  data-support-url="${SUPPORT}" defer></script></body></html>`);
      return true;
    },
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

async function openPanel(path = '') {
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.route('https://support.example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>support</title>' }));
  await page.goto(`${site.url}${path}`);
  await page.waitForFunction(() => window.DocsAssistant);
  await page.evaluate(() => window.DocsAssistant.open());
  await panel(page).waitFor();
  return { page, errors };
}

const beacon = (page, type) =>
  page.waitForRequest((r) => r.url().endsWith(`/discovery/v1/analytics/${t.domain}/events`) && JSON.parse(r.postData()).events[0].type === type);

test('without data-questions, the starters come from the page’s own section headings', async () => {
  const { page, errors } = await openPanel();
  const starters = await page.locator('docs-assistant .intro-box .starter').allTextContents();
  assert.deepEqual(starters, ['Tell me about Install the CLI', 'Tell me about Configure a site', 'Tell me about Environment variables']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('follow-ups appear under the answer as buttons; clicking one asks it; only the last answer keeps them', async () => {
  const { page, errors } = await openPanel();
  const first = await ask(page, QUESTION);
  const offered = await first.locator('.follow-ups button').allTextContents();
  assert.ok(offered.length >= 1 && offered.length <= 3, JSON.stringify(offered));
  assert.ok(offered.every((q) => q.startsWith('Tell me about ') && q !== QUESTION), JSON.stringify(offered));
  assert.equal(new Set(offered).size, offered.length);
  assert.equal(await first.locator('.support').count(), 0, 'a covered answer offers no support link');
  assert.equal(await first.locator('.follow-ups').getAttribute('aria-label'), 'Follow-up questions');

  await first.locator('.follow-ups button').first().click();
  await answers(page).nth(1).waitFor();
  await page.waitForFunction(() => document.querySelector('docs-assistant').shadowRoot.querySelector('.log').getAttribute('aria-busy') === 'false');
  const asked = await page.locator('docs-assistant .user').allTextContents();
  assert.equal(asked.at(-1), `You: ${offered[0]}`);
  assert.equal(await first.locator('.follow-ups').count(), 0, 'the earlier answer’s follow-ups are gone');
  assert.deepEqual(await axeViolations(page, 'docs-assistant'), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an answer citing sections shows its sources once: the text’s own list of sections is left out', async () => {
  const { page, errors } = await openPanel();
  const answer = await ask(page, 'Which answer backends does the assistant support?');
  assert.ok((await answer.locator('.sources li').count()) >= 1);
  const text = await answer.locator('.md').textContent();
  assert.match(text, /extractive/);
  assert.doesNotMatch(text, /Sources:|Answer backends/);
  // Each `[n]` is a link to the section it cites, though the cited sections share one page.
  assert.doesNotMatch(text, /\[\d+\]/);
  const cites = await answer.locator('.md a.cite').evaluateAll((as) => as.map((a) => new URL(a.href).hash));
  assert.ok(cites.includes('#answer-backends'), cites.join(' '));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the support link: under an answer the docs do not cover and after a thumbs-down; shown and followed are counted', async () => {
  const { page, errors } = await openPanel();
  const shown = beacon(page, 'support_shown');
  const refused = await ask(page, NOT_COVERED);
  assert.match(await refused.locator('.md').textContent(), /doesn't cover/);
  const link = refused.locator('.support a');
  assert.equal(await link.getAttribute('href'), SUPPORT);
  assert.equal(await refused.locator('.support').textContent(), 'Still need help? Contact support');
  await shown;
  assert.deepEqual(await axeViolations(page, 'docs-assistant'), []);

  const followed = beacon(page, 'support_followed');
  const opened = page.context().waitForEvent('page');
  await link.click();
  await followed;
  await (await opened).close();

  const covered = await ask(page, QUESTION);
  assert.equal(await covered.locator('.support').count(), 0);
  const shownAgain = beacon(page, 'support_shown');
  await covered.locator('button[aria-label="Not helpful"]').click();
  await covered.locator('.support a').waitFor();
  await shownAgain;

  const report = await reportWhen(t.domain, t.adminKey, (r) => r.totals.supportShown >= 2 && r.totals.supportFollowed >= 1);
  assert.equal(report.totals.supportShown, 2);
  assert.equal(report.totals.supportFollowed, 1);
  assert.equal(report.days.reduce((n, d) => n + d.supportShown, 0), 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('docs.json\'s support link reaches the widget with the answer; the page\'s own attribute wins', async () => {
  for (const [path, href] of [['/own', 'mailto:help@quay.example'], ['/own-attribute', SUPPORT]]) {
    const { page, errors } = await openPanel(path);
    const refused = await ask(page, NOT_COVERED);
    assert.match(await refused.locator('.md').textContent(), /doesn't cover/);
    assert.equal(await refused.locator('.support a').getAttribute('href'), href, path);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
