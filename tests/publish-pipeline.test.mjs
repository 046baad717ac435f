// The publish pipeline (worker/src/builder/publish_job/) on workers of its own (five starts: one shared
// by the tests that need no restart, four for the faults): a ~1,000-page site publishes in batches
// within a 24 MiB wasm high-water and answers searches (`node bench/scale.mjs` measures 1× and 10×);
// a publish that fails midway and one whose runtime is killed midway leave the previous version live,
// and the next publish works; two concurrent publishes to one domain end with one of them live,
// whole; publishes to several domains at once build at most one small site in memory per isolate.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
import { ROOT_TOKEN, assertError, call, tenant } from './support/api.mjs';
import { FIXTURE_DOCS, publish, waitForPublish } from './support/docs.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const root = scratchDir('docs-edge-publish-');
const workers = [];
after(async () => {
  for (const w of workers) await w.stop();
  rmSync(root, { recursive: true, force: true });
});

const MIB = 1024 * 1024;
// The 1,000-page site's publish: 16.2 MiB measured (bench/scale.mjs at 1×, the same site), a margin
// for the allocator's layout; the 10× site's bound is 64 MiB (36.2 measured there).
const BUDGET_BYTES = 24 * MIB;
/** The scale sites exceed the platform-sized upload defaults, as in bench/scale.mjs. */
const LIMITS = { MAX_UPLOAD_BYTES: String(256 << 20), MAX_SOURCE_BYTES: String(256 << 20) };

async function worker(name, vars = {}) {
  const logFile = join(root, `${name}.log`);
  const w = await startWorker({ persistTo: join(root, name.split('-')[0]), logFile, vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', ...LIMITS, ...vars } });
  workers.push(w);
  return { ...w, logFile };
}

async function stop(w) {
  await w.stop();
  workers.splice(workers.indexOf(w), 1);
}

// One worker for the tests that need no restart: the upload answers 202 at once (statuses are
// polled), and a domain keeps the records of its last two publishes. The scale test runs on it first,
// so the memory it reads from the log is its publish's alone; each step of its publish waits a
// second, so the statuses polled every 250 ms see it between batches.
const SCALE_DOMAIN = `scale-${Date.now().toString(36)}.example.com`;
let sharedWorker;
async function shared() {
  sharedWorker ??= await worker('shared', {
    PUBLISH_WAIT_MS: '0', TEST_KEPT_PUBLISHES: '2', TEST_PUBLISH_STEP_DELAY_DOMAIN: SCALE_DOMAIN, TEST_PUBLISH_STEP_DELAY_MS: '1000',
  });
  return sharedWorker;
}

/** A small docs folder whose one page says `word`. */
function smallSite(word, pages = 1) {
  const dir = mkdtempSync(join(root, 'site-'));
  const names = Array.from({ length: pages }, (_, i) => `page-${i}`);
  writeFileSync(join(dir, 'docs.json'), JSON.stringify({ name: word, navigation: { pages: names } }));
  for (const n of names) writeFileSync(join(dir, `${n}.mdx`), `---\ntitle: ${word} ${n}\n---\n\nThis page is about ${word} only.\n`);
  return { dir, archive: packDocsFolder(dir), pages };
}

const search = (base, t, query) => call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query }, base });
const live = (base, t) => call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey, base });

async function assertLive(base, t, site, word) {
  const got = await live(base, t);
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body.pageCount, site.pages, `the live version is the one with ${site.pages} pages`);
  const hits = await search(base, t, word);
  assert.equal(hits.status, 200, hits.text);
  assert.ok(hits.body.length > 0, `a search of ${word} finds the live version's page: ${hits.text}`);
}

test('a 1,000-page site publishes in batches within 24 MiB of wasm memory, counting the pages parsed as it goes, and answers searches', async () => {
  // The upload answers 202 at once, so the publish's statuses are polled all along.
  const w = await shared();
  const base = w.baseUrl;
  const t = await tenant({ base, domain: SCALE_DOMAIN });
  const site = writeScaleSite(FIXTURE_DOCS, 4);
  try {
    const statuses = [];
    const published = await publish(t.domain, t.adminKey, packDocsFolder(site.dir), { base, onStatus: (s) => statuses.push(s) });
    assert.equal(published.status, 200, published.text);
    const parsed = statuses.map((s) => `${s.pagesParsed}/${s.pageCount}`).join(' ');
    assert.equal(statuses.at(-1).status, 'live');
    assert.equal(statuses.at(-1).pagesParsed, published.body.pageCount, parsed);
    assert.ok(statuses.every((s, i) => s.pagesParsed <= s.pageCount && (i === 0 || s.pagesParsed >= statuses[i - 1].pagesParsed)), parsed);
    assert.ok(statuses.some((s) => s.pagesParsed > 0 && s.pagesParsed < s.pageCount), `a status between the first batch and the last: ${parsed}`);
    // A few page files are listed under two languages, so the site has a few more pages than files.
    assert.ok(published.body.pageCount >= site.pages && published.body.pageCount < site.pages + 20, published.text);
    const hits = await search(base, t, 'custom domain');
    assert.equal(hits.status, 200, hits.text);
    assert.ok(hits.body.length > 0);
    const page = hits.body[0];
    assert.match(page.path ?? page.url ?? JSON.stringify(page), /part\d+\//);

    const lines = logLines(w.logFile).filter((l) => typeof l.wasmMemoryBytes === 'number');
    assert.ok(lines.some((l) => l.event === 'durable' && l.class === 'PublishJob' && l.operation === 'alarm'), 'the publish ran in PublishJob alarms');
    const highWater = Math.max(...lines.map((l) => l.wasmMemoryBytes));
    console.log(`# ${published.body.pageCount} pages: wasm high-water ${(highWater / MIB).toFixed(1)} MiB over ${lines.length} log lines`);
    assert.ok(highWater <= BUDGET_BYTES, `wasm high-water ${(highWater / MIB).toFixed(1)} MiB over the ${BUDGET_BYTES / MIB} MiB budget`);
  } finally {
    rmSync(site.dir, { recursive: true, force: true });
  }
});

test('a publish that fails midway, and one killed midway, leave the old version live; the next one works', async () => {
  const first = smallSite('aardvark', 3);
  const second = smallSite('bandicoot', 5);
  const third = smallSite('capybara', 7);

  let w = await worker('faults-plain');
  const t = await tenant({ base: w.baseUrl });
  const ok = await publish(t.domain, t.adminKey, first.archive, { base: w.baseUrl });
  assert.equal(ok.status, 200, ok.text);
  await stop(w);

  // Every batch step fails: the publish fails after its attempts; the first version stays.
  w = await worker('faults-failing', { TEST_PUBLISH_FAULT_DOMAIN: t.domain });
  const failed = await publish(t.domain, t.adminKey, second.archive, { base: w.baseUrl });
  assertError(failed, 500, 'internal_error');
  await assertLive(w.baseUrl, t, first, 'aardvark');
  await stop(w);

  // Killed inside a step (the delay holds it there), then started again on the same state. A publish
  // keeps the settings it began with, this delay included: after the restart each of its steps (the
  // killed one again, the switch, the cleanup) still waits this long, so the old version can be seen
  // live before the new one switches, and the three waits fit the wait below with room to spare.
  w = await worker('faults-killed', { TEST_PUBLISH_STEP_DELAY_DOMAIN: t.domain, TEST_PUBLISH_STEP_DELAY_MS: '15000', PUBLISH_WAIT_MS: '0' });
  const started = await publish(t.domain, t.adminKey, second.archive, { base: w.baseUrl, wait: false });
  assert.equal(started.status, 202, started.text);
  assert.match(started.headers.get('location'), new RegExp(`/v1/sites/${t.domain}/publishes/${started.body.publishId}$`));
  for (const deadline = Date.now() + 30_000; !logLines(w.logFile).some((l) => l.event === 'publish_step_delay'); ) {
    assert.ok(Date.now() < deadline, 'the publish reached its delayed step');
    await new Promise((r) => setTimeout(r, 100));
  }
  await w.kill();
  workers.splice(workers.indexOf(w), 1);

  // Restarted, the publish resumes from its step.
  w = await worker('faults-restarted');
  await assertLive(w.baseUrl, t, first, 'aardvark');
  const resumed = await waitForPublish(t.domain, t.adminKey, started.body.publishId, { base: w.baseUrl, timeoutMs: 120_000 });
  assert.equal(resumed.status, 200, resumed.text);
  assert.ok(['live', 'failed'].includes(resumed.body.status), resumed.text);
  if (resumed.body.status === 'live') await assertLive(w.baseUrl, t, second, 'bandicoot');
  else await assertLive(w.baseUrl, t, first, 'aardvark');

  const next = await publish(t.domain, t.adminKey, third.archive, { base: w.baseUrl });
  assert.equal(next.status, 200, next.text);
  await assertLive(w.baseUrl, t, third, 'capybara');
  const nothing = await search(w.baseUrl, t, 'aardvark');
  assert.deepEqual(nothing.body, [], 'the old version is gone from search');
  await stop(w);
});

test('two concurrent publishes to one domain end with one of them live, whole', async () => {
  const w = await shared();
  const t = await tenant({ base: w.baseUrl });
  const a = smallSite('dromedary', 4);
  const b = smallSite('echidna', 6);
  const [ra, rb] = await Promise.all([a, b].map((s) => publish(t.domain, t.adminKey, s.archive, { base: w.baseUrl })));
  // Statuses are polled here: a publish that ended `failed` reads 200 with that status.
  for (const r of [ra, rb]) assert.ok(r.status === 409 || (r.status === 200 && r.body.status !== 'failed'), r.text);
  for (const r of [ra, rb].filter((r) => r.status === 409)) assertError(r, 409, 'publish_in_progress');
  const got = await live(w.baseUrl, t);
  const winner = got.body.pageCount === a.pages ? { site: a, word: 'dromedary', other: 'echidna' } : { site: b, word: 'echidna', other: 'dromedary' };
  await assertLive(w.baseUrl, t, winner.site, winner.word);
  const other = await search(w.baseUrl, t, winner.other);
  assert.deepEqual(other.body, [], 'nothing of the other publish is live');
});

test('a domain keeps the records of its last publishes: an older one\'s status is then 404', async () => {
  const w = await shared();
  const t = await tenant({ base: w.baseUrl });
  const ids = [];
  for (const word of ['dingo', 'echidna', 'fossa']) {
    const started = await publish(t.domain, t.adminKey, smallSite(word).archive, { base: w.baseUrl, wait: false });
    assert.equal(started.status, 202, started.text);
    const done = await waitForPublish(t.domain, t.adminKey, started.body.publishId, { base: w.baseUrl });
    assert.equal(done.body.status, 'live', done.text);
    ids.push(started.body.publishId);
  }
  const status = (id) => call('GET', `/v1/sites/${t.domain}/publishes/${id}`, { token: t.adminKey, base: w.baseUrl });
  assertError(await status(ids[0]), 404, 'not_found');
  for (const id of ids.slice(1)) {
    const kept = await status(id);
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.body.status, 'live');
  }
  await assertLive(w.baseUrl, t, { pages: 1 }, 'fossa');
});

test('publishes to several domains at once build at most one small site in memory per isolate, and all go live', async () => {
  const w = await shared();
  const words = ['quokka', 'numbat', 'bilby', 'wombat'];
  const tenants = [];
  for (const _ of words) tenants.push(await tenant({ base: w.baseUrl }));
  const sites = words.map((word) => smallSite(word, 400));
  const started = await Promise.all(tenants.map((t, i) => publish(t.domain, t.adminKey, sites[i].archive, { base: w.baseUrl, wait: false })));
  for (const r of started) assert.equal(r.status, 202, r.text);
  const done = await Promise.all(tenants.map((t, i) => waitForPublish(t.domain, t.adminKey, started[i].body.publishId, { base: w.baseUrl })));
  for (const r of done) assert.equal(r.body.status, 'live', r.text);
  for (const [i, t] of tenants.entries()) await assertLive(w.baseUrl, t, sites[i], words[i]);

  // The log's order is the isolate's: a publish that got the in-memory slot logs `publish_unpack`
  // with it, builds, and logs its unpack step after letting it go; no other may get it in between.
  // The worker's earlier publishes are in its log too: only these four are read.
  const ours = new Set(started.map((r) => r.body.publishId));
  const lines = logLines(w.logFile).filter((l) => ours.has(l.publishId));
  const ids = new Set(lines.filter((l) => l.event === 'publish_unpack').map((l) => l.publishId));
  assert.equal(ids.size, words.length, `one publish per domain in the log: ${[...ids]}`);
  const inMemory = [];
  for (const id of ids) {
    const begin = lines.findIndex((l) => l.event === 'publish_unpack' && l.publishId === id);
    const end = lines.findIndex((l) => l.event === 'publish_step' && l.publishId === id && l.step?.step === 'unpack' && l.ok);
    const next = lines.slice(end + 1).find((l) => l.event === 'publish_step' && l.publishId === id)?.step?.step;
    assert.ok(begin >= 0 && end > begin, `the unpack of ${id} is logged`);
    // Built in memory, a publish goes from its unpack straight to the switch; staged, it plans.
    assert.equal(next, lines[begin].inMemorySlot ? 'switch' : 'plan', `after the unpack of ${id}`);
    if (lines[begin].inMemorySlot) inMemory.push([begin, end]);
  }
  assert.ok(inMemory.length >= 1, 'a small site is built in memory when nothing else is');
  inMemory.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < inMemory.length; i++) {
    assert.ok(inMemory[i][0] > inMemory[i - 1][1], `in-memory builds overlap (log line indexes): ${JSON.stringify(inMemory)}`);
  }
  console.log(`# ${inMemory.length} of ${ids.size} concurrent publishes built in memory, the rest staged`);
});
