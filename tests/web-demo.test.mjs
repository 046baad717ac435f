// The web demo in headless Chromium, served by its dev server against the running worker: its front
// page is the demo docs site, exported with the assistant widget, which opens and answers there; on
// the tools page a question streams an answer with source links, a follow-up stays on the thread,
// errors are shown plainly, and an export runs to a downloadable bundle. Screenshots go to
// test-artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer } from '../scripts/lib/demo-server.mjs';
import { BASE_URL, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { launchBrowser } from './support/browser.mjs';
import { ask as askWidget, panel, recordViolations } from './support/widget.mjs';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
let t;
let demo;
let browser;
let page;
const pageErrors = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS)).status, 200);
  demo = await startDemoServer({
    workerUrl: BASE_URL,
    demo: { domain: t.domain, assistantKey: t.assistantKey, adminKey: t.adminKey },
  });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${demo.url}/tools/`);
  await page.waitForSelector('#send:not([disabled])', { timeout: 20_000 });
});


after(async () => {
  await browser?.close();
  await demo?.close();
  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
});

/** Asks a question and waits for its answer to finish; returns how many times the answer grew while streaming. */
async function ask(question) {
  const answers = await page.locator('#messages li.assistant').count();
  await page.evaluate(() => {
    window.answerUpdates = 0;
    window.answerObserver?.disconnect();
    window.answerObserver = new MutationObserver((records) => {
      window.answerUpdates += records.filter((r) => r.target.closest?.('.answer') || r.target.parentElement?.closest('.answer')).length;
    });
    window.answerObserver.observe(document.querySelector('#messages'), { subtree: true, childList: true, characterData: true });
  });
  await page.fill('#question', question);
  await page.click('#send');
  const item = page.locator('#messages li.assistant').nth(answers);
  await item.waitFor();
  await page.waitForFunction((n) => {
    const items = document.querySelectorAll('#messages li.assistant');
    return items.length > n && !items[n].classList.contains('streaming');
  }, answers, { timeout: 30_000 });
  return { item, updates: await page.evaluate(() => window.answerUpdates) };
}

test('a question streams an answer with source links; a follow-up stays on the same thread', async () => {
  const first = await ask('How do I start a static export job?');
  const text = await first.item.locator('.answer').textContent();
  assert.ok(text.length > 40, text);
  assert.ok(first.updates >= 2, `the answer grew in parts while streaming (${first.updates} updates)`);
  const links = await first.item.locator('.sources a').evaluateAll((as) => as.map((a) => a.href));
  assert.ok(links.length >= 1, 'at least one source link');
  assert.ok(links.every((href) => href.startsWith(`https://${t.domain}/`)), links.join(' '));
  // Rendered as the widget renders it: code spans as code, the "Sources:" list only as the links.
  assert.ok(await first.item.locator('.answer code').count() >= 1, `no code element in: ${text}`);
  assert.doesNotMatch(text, /`|Sources:|\]\(https?:/, 'Markdown shown as text');
  const threadId = await page.textContent('#thread-id');
  assert.match(threadId, /^thr_[0-9a-f]{16}$/);
  await page.screenshot({ path: join(ARTIFACTS, 'web-demo-chat.png'), fullPage: true });

  const second = await ask('and how long is the bundle link valid?');
  assert.ok((await second.item.locator('.answer').textContent()).length > 20);
  assert.equal(await page.textContent('#thread-id'), threadId);
  assert.equal(await page.locator('#messages li.user').count(), 2);
  await page.screenshot({ path: join(ARTIFACTS, 'web-demo-follow-up.png'), fullPage: true });
});

test('thumbs rate an answer (a later click replaces it); the analytics view charts the report', async () => {
  const answer = page.locator('#messages li.assistant').first();
  await answer.locator('.thumb-down').click();
  await answer.locator('.thumb-down[aria-pressed="true"]').waitFor();
  await answer.locator('.thumb-up').click();
  await answer.locator('.thumb-up[aria-pressed="true"]').waitFor();
  assert.equal(await answer.locator('.thumb-down').getAttribute('aria-pressed'), 'false');
  let totals = '';
  for (let i = 0; i < 100 && !/ 2 questions/.test(totals); i++) {
    await page.click('#analytics-refresh');
    await page.waitForTimeout(100);
    totals = await page.textContent('#analytics-totals');
  }
  assert.match(totals, /: 1 conversations, 2 questions \(0 without a source, \d+ with only the closest passage\)/);
  assert.equal(await page.locator('#chart-questions svg rect.bar').count(), 30, 'one bar per day');
  assert.match(await page.textContent('#chart-feedback'), /^1 up \(100%\) · 0 down$/);
  assert.ok((await page.locator('#chart-pages svg rect').count()) >= 1);
  await page.locator('#analytics').screenshot({ path: join(ARTIFACTS, 'web-demo-analytics.png') });
});

test('the admin key never reaches the browser', async () => {
  const config = await page.evaluate(() => fetch('/demo-api/config').then((r) => r.text()));
  assert.ok(config.includes(t.assistantKey));
  assert.ok(!config.includes(t.adminKey));
  assert.ok(!(await page.content()).includes(t.adminKey));
});

test('a bad key and an admin key are explained plainly', async () => {
  await page.click('summary');
  await page.fill('#api-key', 'svc_dsc_0000000000000000');
  await page.dispatchEvent('#api-key', 'change');
  await page.fill('#question', 'What is the assistant?');
  await page.click('#send');
  await page.waitForSelector('#chat-error:not([hidden])');
  assert.match(await page.textContent('#chat-error'), /refused \(401 unauthorized\)/);
  await page.screenshot({ path: join(ARTIFACTS, 'web-demo-bad-key.png'), fullPage: true });
  await page.fill('#api-key', 'svc_secretadminkey');
  await page.dispatchEvent('#api-key', 'change');
  assert.match(await page.textContent('#chat-error'), /not an admin key/);
  await page.fill('#api-key', t.assistantKey);
  await page.dispatchEvent('#api-key', 'change');
  assert.equal(await page.isHidden('#chat-error'), true);
});

test('an export runs to completion with a live progress bar, and its bundle downloads', async () => {
  await page.click('#export-start');
  await page.waitForSelector('#export-progress:not([hidden])');
  await page.waitForSelector('#export-result:not([hidden])', { timeout: 120_000 });
  assert.equal(await page.getAttribute('#export-progress', 'value'), '100');
  assert.match(await page.textContent('#export-status'), /^completed · 100% · [1-9]\d* pages$/);
  const expiresAt = await page.getAttribute('#export-expiry', 'data-expires-at');
  assert.ok(Date.parse(expiresAt) > Date.now(), expiresAt);
  await page.screenshot({ path: join(ARTIFACTS, 'web-demo-export.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-link')]);
  const saved = join(ARTIFACTS, 'web-demo-bundle.tar.gz');
  await download.saveAs(saved);
  const bytes = readFileSync(saved);
  assert.ok(bytes.length > 1000);
  assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'a gzip file');
});

// Last: its question adds a conversation to what the analytics test counts.
test('the demo’s front page is the docs site, with the assistant widget answering on it', async () => {
  const docs = await browser.context.newPage();
  const errors = [];
  docs.on('pageerror', (err) => errors.push(err.message));
  await recordViolations(docs);
  const response = await docs.goto(`${demo.url}/`);
  assert.match(response.headers()['content-security-policy'], /'wasm-unsafe-eval'/);
  // The exported site itself: its navigation and a page of the demo docs, not a form.
  await docs.locator('aside.sidebar a').first().waitFor();
  assert.equal(await docs.locator('#question').count(), 0);
  await docs.locator('aside.sidebar a', { hasText: /quickstart/i }).first().click();
  await docs.waitForURL(/quickstart/);
  await docs.locator('docs-assistant .launcher').click();
  await panel(docs).waitFor();
  const answer = await askWidget(docs, 'How do I start a static export job?');
  assert.ok((await answer.locator('.md').textContent()).length > 40, await answer.textContent());
  const sources = await answer.locator('.sources a').evaluateAll((as) => as.map((a) => a.href));
  // The export's widget links its citations to the bundle's own pages, as the pages link each other.
  assert.ok(sources.length >= 1 && sources.every((href) => href.startsWith(`${demo.url}/`) && /\.html(#|$)/.test(href)), sources.join(' '));
  await docs.screenshot({ path: join(ARTIFACTS, 'web-demo-docs-widget.png') });
  assert.deepEqual(await docs.evaluate(() => window.violations), []);
  assert.deepEqual(errors, []);
  await docs.close();
});
