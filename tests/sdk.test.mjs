// The SDK package in Node: the parser against ai@4's own part parser, the package as npm packs it, and
// both clients against the running worker (the static export API also against its contract).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDataStreamPart, processDataStream } from '@ai-sdk/ui-utils';
import { BASE_URL, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS } from './support/docs.mjs';
import { startContractServer } from './support/contract-server.mjs';
import { V4_LINES, V4_STREAM, V4_BROKEN, V5_STREAM, V5_EVENTS, splitEverywhere, v4Expected } from './support/streams.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const PKG = fileURLToPath(new URL('../sdk-wasm/pkg/', import.meta.url));
const sdk = await import(join(PKG, 'node.js'));
const { DataStreamParser, UiStreamParser, readEvents, readEventBatches, AssistantClient, StaticExportClient, AnalyticsClient, DocsEdgeError } = sdk;
const utf8 = (s) => new TextEncoder().encode(s);

let t; // tenant with the demo docs published
let contract; // stand-in for the export contract and 429s

before(async () => {
  t = await tenant();
  const res = await publishFolder(t.domain, t.adminKey, DEMO_DOCS);
  assert.equal(res.status, 200, res.text);
  contract = await startContractServer();
});

after(() => contract?.close());

// --- parser

test('every v4 part type parses as ai@4 parses it, and the stream split at every byte gives the same events', () => {
  const expected = v4Expected(parseDataStreamPart);
  assert.equal(new Set(V4_LINES.map((l) => l[0])).size, 16, 'one line of each of the 16 part codes');
  const parser = new DataStreamParser();
  assert.deepEqual([...parser.push(V4_STREAM), ...parser.finish()], expected);
  assert.equal(splitEverywhere(DataStreamParser, utf8(V4_STREAM), expected), null);
});

test('a malformed line is an error event with its line number; ai@4 rejects the whole stream', async () => {
  const [text, lines] = V4_BROKEN;
  const parser = new DataStreamParser();
  const events = [...parser.push(text), ...parser.finish()];
  assert.deepEqual(events.filter((e) => e.type === 'parse-error').map((e) => e.line), lines);
  assert.deepEqual(events.filter((e) => e.type === 'text').map((e) => e.value), ['one', 'two']);
  for (const e of events.filter((e) => e.type === 'parse-error')) assert.ok(e.message.length > 5, e.message);
  await assert.rejects(processDataStream({ stream: new Response(text).body, onTextPart() {} }));
});

test('a v5 UI message stream split at every byte gives the same events', () => {
  assert.equal(splitEverywhere(UiStreamParser, utf8(V5_STREAM), V5_EVENTS), null);
  const parser = new UiStreamParser();
  const events = [...parser.push('data: {"type":"text-delta"\n\ndata: {"type":"start-step"}\n\n'), ...parser.finish()];
  assert.equal(events[0].type, 'parse-error');
  assert.equal(events[0].line, 1);
  assert.deepEqual(events[1], { type: 'start-step' });
});

test('readEvents takes a Response (protocol from its headers), a ReadableStream or an async iterable', async () => {
  const collect = async (iterable) => {
    const out = [];
    for await (const e of iterable) out.push(e);
    return out;
  };
  const v4 = v4Expected(parseDataStreamPart);
  assert.deepEqual(await collect(readEvents(new Response(V4_STREAM))), v4);
  const sse = new Response(V5_STREAM, { headers: { 'content-type': 'text/event-stream' } });
  assert.deepEqual(await collect(readEvents(sse)), V5_EVENTS);
  const bytes = utf8(V4_STREAM);
  const stream = new ReadableStream({
    start(c) {
      for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.subarray(i, i + 7));
      c.close();
    },
  });
  assert.deepEqual((await collect(readEventBatches(stream))).flat(), v4);
  async function* pieces() {
    yield V5_STREAM.slice(0, 40);
    yield utf8(V5_STREAM.slice(40));
  }
  assert.deepEqual(await collect(readEvents(pieces(), { protocol: 'v5' })), V5_EVENTS);
  assert.throws(() => new DataStreamParser().push(42), TypeError);
});

// --- the package

test('npm pack ships the wasm, the JS, the types and the publish command; the exports map resolves in Node and in tsc --strict', () => {
  const dir = scratchDir('docs-edge-pack-');
  try {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: PKG, encoding: 'utf8' }));
    const files = packed.files.map((f) => f.path).sort();
    for (const f of ['docs_edge_sdk_bg.wasm', 'index.js', 'node.js', 'index.d.ts', 'package.json']) assert.ok(files.includes(f), `${f} in ${files}`);
    const manifest = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.exports['.'], { types: './index.d.ts', node: './node.js', default: './index.js' });
    // Installed from the tarball into an empty project and imported by name.
    writeFileSync(join(dir, 'package.json'), '{"name":"consumer","private":true,"type":"module"}');
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], { cwd: dir, stdio: 'pipe' });
    const out = execFileSync(process.execPath, ['--input-type=module', '-e',
      "import { DataStreamParser } from 'docs-edge-sdk'; console.log(JSON.stringify(new DataStreamParser().push('0:\"ok\"\\n')))"],
    { cwd: dir, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), [{ type: 'text', value: 'ok' }]);
    // The publish command ships as the package's bin, as an owner's repository runs it (`npx docs-edge-sdk publish …`):
    // installed from the tarball, it starts and refuses a call without a folder (2, with its usage).
    assert.ok(files.includes('cli.js'), `cli.js in ${files}`);
    assert.deepEqual(manifest.bin, { 'docs-edge': './cli.js' });
    const bin = spawnSync(join(dir, 'node_modules', '.bin', 'docs-edge'), ['publish', '--domain', 'docs.example.com'], { cwd: dir, encoding: 'utf8' });
    assert.equal(bin.status, 2, `${bin.stdout}${bin.stderr}`);
    assert.match(bin.stderr, /name one docs folder/);
    // The types, through the same exports map, used as callers use them.
    copyFileSync(fileURLToPath(new URL('./support/sdk-usage.ts', import.meta.url)), join(dir, 'usage.ts'));
    const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
    try {
      execFileSync(tsc, ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
        '--lib', 'es2022,dom,dom.iterable,esnext.disposable', 'usage.ts'], { cwd: dir, stdio: 'pipe' });
    } catch (err) {
      assert.fail(`tsc: ${err.stdout}${err.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('index.d.ts declares every export', () => {
  const types = readFileSync(join(PKG, 'index.d.ts'), 'utf8');
  for (const name of Object.keys(sdk)) {
    assert.match(types, new RegExp(`export (declare )?(class|function|const) ${name}\\b`), `${name} has no declaration`);
  }
});

// --- AssistantClient

const assistant = (options = {}) => new AssistantClient({ baseUrl: BASE_URL, domain: t.domain, apiKey: t.assistantKey, ...options });

test('AssistantClient refuses an admin key before any request', () => {
  let fetched = false;
  const fetch = () => {
    fetched = true;
  };
  assert.throws(
    () => new AssistantClient({ baseUrl: BASE_URL, domain: t.domain, apiKey: t.adminKey, fetch }),
    (err) => err instanceof DocsEdgeError && err.code === 'wrong_key_kind' && err.status === 0,
  );
  assert.equal(fetched, false);
});

test('sendMessage streams text and sources, and a follow-up continues the thread (v1)', async () => {
  const client = assistant();
  const turn = client.sendMessage('How do I start a static export job?');
  const events = [];
  for await (const event of turn) events.push(event);
  const result = await turn.result;
  const text = events.filter((e) => e.type === 'text').map((e) => e.delta).join('');
  assert.ok(text.length > 40, text);
  assert.equal(result.text, text);
  assert.ok(result.sources.length >= 1);
  assert.ok(result.sources.every((s) => s.url.startsWith(`https://${t.domain}/`)), JSON.stringify(result.sources));
  assert.match(result.threadId, /^thr_[0-9a-f]{16}$/);
  assert.ok(result.usage.completionTokens > 0);
  assert.equal(events.at(-1).type, 'finish');
  assert.ok(result.suggestions.length >= 1 && result.suggestions.length <= 3, JSON.stringify(result.suggestions));
  assert.deepEqual(events.find((e) => e.type === 'suggestions')?.questions, result.suggestions);
  assert.equal(result.unanswered, false);
  assert.equal(client.threadId, result.threadId);
  assert.deepEqual(client.messages.map((m) => m.role), ['user', 'assistant']);

  const followUp = await client.sendMessage('and how long is the bundle link valid?').result;
  assert.equal(followUp.threadId, result.threadId);
  assert.deepEqual(client.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  const thread = await call('GET', `/v1/threads/${result.threadId}`, { token: t.adminKey });
  assert.equal(thread.body.messages.length, 4);
  assert.equal(thread.body.messages[3].content, followUp.text);
  assert.equal(thread.body.messages[1].id, result.messageId, 'the answer id the stream gave is the stored one');
  assert.equal(client.messages[1].id, result.messageId);
});

test('the v2 protocol (UI message stream) gives the same kind of result', async () => {
  const client = assistant({ protocol: 'v2' });
  const result = await client.sendMessage({ text: 'What are the rate limits?', retrievalPageSize: 3 }).result;
  assert.ok(result.text.length > 20, result.text);
  assert.ok(result.sources.length >= 1);
  assert.match(result.threadId, /^thr_/);
  assert.equal(result.usage, null);
  assert.match(result.messageId, /^msg_/);
  assert.ok(result.suggestions.length >= 1 && result.suggestions.length <= 3, JSON.stringify(result.suggestions));
  assert.deepEqual(client.messages[1].suggestions, result.suggestions);
  const refused = await assistant({ protocol: 'v2' }).sendMessage('Can penguins teleport quantum marmalade?').result;
  assert.equal(refused.unanswered, true, 'the finish metadata marks an answer the docs do not cover');
  const again = await client.sendMessage('and per IP?').result;
  assert.equal(again.threadId, result.threadId);
  const thread = await call('GET', `/v1/threads/${result.threadId}`, { token: t.adminKey });
  assert.equal(thread.body.messages[1].id, result.messageId, 'the thread id and answer id came from the stream');
  assert.equal(thread.body.messages[3].id, again.messageId);
});

test('search and page return the wire shapes; errors are typed', async () => {
  const client = assistant();
  const results = await client.search('rate limits', { pageSize: 3 });
  assert.ok(results.length >= 1 && results.length <= 3);
  assert.equal(typeof results[0].metadata.score, 'number');
  const page = await client.page(results[0].path);
  assert.equal(page.path, results[0].path);
  assert.ok(page.content.length > 0);
  await assert.rejects(client.page('no/such/page'), (e) => e instanceof DocsEdgeError && e.status === 404 && e.code === 'not_found');
  const wrongKey = assistant({ apiKey: 'svc_dsc_0000000000000000000000000000' });
  await assert.rejects(wrongKey.search('x'), (e) => e.status === 401 && e.code === 'unauthorized' && Boolean(e.requestId));
  await assert.rejects(wrongKey.sendMessage('hi').result, (e) => e.status === 401);
  assert.deepEqual(wrongKey.messages, [], 'a failed turn leaves the conversation as it was');
  assert.throws(() => client.sendMessage({ text: 'x', retrievalPageSize: 'five' }), (e) => e.code === 'invalid_request');
  const offline = new AssistantClient({ baseUrl: 'http://127.0.0.1:9', domain: 'd', apiKey: 'svc_dsc_x' });
  await assert.rejects(offline.search('x'), (e) => e.code === 'network_error' && e.status === 0);
});

test('a signal aborts a turn; the question and the partial answer are kept', async () => {
  const client = assistant();
  const controller = new AbortController();
  const turn = client.sendMessage('How do threads work?', { signal: controller.signal });
  const seen = [];
  await assert.rejects(
    (async () => {
      for await (const event of turn) {
        seen.push(event);
        if (event.type === 'text') controller.abort();
      }
    })(),
    (e) => e instanceof DocsEdgeError && e.code === 'aborted',
  );
  await assert.rejects(turn.result, (e) => e.code === 'aborted');
  assert.ok(seen.some((e) => e.type === 'text'));
  assert.deepEqual(client.messages.map((m) => m.role), ['user', 'assistant']);
  // The server records no thread for a stopped answer: the next question must not name one.
  assert.equal(client.threadId, undefined);
  const next = await client.sendMessage('And how are they kept?').result;
  assert.match(next.threadId, /^thr_/);
});

test('a 429 is a typed error with retryAfter, and is retried after Retry-After when asked', async () => {
  // The stand-in refuses the first search of each domain with `Retry-After: 1`.
  const options = (domain) => ({ baseUrl: contract.baseUrl, domain, apiKey: 'svc_dsc_x' });
  await assert.rejects(new AssistantClient(options('one')).search('q'), (e) => e.status === 429 && e.code === 'rate_limited' && e.retryAfter === 1);
  const started = Date.now();
  assert.deepEqual(await new AssistantClient({ ...options('two'), retry: true }).search('q'), []);
  assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
  const impatient = new AssistantClient({ ...options('three'), retry: { retries: 3, maxDelayMs: 100 } });
  await assert.rejects(impatient.search('q'), (e) => e.status === 429);
});

test('v2: the thread id is taken from message metadata when no x-thread-id header arrives', async () => {
  const client = new AssistantClient({ baseUrl: contract.baseUrl, domain: 'metadata-only.example.com', apiKey: 'svc_dsc_x', protocol: 'v2' });
  const first = await client.sendMessage('Hi?').result;
  assert.equal(first.text, 'Hello.');
  assert.equal(first.threadId, 'thr_from_metadata');
  assert.equal(client.threadId, 'thr_from_metadata');
  await client.sendMessage('And then?').result;
  assert.equal(contract.bodies.at(-1).threadId, 'thr_from_metadata', 'the follow-up continues the thread');
});

// --- StaticExportClient

test('StaticExportClient refuses to run in a browser page unless allowed', () => {
  globalThis.window = {};
  globalThis.document = {};
  try {
    assert.throws(() => new StaticExportClient({ baseUrl: BASE_URL, adminKey: t.adminKey }), (e) => e.code === 'browser_not_allowed');
    assert.ok(new StaticExportClient({ baseUrl: BASE_URL, adminKey: t.adminKey, allowBrowser: true }));
  } finally {
    delete globalThis.window;
    delete globalThis.document;
  }
});

test('StaticExportClient follows the export contract: start, progress, bundle, 409, failure', async () => {
  const client = new StaticExportClient({ baseUrl: contract.baseUrl, adminKey: 'svc_admin' });
  const job = await client.start('docs.example.com', { paths: ['/quickstart'] });
  assert.match(job.jobId, /^se_[0-9a-f]{16}$/);
  assert.equal(job.status, 'queued');
  await assert.rejects(client.bundle(job.jobId), (e) => e.status === 409 && e.code === 'job_not_completed');
  const progress = [];
  const done = await client.waitForCompletion(job.jobId, { intervalMs: 10, onProgress: (j) => progress.push([j.status, j.progress]) });
  assert.deepEqual(progress, [['running', 50], ['completed', 100]]);
  assert.equal(done.pageCount, 6);
  const link = await client.bundle(job.jobId);
  assert.deepEqual(Object.keys(link).sort(), ['bundleUrl', 'expiresAt', 'jobId', 'sha256', 'sizeBytes']);
  const failing = await client.start('fails.example.com');
  await assert.rejects(client.waitForCompletion(failing.jobId, { intervalMs: 10 }), (e) => e.code === 'export_failed' && /could not be rendered/.test(e.message));
  const controller = new AbortController();
  const slow = await client.start('docs.example.com');
  const waiting = client.waitForCompletion(slow.jobId, { intervalMs: 60_000, signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await assert.rejects(waiting, (e) => e.code === 'aborted');
  assert.ok(contract.requests.includes('POST /v1/static-export/jobs'));
});

test('feedback() rates the last answer (a later rating replaces it); AnalyticsClient reads the report and CSV', async () => {
  const client = assistant({ protocol: 'v2' });
  const result = await client.sendMessage('How do I publish my docs?').result;
  assert.match(result.messageId, /^msg_/);
  assert.equal(client.messages.at(-1).id, result.messageId);
  await assert.rejects(client.feedback({ rating: 'meh' }), (e) => e.code === 'invalid_request' && e.status === 0);
  const first = await client.feedback({ rating: 'down' });
  assert.deepEqual({ ...first, createdAt: undefined }, { threadId: result.threadId, messageId: result.messageId, rating: 'down', createdAt: undefined });
  assert.equal((await client.feedback({ rating: 'up', comment: 'clear' })).rating, 'up');
  await assert.rejects(client.feedback({ rating: 'up', messageId: 'msg_0000000000000000' }), (e) => e.status === 404);

  const analytics = new AnalyticsClient({ baseUrl: BASE_URL, adminKey: t.adminKey });
  const report = await analytics.report(t.domain);
  assert.equal(report.totals.feedbackUp, 1);
  assert.equal(report.totals.feedbackDown, 0);
  assert.equal(report.days.length, 30);
  const csv = await analytics.conversationsCsv(t.domain, { from: report.from, to: report.to });
  assert.ok(csv.startsWith('conversation_id,time,question,answer,sources,rating\r\n'));
  assert.ok(csv.includes(`${result.threadId},`));
  await assert.rejects(analytics.report(t.domain, { from: 'soon' }), (e) => e.status === 400 && /^from:/.test(e.message));
});

test('StaticExportClient against the running worker', async () => {
  const client = new StaticExportClient({ baseUrl: BASE_URL, adminKey: t.adminKey });
  const job = await client.start(t.domain);
  const seen = [];
  const done = await client.waitForCompletion(job.jobId, { intervalMs: 100, onProgress: (j) => seen.push(j.progress) });
  assert.equal(done.status, 'completed');
  assert.ok(done.pageCount >= 1);
  assert.equal(seen.at(-1), 100);
  assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'progress reported in order');
  const link = await client.bundle(job.jobId);
  const archive = await fetch(link.bundleUrl);
  assert.equal(archive.status, 200);
  assert.ok((await archive.arrayBuffer()).byteLength > 0);
  await assert.rejects(new StaticExportClient({ baseUrl: BASE_URL, adminKey: t.assistantKey }).status(job.jobId), (e) => e.status === 401 || e.status === 403);
});
