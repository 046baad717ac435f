// The assistant widget in headless Chromium, on a plain page of another origin that has only the script
// tag, against a worker whose assistant streams from a local stand-in LLM: the shortcut, a streamed
// Markdown answer, citations, stop, regenerate, feedback, a selection as context, the conversation
// kept across a reload, `?ask=`, keyboard-only use, axe-core, a strict Content-Security-Policy, and
// the bytes a page loads from the service (budgets), the modal and push surfaces, the UI text's
// languages, a key locked to other sites. Screenshots go to test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startStaticServer } from '../scripts/lib/static-server.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { call, ROOT_TOKEN, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { launchBrowser } from './support/browser.mjs';
import { startLlmMock } from './support/llm-mock.mjs';
import { answers, ask, axeViolations, panel, recordViolations, recordWidgetEvents } from './support/widget.mjs';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
const LAUNCHER_BUDGET = 8 * 1024;
const FIRST_ANSWER_BUDGET = 60 * 1024;
const PARAGRAPH = 'A static export bundles every page of the site into one archive.';

let mock;
let worker;
let state;
let t;
let site;
let browser;
/** Keys locked to other sites and to the test page's own origin (`allowedOrigins`). */
const lockedKeys = {};
/** Pages with the widget's surfaces and languages: path → pageHtml options. */
const VARIANTS = {
  '/modal': { title: 'Modal surface', attrs: 'data-surface="modal"' },
  // The page's own inline style on <html> must come back as it was.
  '/push': { title: 'Push surface', attrs: 'data-surface="push"', html: 'style="scroll-padding-top: 10px"' },
  '/de': { title: 'Deutsche Seite', lang: 'de-DE', attrs: 'data-label-title="Fragen Sie die Doku"' },
  '/ja-on-fr': { title: 'Page française', lang: 'fr', attrs: 'data-lang="ja"' },
};

function pageHtml(domain, key, { title = 'Plain page', attrs = '', lang = 'en', html = '' } = {}) {
  return `<!doctype html><html lang="${lang}" ${html}><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1><p id="para">${PARAGRAPH}</p><label>Search <input id="field"></label>
<button id="own-button" type="button">Ask the docs</button></main>
<script src="${worker.baseUrl}/widget.js" data-domain="${domain}" data-key="${key}"
  data-questions="How do I start a static export job?|How long is the bundle link valid?"
  data-open-selector="#own-button" ${attrs} defer></script></body></html>`;
}

/** A right-to-left page that mounts the widget from the npm package's ES module, no script tag. */
function modulePage(domain, key) {
  return `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>صفحة</title></head>
<body><main><h1>صفحة</h1><p>${PARAGRAPH}</p></main>
<script type="module">
  import { mountDocsAssistant } from '/pkg/widget.js';
  const element = mountDocsAssistant({ api: ${JSON.stringify(worker.baseUrl)}, domain: ${JSON.stringify(domain)}, key: ${JSON.stringify(key)},
    'label-title': 'اسأل الوثائق', 'label-launcher': 'اسأل' });
  window.DocsAssistant = { on: (type, fn) => element.addEventListener(type, (e) => fn(e.detail)), reset: () => element.reset(), element };
</script></body></html>`;
}

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  mock = await startLlmMock();
  state = scratchDir('docs-edge-widget-');
  worker = await startWorker({
    persistTo: state,
    vars: { ROOT_TOKEN, ASSISTANT_BACKEND: 'openai', LLM_BASE_URL: mock.baseUrl, LLM_API_KEY: 'sk-test-0123456789', LLM_MODEL: 'widget-test-model' },
  });
  t = await tenant({ base: worker.baseUrl });
  const published = await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base: worker.baseUrl });
  assert.equal(published.status, 200, published.text);
  site = await startStaticServer({
    mounts: { '/pkg/': fileURLToPath(new URL('../sdk-wasm/pkg/', import.meta.url)) },
    handle(req, res, url) {
      if (url.pathname.startsWith('/pkg/')) return false;
      if (url.pathname === '/module') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(modulePage(t.domain, t.assistantKey));
        return true;
      }
      if (lockedKeys[url.pathname]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(pageHtml(t.domain, lockedKeys[url.pathname], { title: 'Locked key' }));
        return true;
      }
      const html = pageHtml(t.domain, t.assistantKey, VARIANTS[url.pathname] ?? { title: url.pathname === '/csp' ? 'Strict page' : 'Plain page' });
      const headers = { 'content-type': 'text/html; charset=utf-8' };
      // Only the service's origin and wasm compilation: no 'unsafe-inline', no 'unsafe-eval'.
      if (url.pathname === '/csp') {
        headers['content-security-policy'] =
          `default-src 'none'; script-src ${worker.baseUrl} 'wasm-unsafe-eval'; connect-src ${worker.baseUrl}; style-src ${worker.baseUrl}; img-src 'none'`;
      }
      res.writeHead(200, headers);
      res.end(html);
      return true;
    },
  });
  for (const [path, allowedOrigins] of [['/locked', ['https://docs.example.com']], ['/allowed', [site.url]]]) {
    const created = await call('POST', `/v1/admin/orgs/${t.org.orgId}/keys`, { token: ROOT_TOKEN, json: { kind: 'assistant', allowedOrigins }, base: worker.baseUrl });
    assert.equal(created.status, 201, created.text);
    lockedKeys[path] = created.body.key;
  }
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await worker?.stop();
  await mock?.close();
  if (state) rmSync(state, { recursive: true, force: true });
});

/** A fresh page that records what it loads from the service and its own errors. */
async function openPage(path = '/', { width = 1100, height = 800 } = {}) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height });
  const loaded = [];
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.origin !== worker.baseUrl || url.pathname.startsWith('/discovery/')) return;
    loaded.push({ path: url.pathname, gzip: gzipSync(await response.body(), { level: 9 }).length, headers: response.headers() });
  });
  // Where the answers' citations lead: the docs site, answered here.
  await page.route(`https://${t.domain}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>cited</title><p>cited page' }));
  await recordViolations(page);
  await page.goto(`${site.url}${path}`);
  await recordWidgetEvents(page);
  return { page, loaded, errors };
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

test('the launcher alone loads first; the shortcut opens the panel; a Markdown answer streams in safely', async () => {
  const { page, loaded, errors } = await openPage('/');
  const launcher = page.locator('docs-assistant .launcher');
  await launcher.waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(loaded.map((r) => r.path), ['/widget.js'], 'nothing but the launcher before the reader opens it');
  const launcherBytes = loaded[0].gzip;
  assert.equal(loaded[0].headers['access-control-allow-origin'], '*');
  console.log(`widget launcher: ${kib(launcherBytes)} gzip -9 (budget ${kib(LAUNCHER_BUDGET)})`);
  assert.ok(launcherBytes <= LAUNCHER_BUDGET, `launcher ${launcherBytes} B`);

  // Not while the reader types in a field; from the page itself, yes.
  await page.locator('#field').press('Control+i');
  assert.equal(await panel(page).count(), 0);
  await page.locator('h1').click();
  await page.keyboard.press('Control+i');
  await panel(page).waitFor();
  assert.equal(await page.evaluate(() => document.querySelector('docs-assistant').shadowRoot.activeElement?.tagName), 'TEXTAREA');
  // The panel's own question box is no page field: the shortcut closes the panel from there.
  await page.keyboard.press('Control+i');
  await panel(page).waitFor({ state: 'hidden' });
  await page.keyboard.press('Control+i');
  await panel(page).waitFor();

  await page.evaluate(() => {
    const log = document.querySelector('docs-assistant').shadowRoot.querySelector('.log');
    window.busySeen = false;
    window.answerGrew = 0;
    new MutationObserver(() => {
      if (log.getAttribute('aria-busy') === 'true') window.busySeen = true;
      if (log.querySelector('article.answer .md')?.textContent) window.answerGrew++;
    }).observe(log, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const answer = await ask(page, 'MARKDOWN: how do I start a static export job?');
  assert.ok(await page.evaluate(() => window.busySeen), 'the log was busy while the answer streamed');
  assert.ok((await page.evaluate(() => window.answerGrew)) >= 3, 'the answer grew in parts');
  // `## Static exports` is the answer's top heading: an h3 under the panel's h2, no level skipped.
  assert.equal(await answer.locator('.md h3').textContent(), 'Static exports');
  assert.equal(await answer.locator('.md ol li').count(), 2);
  assert.equal(await answer.locator('.md table th').count(), 2);
  assert.match(await answer.locator('.md pre code').textContent(), /^curl -X POST/);
  assert.equal(await answer.locator('.md .code button[aria-label="Copy code"]').count(), 1);
  const cites = await answer.locator('a.cite').evaluateAll((as) => as.map((a) => a.href));
  assert.equal(cites.length, 3, 'three citations: [1] and [1, 2]');
  assert.ok(cites.every((href) => href.startsWith(`https://${t.domain}/`)), cites.join(' '));
  assert.ok((await answer.locator('.sources li').count()) >= 2);
  // The model's text never becomes markup or a script link.
  assert.equal(await answer.locator('.md b').count(), 0);
  assert.match(await answer.locator('.md').textContent(), /<b>tags<\/b>/);
  assert.equal(await answer.locator('a[href^="javascript:"]').count(), 0);
  assert.equal(await page.evaluate(() => window.widgetEvents.filter((e) => e.type === 'answer').length), 1);

  const firstAnswer = loaded.reduce((n, r) => n + r.gzip, 0);
  console.log(`widget page load through the first answer: ${kib(firstAnswer)} gzip -9 (budget ${kib(FIRST_ANSWER_BUDGET)}): ` +
    loaded.map((r) => `${r.path.replace(/\.[0-9a-f]{10}\./, '.*.')} ${kib(r.gzip)}`).join(', '));
  assert.ok(firstAnswer <= FIRST_ANSWER_BUDGET, `${firstAnswer} B`);
  const wasm = loaded.find((r) => r.path.endsWith('.wasm'));
  assert.equal(wasm.headers['content-type'], 'application/wasm', 'compiled while it streams in');
  const part = loaded.find((r) => r.path.startsWith('/widget/'));
  assert.match(part.headers['cache-control'], /immutable/);
  assert.equal(part.headers['access-control-allow-origin'], '*');

  await page.screenshot({ path: join(ARTIFACTS, 'widget-light-wide.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(ARTIFACTS, 'widget-dark-wide.png') });
  await page.setViewportSize({ width: 390, height: 780 });
  await page.screenshot({ path: join(ARTIFACTS, 'widget-dark-narrow.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: join(ARTIFACTS, 'widget-light-narrow.png') });
  await page.setViewportSize({ width: 1100, height: 800 });

  // A citation is a link to the cited page and anchor, announced by a `source-click` event first.
  const href = cites[0];
  const clicks = [];
  await page.exposeFunction('recordSourceClick', (detail) => clicks.push(detail));
  await page.evaluate(() => window.DocsAssistant.on('source-click', (detail) => window.recordSourceClick(detail)));
  await answer.locator('a.cite').first().click();
  await page.waitForURL(href);
  assert.deepEqual(clicks.map((c) => [c.url, c.index]), [[href, 1]]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('stop keeps the partial answer; regenerate asks again; a rating with a reason reaches the feedback API', async () => {
  const { page, errors } = await openPage('/');
  await page.evaluate(() => window.DocsAssistant.reset());
  await page.evaluate(() => window.DocsAssistant.open());
  await page.locator('docs-assistant textarea').fill('SLOW_TOKENS how is a static export packed?');
  await page.locator('docs-assistant textarea').press('Enter');
  const first = answers(page).first();
  await first.locator('.md p', { hasText: 'According' }).waitFor();
  await page.locator('docs-assistant button[aria-label="Stop"]').click();
  await first.locator('.status', { hasText: 'Stopped.' }).waitFor({ timeout: 5000 }).catch(async (err) => {
    await page.screenshot({ path: join(ARTIFACTS, 'widget-stop-failed.png') });
    throw new Error(`${err.message}\n${await first.textContent()} busy=${await page.locator('docs-assistant .log').getAttribute('aria-busy')}`);
  });
  const partial = await first.locator('.md').textContent();
  assert.ok(!partial.includes('is one bundle.'), partial);
  assert.equal(await page.locator('docs-assistant .log').getAttribute('aria-busy'), 'false');

  const requests = mock.requests.length;
  await first.locator('button[aria-label="Regenerate"]').click();
  await page.locator('docs-assistant article.answer .md p').first().waitFor();
  await page.waitForFunction(() => document.querySelector('docs-assistant').shadowRoot.querySelector('.log').getAttribute('aria-busy') === 'false');
  assert.equal(await answers(page).first().locator('.error').count(), 0, await answers(page).first().textContent());
  assert.equal(mock.requests.length, requests + 1, 'one new request to the model');
  assert.equal(await page.locator('docs-assistant .user').count(), 1, 'the question is not repeated in the transcript');
  const regenerated = answers(page).first();
  assert.match(await regenerated.locator('.md').textContent(), /is one bundle\./);

  const feedback = page.waitForResponse((r) => r.url().endsWith('/feedback') && r.request().method() === 'POST');
  await regenerated.locator('button[aria-label="Not helpful"]').click();
  assert.equal((await feedback).status(), 200);
  assert.equal(await regenerated.locator('button[aria-label="Not helpful"]').getAttribute('aria-pressed'), 'true');
  const withReason = page.waitForResponse((r) => r.url().endsWith('/feedback') && r.request().postDataJSON().comment === 'too short');
  await regenerated.locator('.reason input').fill('too short');
  await page.screenshot({ path: join(ARTIFACTS, 'widget-feedback.png') });
  await regenerated.locator('.reason button').click();
  assert.equal((await withReason).status(), 200);
  await regenerated.locator('.status', { hasText: 'Thanks' }).waitFor();
  const events = await page.evaluate(() => window.widgetEvents.filter((e) => e.type === 'feedback').map((e) => e.detail.rating));
  assert.deepEqual(events, ['down', 'down']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a selection on the page goes with the question as a textSelection; the conversation survives a reload', async () => {
  const { page, errors } = await openPage('/');
  await page.evaluate(() => window.DocsAssistant.reset());
  await page.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('para'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  });
  await page.keyboard.press('Control+i');
  await page.locator('docs-assistant .chip.selection').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'widget-selection.png') });
  const requests = mock.requests.length;
  await ask(page, 'What does this mean?');
  const sent = JSON.stringify(mock.requests.slice(requests).map((r) => r.body));
  assert.ok(sent.includes(PARAGRAPH), 'the selected text reached the model');
  assert.equal(await page.locator('docs-assistant .chip.selection').count(), 0, 'the selection goes with one question');
  await ask(page, 'And a follow-up?');

  await page.reload();
  await page.waitForFunction(() => window.DocsAssistant);
  await page.evaluate(() => window.DocsAssistant.open());
  await panel(page).waitFor();
  assert.equal(await page.locator('docs-assistant .user').count(), 2);
  assert.equal(await answers(page).count(), 2);
  // The next question continues the same server thread.
  const before = mock.requests.length;
  await ask(page, 'A third question?');
  const last = mock.requests.slice(before).at(-1).body.messages.filter((m) => m.role === 'user');
  assert.ok(last.length >= 3, 'the kept conversation went with the question');
  assert.deepEqual(errors, []);
  await page.close();
});

test('?ask= opens the panel and asks; the page’s own button opens it too', async () => {
  const { page, errors } = await openPage('/?ask=How%20long%20is%20the%20bundle%20link%20valid%3F');
  await answers(page).last().locator('.actions button').first().waitFor();
  assert.equal(await page.locator('docs-assistant .user').last().textContent(), 'You: How long is the bundle link valid?');
  await page.keyboard.press('Escape');
  await page.locator('#own-button').click();
  await panel(page).waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'own-button', 'focus returns to the page’s button');
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard only: Tab to the launcher, ask, reach the answer’s controls, Esc returns focus; axe-core finds nothing', async () => {
  const { page, errors } = await openPage('/');
  await page.evaluate(() => window.DocsAssistant.reset());
  const focused = () => page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el ? `${el.tagName}.${el.className}|${el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent.trim() ?? el.textContent.trim()}` : '';
  });
  for (let i = 0; i < 10 && !(await focused()).includes('launcher'); i++) await page.keyboard.press('Tab');
  assert.match(await focused(), /launcher/);
  await page.keyboard.press('Enter');
  await panel(page).waitFor();
  assert.match(await focused(), /^TEXTAREA/);
  await page.keyboard.type('How do I start a static export job?');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('docs-assistant').shadowRoot.querySelector('article.answer .actions button'));
  const reached = new Set();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    reached.add((await focused()).split('|')[1]);
  }
  for (const label of ['New chat', 'Close', 'Copy answer', 'Regenerate', 'Helpful', 'Not helpful', 'About this page', 'Your question']) {
    assert.ok(reached.has(label) || [...reached].some((r) => r?.startsWith(label)), `${label} reachable by Tab (${[...reached].join(', ')})`);
  }

  assert.deepEqual(await axeViolations(page), []);

  // The side panel is not modal: Tab leaves it for the page and comes back.
  for (let i = 0; i < 40 && !(await focusedIn(page)).inPanel; i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'hidden' });
  assert.match(await focused(), /launcher/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The element that has the keyboard focus, inside the widget's shadow root too. */
const focusedIn = (page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return { inPanel: !!el?.closest?.('.panel'), label: el?.getAttribute('aria-label') ?? el?.tagName };
  });

test('the modal surface: a centred dialog over a backdrop, Tab cycles inside it, the backdrop closes it; axe-core finds nothing with a wide code block in the answer', async () => {
  const { page, errors } = await openPage('/modal');
  await page.evaluate(() => window.DocsAssistant.reset());
  await page.locator('docs-assistant .launcher').click();
  await panel(page).waitFor();
  assert.equal(await panel(page).getAttribute('aria-modal'), 'true');
  const box = await panel(page).boundingBox();
  const view = page.viewportSize();
  assert.ok(Math.abs(box.x + box.width / 2 - view.width / 2) <= 1 && Math.abs(box.y + box.height / 2 - view.height / 2) <= 1, JSON.stringify(box));
  assert.ok(box.width < view.width - 100, 'not the full width');
  const answer = await ask(page, 'MARKDOWN: how do I start a static export job?');
  // The answer's code line is wider than the dialog: its block scrolls and takes the focus, so a
  // keyboard reader can scroll it (axe-core's scrollable-region-focusable, run below, needs both).
  const code = await answer.locator('.md pre').evaluate((pre) => ({ scrolls: pre.scrollWidth > pre.clientWidth, tabIndex: pre.tabIndex }));
  assert.deepEqual(code, { scrolls: true, tabIndex: 0 });
  // Forward and back, the focus never leaves the dialog, and wraps around its ends.
  const seen = new Set();
  for (let i = 0; i < 45; i++) {
    await page.keyboard.press('Tab');
    const f = await focusedIn(page);
    assert.ok(f.inPanel, `Tab ${i + 1} left the dialog: ${f.label}`);
    seen.add(f.label);
  }
  assert.ok(seen.has('New chat') && seen.has('Your question'), [...seen].join(', '));
  await page.locator('docs-assistant button[aria-label="New chat"]').focus();
  await page.keyboard.press('Shift+Tab');
  assert.equal((await focusedIn(page)).inPanel, true, 'Shift+Tab from the first control wraps to the last');
  assert.deepEqual(await axeViolations(page, 'docs-assistant'), []);
  await page.screenshot({ path: join(ARTIFACTS, 'widget-modal-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(ARTIFACTS, 'widget-modal-dark.png') });
  assert.deepEqual(await axeViolations(page, 'docs-assistant'), []);
  await page.emulateMedia({ colorScheme: 'light' });
  // A click on the backdrop (beside the dialog) closes it; the focus goes back to the launcher.
  await page.mouse.click(10, view.height / 2);
  await panel(page).waitFor({ state: 'hidden' });
  assert.equal(await page.locator('docs-assistant .backdrop').isVisible(), false);
  assert.equal((await focusedIn(page)).label, 'BUTTON');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the push surface narrows the page instead of covering it, and gives <html> its own style back; full screen when narrow', async () => {
  const { page, errors } = await openPage('/push');
  await page.evaluate(() => window.DocsAssistant.reset());
  const mainWidth = () => page.locator('main').evaluate((m) => m.getBoundingClientRect().width);
  const before = await mainWidth();
  const htmlStyle = () => page.evaluate(() => document.documentElement.style.cssText);
  const style = await htmlStyle();
  assert.match(style, /scroll-padding-top/);
  await page.evaluate(() => window.DocsAssistant.open());
  await panel(page).waitFor();
  const box = await panel(page).boundingBox();
  const main = await page.locator('main').boundingBox();
  assert.ok(main.x + main.width <= box.x + 0.5, `the page's content ends where the panel starts (${main.x + main.width} ≤ ${box.x})`);
  assert.ok(Math.abs(before - (await mainWidth()) - box.width) <= 1, 'narrowed by the panel’s width');
  assert.equal(await panel(page).getAttribute('aria-modal'), 'false', 'beside the page, not modal: Tab may leave it');
  assert.equal(await page.locator('docs-assistant .backdrop').isVisible(), false);
  await ask(page, 'How do I start a static export job?');
  assert.deepEqual(await axeViolations(page, 'docs-assistant'), []);
  await page.screenshot({ path: join(ARTIFACTS, 'widget-push-wide.png') });

  // Narrow: full screen, so modal, and the page is not pushed.
  await page.setViewportSize({ width: 390, height: 780 });
  await page.waitForFunction(() => document.querySelector('docs-assistant').shadowRoot.querySelector('.panel').getAttribute('aria-modal') === 'true');
  assert.equal(await htmlStyle(), style);
  await page.locator('docs-assistant textarea').focus();
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    assert.ok((await focusedIn(page)).inPanel, `Tab ${i + 1} left the full-screen panel`);
  }
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.waitForFunction(() => document.documentElement.style.marginInlineEnd !== '');
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'hidden' });
  assert.equal(await htmlStyle(), style);
  assert.equal(await mainWidth(), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('UI text in the page’s language (lang, or the widget’s data-lang), attribute overrides first; every set complete', async () => {
  const { LABELS } = await import('../sdk-wasm/js/widget/labels.js');
  const { LAUNCHER } = await import('../sdk-wasm/js/widget/config.js');
  for (const lang of ['en', 'es', 'fr', 'de', 'zh', 'ja', 'ko', 'pt']) {
    assert.deepEqual(Object.keys(LABELS[lang]), Object.keys(LABELS.en), lang);
    assert.ok(LAUNCHER[lang], lang);
  }
  const { page, errors } = await openPage('/de');
  await page.evaluate(() => window.DocsAssistant.reset());
  await page.locator('docs-assistant .launcher', { hasText: 'KI fragen' }).click();
  await panel(page).waitFor();
  assert.equal(await page.locator('docs-assistant h2').textContent(), 'Fragen Sie die Doku', 'the attribute wins');
  assert.equal(await page.locator('docs-assistant textarea').getAttribute('placeholder'), LABELS.de.placeholder);
  assert.equal(await page.locator('docs-assistant button[aria-label="Neuer Chat"]').count(), 1);
  assert.equal(await panel(page).getAttribute('lang'), 'de-DE');
  assert.deepEqual(errors, []);
  await page.close();
  const other = await openPage('/ja-on-fr');
  await other.page.locator('docs-assistant .launcher', { hasText: LAUNCHER.ja }).waitFor();
  await other.page.close();
});

test('a missing widget part is a 404 nobody caches; the parts that exist are cached a year', async () => {
  const missing = await fetch(`${worker.baseUrl}/widget/panel.0000000000.js`);
  await missing.arrayBuffer();
  assert.equal(missing.status, 404);
  assert.doesNotMatch(missing.headers.get('cache-control') ?? '', /immutable|max-age=[1-9]/);
  const launcher = await (await fetch(`${worker.baseUrl}/widget.js`)).text();
  const name = launcher.match(/panel\.[0-9a-f]{10}\.js/)[0];
  const part = await fetch(`${worker.baseUrl}/widget/${name}`);
  await part.arrayBuffer();
  assert.equal(part.status, 200);
  assert.equal(part.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(part.headers.get('access-control-allow-origin'), '*');
});

test('under a strict Content-Security-Policy (the service origin and wasm only) the widget answers with no violation', async () => {
  const { page, errors } = await openPage('/csp');
  await page.evaluate(() => window.DocsAssistant.reset());
  await page.evaluate(() => window.DocsAssistant.open());
  await panel(page).waitFor();
  const answer = await ask(page, 'How do I start a static export job?');
  assert.ok((await answer.locator('.md').textContent()).length > 20);
  // The stylesheet applied: the panel is a fixed side panel, not unstyled flow content.
  assert.equal(await panel(page).evaluate((p) => getComputedStyle(p).position), 'fixed');
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a key locked to other sites: the widget on this page says so; locked to this page, it answers', async () => {
  const { page, errors } = await openPage('/locked');
  await page.evaluate(() => window.DocsAssistant.reset());
  await page.evaluate(() => window.DocsAssistant.open());
  await panel(page).waitFor();
  const refused = await ask(page, 'How do I start a static export job?');
  const message = await refused.locator('.status.error').textContent();
  assert.ok(message.startsWith('The assistant is not enabled on this site.') && message.includes(site.url), message);
  const failed = await page.evaluate(() => window.widgetEvents.filter((e) => e.type === 'error').map((e) => e.detail.code));
  assert.deepEqual(failed, ['origin_not_allowed']);
  await page.screenshot({ path: join(ARTIFACTS, 'widget-origin-not-allowed.png') });
  assert.deepEqual(errors, []);
  await page.close();

  const allowed = await openPage('/allowed');
  await allowed.page.evaluate(() => window.DocsAssistant.reset());
  await allowed.page.evaluate(() => window.DocsAssistant.open());
  await panel(allowed.page).waitFor();
  const answer = await ask(allowed.page, 'How do I start a static export job?');
  assert.ok((await answer.locator('.md').textContent()).length > 20);
  assert.equal(await answer.locator('.status.error').count(), 0);
  await allowed.page.close();
});

test('the npm package’s ES module mounts the same widget; a right-to-left page gets it on its left, labels overridden', async () => {
  const { page, loaded, errors } = await openPage('/module');
  await page.evaluate(() => window.DocsAssistant.reset());
  await page.locator('docs-assistant .launcher', { hasText: 'اسأل' }).click();
  await panel(page).waitFor();
  assert.equal(await page.locator('docs-assistant h2').textContent(), 'اسأل الوثائق');
  const box = await panel(page).boundingBox();
  assert.equal(box.x, 0, 'the panel sits at the inline end, the left of a right-to-left page');
  const answer = await ask(page, 'How do I start a static export job?');
  assert.ok((await answer.locator('.md').textContent()).length > 20);
  assert.deepEqual(loaded, [], 'nothing loaded from the service but the API calls: the package carries the widget');
  await page.screenshot({ path: join(ARTIFACTS, 'widget-rtl.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
