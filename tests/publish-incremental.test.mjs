// The incremental publish (issue 28) through the worker: the publish command's client code
// (sdk-wasm/js/publish) publishes a copy of the real fixture, one page is touched, the re-publish
// sends that page and little else, and a manifest naming a file never uploaded is refused while the
// live version stays.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BASE_URL, call, assertError, tenant } from './support/api.mjs';
import { FIXTURE_DOCS } from './support/docs.mjs';
import { writableCopy } from './support/writable-copy.mjs';
import { publishFolder, SiteApi } from '../sdk-wasm/js/publish/index.js';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const WORD = `quokkazanzibar${Date.now().toString(36)}`;
const hashOf = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

let fx;
let folder;
let first;
let again;

// No network in CI: the fixture's remote images are left out (--no-fetch), each one a warning.
const publish = () => publishFolder({ folder, baseUrl: BASE_URL, adminKey: fx.adminKey, domain: fx.domain, noFetch: true, pollMs: 100 });

before(async () => {
  fx = await tenant();
  folder = writableCopy(FIXTURE_DOCS, join(scratchDir('publish-incremental-'), 'docs'));
  first = await publish();
  appendFileSync(join(folder, 'quickstart.mdx'), `\nThe word ${WORD} was added for the re-publish.\n`);
  again = await publish();
});

test('the first publish uploads the whole folder and goes live', () => {
  assert.equal(first.site.domain, fx.domain);
  assert.ok(first.site.pageCount >= 1050, `pageCount ${first.site.pageCount}`);
  assert.ok(first.filesTotal > 1100, `${first.filesTotal} files`);
  assert.ok(first.filesUploaded > 1000 && first.filesUploaded <= first.filesTotal, `${first.filesUploaded} uploaded`);
  assert.ok(first.warnings.some((w) => w.includes('(--no-fetch)')));
});

test('a re-publish after touching one page uploads that page and < 40 bytes per other file', () => {
  assert.equal(again.filesUploaded, 1);
  const page = readFileSync(join(folder, 'quickstart.mdx'));
  const perFile = (again.bytesSent - page.length) / (again.filesTotal - 1);
  assert.ok(perFile < 40, `${perFile.toFixed(1)} bytes per unchanged file (${again.bytesSent} sent)`);
  assert.equal(again.site.pageCount, first.site.pageCount);
  assert.ok(Date.parse(again.site.publishedAt) >= Date.parse(first.site.publishedAt));
});

test('the re-publish parses the touched page again and takes every other page as the last publish parsed it', () => {
  const live = logLines(process.env.WORKER_LOG).filter((l) => l.event === 'publish_live' && l.domain === fx.domain);
  assert.equal(live.length, 2, 'two publishes went live');
  const steps = (id) => logLines(process.env.WORKER_LOG).filter((l) => l.event === 'publish_step' && l.publishId === id);
  const reused = (id) => steps(id).reduce((sum, l) => sum + (l.reusedPages ?? 0), 0);
  assert.equal(reused(live[0].publishId), 0);
  const pages = again.site.pageCount;
  // The page, and any other listing of the same file, is read again.
  assert.ok(reused(live[1].publishId) < pages && reused(live[1].publishId) >= pages - 3, `${reused(live[1].publishId)} of ${pages} pages reused`);
  // Batches whose pages did not change are taken whole (not built again); the touched page's is built.
  const batches = (id) => steps(id).filter((l) => l.step?.step === 'batch' && l.ok);
  const taken = (id) => batches(id).reduce((sum, l) => sum + (l.takenBatches ?? 0), 0);
  const built = batches(live[1].publishId).filter((l) => !l.takenBatches).length;
  assert.equal(taken(live[0].publishId), 0);
  assert.ok(taken(live[1].publishId) >= 1 && built >= 1, `${taken(live[1].publishId)} batches taken whole, ${built} built`);
});

test('the touched page\'s new text is searchable', async () => {
  const res = await call('POST', `/discovery/v1/search/${fx.domain}`, { token: fx.assistantKey, json: { query: WORD } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body[0]?.path, 'quickstart', res.text);
});

test('a commit naming a file never uploaded is refused with its path, and the live version stays', async () => {
  const docsJson = readFileSync(join(folder, 'docs.json'));
  const res = await call('POST', `/v1/sites/${fx.domain}/publishes`, {
    token: fx.adminKey,
    body: gzipSync(JSON.stringify({ files: { 'docs.json': hashOf(docsJson), 'never.mdx': 'f'.repeat(32) } })),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  assertError(res, 400, 'missing_files');
  assert.deepEqual(res.body.missing, ['never.mdx']);
  const live = await call('GET', `/v1/sites/${fx.domain}`, { token: fx.adminKey });
  assert.equal(live.status, 200, live.text);
  assert.deepEqual(live.body, again.site);
});

test('"which files are missing" answers for the caller\'s own site only; another organization\'s key is 404', async () => {
  const other = await tenant();
  const held = [hashOf(readFileSync(join(folder, 'docs.json'))), hashOf(readFileSync(join(folder, 'quickstart.mdx')))];
  const own = new SiteApi({ baseUrl: BASE_URL, adminKey: fx.adminKey, domain: fx.domain });
  assert.deepEqual(await own.missing(held), []);
  const stranger = new SiteApi({ baseUrl: BASE_URL, adminKey: other.adminKey, domain: other.domain });
  assert.deepEqual((await stranger.missing(held)).sort(), [...held].sort());
  const res = await call('POST', `/v1/sites/${fx.domain}/files/missing`, { token: other.adminKey, json: { hashes: held } });
  assertError(res, 404, 'not_found');
});
