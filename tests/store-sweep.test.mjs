// The storage sweep deletes a file of a site's store only when no version it keeps refers to it
// (`core/src/platform/store_sweep.rs`). On a worker of its own where replaced versions go at once
// (PUBLISH_RETENTION_DAYS=0) and an unreferenced file is kept for seconds instead of a day
// (TEST_SITE_FILE_IN_FLIGHT_MS), a site published file by file twice: what only the replaced version
// named goes, what the live one names stays, a file uploaded for a commit not made yet stays until it
// is old enough. A commit waits while a sweep holds the store (its marker, written here straight into
// the worker's local R2 as a sweep would) and goes live once it has left. A re-publish of the real
// fixture (staged in batches) refers to the batches and source packs the first publish built
// instead of copying them; the sweep that deletes the first version keeps those, so the live
// version still serves and the next re-publish takes them again. Its batches' text and Markdown
// pieces (which its piece table lists) stay with them; the rebuilt batch's old pieces go.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { root, nodeBin, toolEnv } from '../scripts/lib/env.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { ROOT_TOKEN, call, tenant } from './support/api.mjs';
import { runSweep } from './support/sweep.mjs';
import { publishFolder } from '../sdk-wasm/js/publish/index.js';
import { FIXTURE_DOCS } from './support/docs.mjs';
import { writableCopy } from './support/writable-copy.mjs';
import { logLines } from '../scripts/lib/worker-log.mjs';

const IN_FLIGHT_MS = 4000;
const state = scratchDir('docs-edge-store-sweep-');
const logFile = join(scratchDir('docs-edge-store-sweep-log-'), 'worker.log');
const folder = join(scratchDir('docs-edge-store-sweep-docs-'), 'docs');
const hashOf = (text) => createHash('sha256').update(text).digest('hex').slice(0, 32);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let worker;
let base;
let t;

before(async () => {
  worker = await startWorker({
    persistTo: state,
    vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', PUBLISH_RETENTION_DAYS: '0', TEST_SITE_FILE_IN_FLIGHT_MS: String(IN_FLIGHT_MS) },
    testScheduled: true,
    logFile,
  });
  base = worker.baseUrl;
  t = await tenant({ base });
});

after(async () => {
  await worker?.stop();
});

/** Writes the docs folder: `files` maps paths to contents, every other file is removed. */
function writeDocs(files) {
  rmSync(folder, { recursive: true, force: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
}

const publish = () => publishFolder({ folder, baseUrl: base, adminKey: t.adminKey, domain: t.domain, noFetch: true, pollMs: 100 });
const missing = async (hashes) => {
  const res = await call('POST', `/v1/sites/${t.domain}/files/missing`, { token: t.adminKey, json: { hashes }, base });
  assert.equal(res.status, 200, res.text);
  return res.body.missing;
};

let sweeps = 0;

/** Runs the daily jobs; answers how many objects the storage sweep deleted. */
async function sweep() {
  sweeps += 1;
  return runSweep(worker, `17 3 * * * store-${sweeps}`);
}

function r2(...args) {
  const result = spawnSync(join(nodeBin, 'wrangler'), ['r2', 'object', ...args, '--local', '--persist-to', state], {
    cwd: root, env: toolEnv({ CI: '1', FORCE_COLOR: '0' }), encoding: 'utf8',
  });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
}

/** The object `key` of the worker's local R2; null when it is missing. */
function r2Get(key) {
  const result = spawnSync(join(nodeBin, 'wrangler'), ['r2', 'object', 'get', `docs-edge/${key}`, '--pipe', '--local', '--persist-to', state], {
    cwd: root, env: toolEnv({ CI: '1', FORCE_COLOR: '0' }), maxBuffer: 64 << 20,
  });
  return result.status === 0 ? result.stdout : null;
}

/** The live `llms-full.txt` of tenant `site`. */
async function llmsFullOf(site) {
  const res = await call('GET', `/discovery/v1/llms/${site.domain}/llms-full.txt`, { token: site.assistantKey, base });
  assert.equal(res.status, 200, res.text);
  return res.text;
}

/** The first hit's path of a search of `site` for `word`. */
async function searchFindsIn(site, word) {
  const res = await call('POST', `/discovery/v1/search/${site.domain}`, { token: site.assistantKey, json: { query: word }, base });
  assert.equal(res.status, 200, res.text);
  return res.body[0]?.path;
}

/** The pieces (`files/{domain}/batch-….text|llms`) version `publishId`'s piece table lists. */
function pieces(domain, publishId) {
  const table = r2Get(`sites/${domain}/${publishId}/pieces.txt`);
  assert.ok(table, `${publishId} has a piece table`);
  return table.toString().trim().split('\n').flatMap((line) => {
    const [stem, text, llms] = line.split(' ');
    return [[`${stem}.text`, text], [`${stem}.llms`, llms]].filter(([, len]) => Number(len) > 0).map(([name]) => `files/${domain}/${name}`);
  });
}

const FIRST = {
  'docs.json': JSON.stringify({ name: 'Sweep', navigation: { pages: ['index', 'old'] } }),
  'index.mdx': '# Home\n\nThe page both versions share, ![shared](/images/shared.png).\n',
  'old.mdx': '# Old\n\nOnly the first version has this page, ![old](/images/old.png).\n',
  'images/shared.png': 'shared image bytes',
  'images/old.png': 'old image bytes',
};
const SECOND = {
  'docs.json': JSON.stringify({ name: 'Sweep', navigation: { pages: ['index', 'new'] } }),
  'index.mdx': FIRST['index.mdx'],
  'new.mdx': '# New\n\nOnly the second version has this page.\n',
  'images/shared.png': FIRST['images/shared.png'],
};
const FRESH = 'uploaded for a commit that has not happened yet';

test('the sweep deletes the files only a replaced version named, keeps the live version\'s and fresh uploads', async () => {
  writeDocs(FIRST);
  assert.equal((await publish()).site.pageCount, 2);
  writeDocs(SECOND);
  assert.equal((await publish()).filesUploaded, 2, 'the second docs.json and new.mdx');
  // Every file is now older than the in-flight period; one more is uploaded for a later commit.
  await sleep(IN_FLIGHT_MS + 500);
  const put = await call('PUT', `/v1/sites/${t.domain}/files/${hashOf(FRESH)}`, { token: t.adminKey, body: FRESH, base });
  assert.equal(put.status, 200, put.text);

  const deleted = await sweep();
  const gone = ['docs.json', 'old.mdx', 'images/old.png'].map((p) => hashOf(FIRST[p]));
  const kept = [...Object.values(SECOND).map(hashOf), hashOf(FRESH)];
  assert.deepEqual(await missing([...gone, ...kept]), gone, 'only what the replaced version alone named is gone');
  assert.ok(deleted > gone.length, `the replaced version's objects went too (${deleted} deleted)`);

  const page = await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path: 'new' }, base });
  assert.equal(page.status, 200, `the live version still serves: ${page.text}`);

  // Once older than the in-flight period, the uncommitted file goes too; the live version's stay.
  await sleep(IN_FLIGHT_MS + 500);
  await sweep();
  assert.deepEqual(await missing(kept), [hashOf(FRESH)]);
});

test('a commit waits while a sweep holds the store, then publishes (re-uploading what the sweep deleted)', async () => {
  const marker = `docs-edge/files/${t.domain}/sweep-test`;
  const file = join(scratchDir('docs-edge-store-sweep-marker-'), 'marker');
  writeFileSync(file, 'test');
  r2('put', marker, '--file', file);
  writeDocs(FIRST);
  const started = Date.now();
  let settled = false;
  const publishing = publish().finally(() => { settled = true; });
  await sleep(3000);
  assert.equal(settled, false, 'the commit waits for the sweep to leave the store');
  r2('delete', marker);
  const published = await publishing;
  assert.ok(Date.now() - started >= 3000);
  assert.equal(published.site.pageCount, 2);
  assert.equal(published.filesUploaded, 3, 'the first version\'s files the sweep deleted are uploaded again');
  assert.deepEqual(await missing(Object.values(FIRST).map(hashOf)), []);
});

test('a re-publish refers to the batches and source packs the replaced version built; sweeping that version keeps them for the live one', async () => {
  const site = await tenant({ base });
  const docs = writableCopy(FIXTURE_DOCS, join(scratchDir('docs-edge-store-sweep-fixture-'), 'docs'));
  const publishDocs = () => publishFolder({ folder: docs, baseUrl: base, adminKey: site.adminKey, domain: site.domain, noFetch: true, pollMs: 100 });
  const touch = (word) => writeFileSync(join(docs, 'quickstart.mdx'), `${readFileSync(join(docs, 'quickstart.mdx'), 'utf8')}\nThe word ${word} was added.\n`);
  const live = () => logLines(logFile).filter((l) => l.event === 'publish_live' && l.domain === site.domain).map((l) => l.publishId);
  const taken = (publishId) => logLines(logFile)
    .filter((l) => l.event === 'publish_step' && l.publishId === publishId && l.ok && l.step?.step === 'batch')
    .reduce((sum, l) => sum + (l.takenBatches ?? 0), 0);
  const sharedPacks = (publishId) => logLines(logFile)
    .filter((l) => l.event === 'publish_step' && l.publishId === publishId && l.ok && l.step?.step === 'unpack')
    .reduce((sum, l) => sum + (l.sharedPacks ?? 0), 0);
  const llmsFull = () => llmsFullOf(site);
  const searchFinds = (word) => searchFindsIn(site, word);

  const first = await publishDocs();
  const word = `wombatquartz${Date.now().toString(36)}`;
  touch(word);
  await publishDocs();
  const tookFromFirst = taken(live()[1]);
  assert.ok(tookFromFirst >= 1, `the re-publish took ${tookFromFirst} batches`);
  const sharedFromFirst = sharedPacks(live()[1]);
  assert.ok(sharedFromFirst >= 1, `the re-publish shared ${sharedFromFirst} source packs`);
  const servedBefore = await llmsFull();
  const [firstPieces, livePieces] = [pieces(site.domain, live()[0]), pieces(site.domain, live()[1])];
  const onlyFirst = firstPieces.filter((k) => !livePieces.includes(k));
  assert.ok(onlyFirst.length >= 1 && onlyFirst.length < firstPieces.length, `the rebuilt batch's pieces are the first version's alone (${onlyFirst.length} of ${firstPieces.length})`);

  // The first version goes (retention 0); what the live version took from it must stay.
  await sleep(IN_FLIGHT_MS + 500);
  const deleted = await sweep();
  assert.ok(deleted > 0, 'the replaced version was swept');
  assert.equal(await llmsFull(), servedBefore, 'every page of the live version is served as before');
  assert.ok(servedBefore.includes(word));
  assert.equal(await searchFinds(word), 'quickstart');
  // A piece goes only when no kept version names it.
  assert.equal(r2Get(onlyFirst[0]), null, `${onlyFirst[0]}, named by the swept version alone, is gone`);
  const shared = firstPieces.find((k) => livePieces.includes(k));
  assert.notEqual(r2Get(shared), null, `${shared}, named by the live version too, stays`);

  // The next re-publish takes the same batches again: their objects outlived the version that built them.
  const again = `emuquasar${Date.now().toString(36)}`;
  touch(again);
  const third = await publishDocs();
  assert.equal(live().length, 3);
  assert.equal(taken(live()[2]), tookFromFirst, 'every batch taken before is taken again');
  // It shares the packs the first version wrote (each checked present in the store), so the sweep kept them.
  assert.ok(sharedPacks(live()[2]) >= 1, `the next re-publish shared ${sharedPacks(live()[2])} source packs`);
  assert.equal(third.site.pageCount, first.site.pageCount);
  assert.equal(await searchFinds(again), 'quickstart');
  assert.ok((await llmsFull()).includes(again));
});
