// Cloudflare Turnstile before the assistant, on a worker of its own started with TURNSTILE_SECRET_KEY
// and TURNSTILE_SITEVERIFY_URL pointing at a local stand-in that speaks siteverify's wire format
// (JSON in: secret, response, remoteip; JSON out: success, error-codes, hostname; a token passes once):
// a conversation's first question needs a token the stand-in accepts (403 turnstile_failed without
// one or with a bad one), its later questions none; both stream versions; the widget with
// `data-turnstile` loads Turnstile's script only with the first question (a fake script served
// here, named by the test-only `data-turnstile-script`) and sends its token. An air-gapped worker
// with the secret set refuses (500, the reason in the log). The shared worker runs without
// Turnstile, so every other test's assistant requests are unchanged.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startStaticServer } from '../scripts/lib/static-server.mjs';
import { assertError, call } from './support/api.mjs';
import { startPublishedWorker } from './support/own-worker.mjs';
import { launchBrowser } from './support/browser.mjs';
import { answers, ask, recordViolations } from './support/widget.mjs';

const SECRET = 'turnstile-test-secret-0123456789';
const SITE_KEY = '1x00000000000000000000AA';
const cleanup = [];
let siteverify;
let w;
let gapped;

/** siteverify's stand-in: tokens starting `pass-` pass, once each; everything it received is kept. */
async function startSiteverify() {
  const requests = [];
  const used = new Set();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        body = Object.fromEntries(new URLSearchParams(raw));
      }
      requests.push({ path: req.url, contentType: req.headers['content-type'], body });
      const token = String(body.response ?? '');
      let answer;
      if (body.secret !== SECRET) answer = { success: false, 'error-codes': ['invalid-input-secret'] };
      else if (!token.startsWith('pass-')) answer = { success: false, 'error-codes': ['invalid-input-response'] };
      else if (used.has(token)) answer = { success: false, 'error-codes': ['timeout-or-duplicate'] };
      else answer = { success: true, 'error-codes': [], challenge_ts: new Date().toISOString(), hostname: 'localhost', action: 'assistant' };
      used.add(token);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/turnstile/v0/siteverify`, requests, close: () => new Promise((r) => server.close(r)) };
}

const worker = (name, vars) => startPublishedWorker(name, vars, cleanup);

const v1Body = (text, threadId) => ({
  fp: 'anonymous',
  ...(threadId ? { threadId } : {}),
  messages: [{ id: `m${Math.random().toString(36).slice(2)}`, role: 'user', content: text, parts: [{ type: 'text', text }] }],
});

const v2Body = (text, id, extra = {}) => ({ fp: 'anonymous', id, ...extra, messages: [{ id: `u-${id}`, role: 'user', parts: [{ type: 'text', text }] }] });

function askV1(text, { token, threadId, target = w } = {}) {
  const headers = token ? { 'x-turnstile-token': token } : {};
  return call('POST', `/discovery/v1/assistant/${target.t.domain}/message`, { base: target.baseUrl, token: target.t.assistantKey, json: v1Body(text, threadId), headers });
}

before(async () => {
  siteverify = await startSiteverify();
  cleanup.push(() => siteverify.close());
  w = await worker('turnstile', { TURNSTILE_SECRET_KEY: SECRET, TURNSTILE_SITEVERIFY_URL: siteverify.url });
  gapped = await worker('turnstile-airgap', { DEPLOYMENT_KIND: 'air-gapped', FEATURE_ASSISTANT: 'true', TURNSTILE_SECRET_KEY: SECRET });
}, { timeout: 400_000 });

after(async () => {
  for (const step of cleanup.reverse()) await step();
});

test('without a token, or with one siteverify refuses, the first question is 403 turnstile_failed', async () => {
  const before = siteverify.requests.length;
  const missing = await askV1('What is a static export?');
  assertError(missing, 403, 'turnstile_failed');
  assert.match(missing.body.error, /x-turnstile-token/);
  assert.equal(siteverify.requests.length, before, 'nothing to verify: siteverify not asked');

  const bad = await askV1('What is a static export?', { token: 'fail-0123' });
  assertError(bad, 403, 'turnstile_failed');
  assert.equal(siteverify.requests.length, before + 1);
  const sent = siteverify.requests.at(-1);
  assert.equal(sent.path, '/turnstile/v0/siteverify');
  assert.match(sent.contentType, /^application\/json/);
  assert.equal(sent.body.secret, SECRET, 'the secret goes to siteverify');
  assert.equal(sent.body.response, 'fail-0123', 'the token goes to siteverify');
  // wrangler prints its --var values at start-up; the worker's own log lines are JSON with an event.
  const logLines = w.output().split('\n').filter((line) => line.includes('"event"')).join('\n');
  assert.match(logLines, /"turnstile_failed"/);
  assert.ok(!(bad.text + logLines).includes(SECRET), 'the secret is never answered or logged');

  // The v2 endpoint is gated the same way.
  const v2 = await call('POST', `/discovery/v2/assistant/${w.t.domain}/message`, { base: w.baseUrl, token: w.t.assistantKey, json: v2Body('What is a static export?', 'chat-1') });
  assertError(v2, 403, 'turnstile_failed');
});

test('a token siteverify accepts gets the answer; the thread remembers it and later turns need none', async () => {
  const first = await askV1('What is a static export?', { token: 'pass-first-turn' });
  assert.equal(first.status, 200, first.text);
  assert.match(first.text, /^0:/m, 'an answer streamed');
  const threadId = first.headers.get('x-thread-id');
  assert.ok(threadId);
  assert.equal(siteverify.requests.at(-1).body.response, 'pass-first-turn');

  const before = siteverify.requests.length;
  const second = await askV1('How long is the bundle link valid?', { threadId });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.headers.get('x-thread-id'), threadId);
  assert.equal(siteverify.requests.length, before, 'a verified thread is not verified again');

  const record = await call('GET', `/v1/threads/${threadId}`, { base: w.baseUrl, token: w.t.adminKey });
  assert.equal(record.status, 200, record.text);
  assert.equal(record.body.humanVerified, true);
  assert.equal(record.body.messages.length, 4);

  // A token is single-use: the same one again is refused by siteverify.
  assertError(await askV1('What is a static export?', { token: 'pass-first-turn' }), 403, 'turnstile_failed');

  // v2 (AI SDK v5+), plain and resumable, with a token of its own.
  const v2 = await call('POST', `/discovery/v2/assistant/${w.t.domain}/message`, {
    base: w.baseUrl, token: w.t.assistantKey, headers: { 'x-turnstile-token': 'pass-v2' }, json: v2Body('What is a static export?', 'chat-2'),
  });
  assert.equal(v2.status, 200, v2.text);
  assert.match(v2.text, /"type":"text-delta"/);
  const resumable = await call('POST', `/discovery/v2/assistant/${w.t.domain}/message`, {
    base: w.baseUrl, token: w.t.assistantKey, headers: { 'x-turnstile-token': 'pass-resumable' }, json: v2Body('What is a static export?', 'chat-3', { resumable: true }),
  });
  assert.equal(resumable.status, 200, resumable.text);
  assert.equal(siteverify.requests.at(-1).body.response, 'pass-resumable', 'the chat object verified the token it was handed');
  const unverified = await call('POST', `/discovery/v2/assistant/${w.t.domain}/message`, {
    base: w.baseUrl, token: w.t.assistantKey, json: v2Body('What is a static export?', 'chat-4', { resumable: true }),
  });
  assertError(unverified, 403, 'turnstile_failed');
});

test('the preflight lets the widget send its token from another origin', async () => {
  const res = await fetch(`${w.baseUrl}/discovery/v1/assistant/${w.t.domain}/message`, {
    method: 'OPTIONS',
    headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-turnstile-token' },
  });
  assert.equal(res.status, 204);
  assert.match(res.headers.get('access-control-allow-headers'), /X-Turnstile-Token/i);
});

test('an air-gapped deployment refuses Turnstile: 500, the reason in the log, nothing sent', async () => {
  const before = siteverify.requests.length;
  const res = await askV1('What is a static export?', { token: 'pass-airgap', target: gapped });
  assertError(res, 500, 'internal_error');
  assert.doesNotMatch(res.text, /TURNSTILE|air-gapped/, 'the reason goes to the log, not the caller');
  assert.match(gapped.output(), /TURNSTILE_SECRET_KEY is set, but an air-gapped deployment cannot use Turnstile/);
  assert.equal(siteverify.requests.length, before);
});

test('the widget with data-turnstile loads Turnstile only with the first question and sends its token', async () => {
  // Turnstile's script as the widget uses it: `turnstile.render(el, {sitekey, callback})`, `remove(id)`.
  const renders = [];
  const fakeApi = `window.turnstile = {
    render(el, options) {
      window.turnstileRenders = (window.turnstileRenders || 0) + 1;
      window.turnstileOptions = { sitekey: options.sitekey, appearance: options.appearance, action: options.action, inDocument: document.body.contains(el) };
      setTimeout(() => options.callback('pass-browser-' + window.turnstileRenders), 10);
      return 'w' + window.turnstileRenders;
    },
    remove() {},
  };`;
  const site = await startStaticServer({
    mounts: {},
    handle(req, res, url) {
      if (url.pathname === '/fake-turnstile.js') {
        renders.push(url.search);
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(fakeApi);
        return true;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Turnstile page</title></head><body><main><h1>Docs</h1></main>
<script src="${w.baseUrl}/widget.js" data-domain="${w.t.domain}" data-key="${w.t.assistantKey}" data-turnstile="${SITE_KEY}"
  data-turnstile-script="${siteUrl}/fake-turnstile.js?render=explicit" defer></script></body></html>`);
      return true;
    },
  });
  const siteUrl = site.url;
  const browser = await launchBrowser();
  cleanup.push(() => site.close(), () => browser.close());
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await recordViolations(page);
  await page.goto(`${site.url}/`);
  await page.waitForFunction(() => window.DocsAssistant);
  await page.evaluate(() => window.DocsAssistant.open());
  await page.locator('docs-assistant textarea').waitFor();
  assert.deepEqual(renders, [], 'Turnstile is not loaded before a question');

  const before = siteverify.requests.length;
  const answer = await ask(page, 'What is a static export?');
  assert.match(await answer.innerText(), /\S/);
  assert.deepEqual(renders, ['?render=explicit'], 'loaded once, with the first question');
  const options = await page.evaluate(() => window.turnstileOptions);
  assert.deepEqual(options, { sitekey: SITE_KEY, appearance: 'interaction-only', action: 'assistant', inDocument: true });
  assert.equal(siteverify.requests.length, before + 1);
  assert.equal(siteverify.requests.at(-1).body.response, 'pass-browser-1', 'the widget sent the token it got');

  await ask(page, 'How long is the bundle link valid?');
  assert.equal(await answers(page).count(), 2);
  assert.equal(await page.evaluate(() => window.turnstileRenders), 1, 'the conversation\'s later questions get no token');
  assert.equal(siteverify.requests.length, before + 1);
  assert.deepEqual(errors, []);
});
