// The same package in headless Chromium: loaded as a page loads it (ESM from a local static server, wasm
// fetched and compiled by the browser), the parser tests run in the page, and the assistant client talks
// to the running worker cross-origin (CORS).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { parseDataStreamPart } from '@ai-sdk/ui-utils';
import { startStaticServer } from '../scripts/lib/static-server.mjs';
import { BASE_URL, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { launchBrowser } from './support/browser.mjs';
import { v4Expected } from './support/streams.mjs';

const PAGE = `<!doctype html><meta charset="utf-8"><title>sdk test</title>
<script type="module">
  import * as sdk from '/sdk/index.js';
  import * as streams from '/support/streams.mjs';
  Object.assign(window, { sdk, streams, sdkReady: true });
</script>`;

let t;
let server;
let browser;
let page;
const pageErrors = [];

before(async () => {
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS)).status, 200);
  server = await startStaticServer({
    mounts: {
      '/sdk/': fileURLToPath(new URL('../sdk-wasm/pkg/', import.meta.url)),
      '/support/': fileURLToPath(new URL('./support/', import.meta.url)),
    },
    handle(req, res, url) {
      if (url.pathname !== '/') return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
      return true;
    },
  });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${server.url}/`);
  await page.waitForFunction(() => window.sdkReady === true, null, { timeout: 20_000 });
});

after(async () => {
  await browser?.close();
  await server?.close();
  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
});

test('in Chromium: every v4 part type, split at every byte, gives the events ai@4 gives', async () => {
  const expected = v4Expected(parseDataStreamPart);
  const result = await page.evaluate((want) => {
    const { sdk, streams } = window;
    const bytes = new TextEncoder().encode(streams.V4_STREAM);
    return streams.splitEverywhere(sdk.DataStreamParser, bytes, want);
  }, expected);
  assert.equal(result, null);
});

test('in Chromium: a v5 UI message stream split at every byte gives the same events; bad lines are numbered', async () => {
  const result = await page.evaluate(() => {
    const { sdk, streams } = window;
    const split = streams.splitEverywhere(sdk.UiStreamParser, new TextEncoder().encode(streams.V5_STREAM), streams.V5_EVENTS);
    const parser = new sdk.DataStreamParser();
    const events = [...parser.push(streams.V4_BROKEN[0]), ...parser.finish()];
    return { split, errorLines: events.filter((e) => e.type === 'parse-error').map((e) => e.line) };
  });
  assert.equal(result.split, null);
  assert.deepEqual(result.errorLines, [2, 4, 5, 6]);
});

test('in Chromium: AssistantClient streams an answer with sources and keeps the thread', async () => {
  const result = await page.evaluate(async ({ baseUrl, domain, apiKey }) => {
    const client = new window.sdk.AssistantClient({ baseUrl, domain, apiKey });
    const deltas = [];
    const turn = client.sendMessage('How do I start a static export job?');
    for await (const event of turn) if (event.type === 'text') deltas.push(event.delta);
    const first = await turn.result;
    const second = await client.sendMessage('and how long is the bundle link valid?').result;
    return { deltas: deltas.length, first, second, roles: client.messages.map((m) => m.role) };
  }, { baseUrl: BASE_URL, domain: t.domain, apiKey: t.assistantKey });
  assert.ok(result.deltas >= 2, 'the answer arrived in several parts');
  assert.ok(result.first.text.length > 40);
  assert.ok(result.first.sources.length >= 1);
  assert.match(result.first.threadId, /^thr_[0-9a-f]{16}$/);
  assert.equal(result.second.threadId, result.first.threadId);
  assert.deepEqual(result.roles, ['user', 'assistant', 'user', 'assistant']);
});

test('in Chromium: typed errors, an admin key refused, StaticExportClient refused in a page', async () => {
  const result = await page.evaluate(async ({ baseUrl, domain, adminKey }) => {
    const { AssistantClient, StaticExportClient, DocsEdgeError } = window.sdk;
    const outcome = (fn) => {
      try {
        fn();
        return 'ok';
      } catch (err) {
        return err instanceof DocsEdgeError ? err.code : `untyped: ${err}`;
      }
    };
    let unauthorized;
    try {
      await new AssistantClient({ baseUrl, domain, apiKey: 'svc_dsc_0000000000000000' }).search('x');
    } catch (err) {
      unauthorized = { status: err.status, code: err.code };
    }
    return {
      adminKey: outcome(() => new AssistantClient({ baseUrl, domain, apiKey: adminKey })),
      exportInPage: outcome(() => new StaticExportClient({ baseUrl, adminKey })),
      exportAllowed: outcome(() => new StaticExportClient({ baseUrl, adminKey, allowBrowser: true })),
      unauthorized,
    };
  }, { baseUrl: BASE_URL, domain: t.domain, adminKey: t.adminKey });
  assert.deepEqual(result, {
    adminKey: 'wrong_key_kind',
    exportInPage: 'browser_not_allowed',
    exportAllowed: 'ok',
    unauthorized: { status: 401, code: 'unauthorized' },
  });
});
