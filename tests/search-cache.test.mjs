// The isolate's search cache under a small SEARCH_CACHE_BYTES: search and page answers stay exactly
// those of the main test worker (and of the same request before eviction), the cache never holds more
// than the bound, it evicts, and an isolate that only searches stays small.
//
// A first worker publishes the fixture and three small sites into a state folder and stops; a second
// worker on the same state, which has never published (so its memory is only what searching takes),
// answers varied searches and page reads round-robin across the four sites, twice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, call, tenant } from './support/api.mjs';
import { publishFolder, DEMO_DOCS, FIXTURE_DOCS } from './support/docs.mjs';
import { logLines as allLogLines } from '../scripts/lib/worker-log.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

/** 2 MiB: room for the fixture's meta (charged about 1.2 MiB with the semantic stage's chunk
 * vectors) and a few queries' shards and text blocks (about 110 KiB a query), far less than the
 * rounds below read, so the cache must evict. */
const CACHE_BYTES = 2 * 1024 * 1024;
/** A search-only isolate: the module's data and the runtime's share of linear memory, the cache
 * bound, one request's working set over the fixture (a meta read, per-chunk score arrays for 10,848
 * chunks, a page's text blocks, objects evicted while a request still holds them) and the semantic
 * stage's model, held for the isolate's life (2.2 MB and its vocabulary's order). Measured 3.1 MiB
 * before the semantic stage, 10.3 MiB with it (with a 1 or a 2 MiB cache alike); 12 MiB leaves
 * room for allocator growth, and is a sixth of what keeping the fixture's whole index (8.6 MB on
 * disk, several times that decoded) for each of four sites would take. */
const SEARCH_ONLY_BUDGET = 12 * 1024 * 1024;

const state = scratchDir('docs-edge-search-cache-');
const logFile = join(state, 'worker.log');
let worker;
let fixture; // { tenant on our worker, tenant on the main test worker }
const small = [];

before(async () => {
  const publisher = await startWorker({ persistTo: join(state, 'state'), vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here' } });
  try {
    const base = publisher.baseUrl;
    const ours = await tenant({ base });
    const res = await publishFolder(ours.domain, ours.adminKey, FIXTURE_DOCS, { base });
    assert.equal(res.status, 200, res.text);
    for (let i = 0; i < 3; i++) {
      const t = await tenant({ base });
      assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS, { base })).status, 200);
      small.push(t);
    }
    const main = await tenant();
    assert.equal((await publishFolder(main.domain, main.adminKey, FIXTURE_DOCS)).status, 200);
    fixture = { ours, main };
  } finally {
    await publisher.stop();
  }
  worker = await startWorker({
    persistTo: join(state, 'state'),
    logFile,
    vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', SEARCH_CACHE_BYTES: String(CACHE_BYTES) },
  });
});

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

const logLines = () => allLogLines(logFile).filter((l) => l.event === 'request');

const FIXTURE_SEARCHES = [
  { query: 'static export bundle' },
  { query: 'api key', pageSize: 20 },
  { query: 'custom domain' },
  { query: 'how do I set up a custom domain with cloudflare', pageSize: 5 },
  { query: 'domaine personnalisé', filter: { language: 'fr' }, pageSize: 20 },
  { query: 'dominio personalizado', filter: { language: 'es' } },
  { query: '自定义域名', filter: { language: 'zh' } },
  { query: 'configure analytics integration' },
  { query: 'openapi playground', pageSize: 50 },
  { query: 'redirects', scoreThreshold: 0.3 },
  { query: 'rate limits', filter: { tag: 'API reference' } },
  { query: 'webhook events payload' },
  { query: 'search api key', pageSize: 3 },
  { query: 'mcp server agents' },
  { query: 'authentication sso saml' },
  { query: 'navigation tabs groups' },
];
const FIXTURE_PAGES = ['api/static-export/overview', 'quickstart', 'index', 'fr/quickstart', 'no/such/page'];
const SMALL_SEARCHES = [{ query: 'publish' }, { query: 'search' }, { query: 'assistant answers' }];

const search = (t, json, base) => call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json, base });
const page = (t, path, base) => call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path }, base });

/** One pass over everything, interleaving the sites so each request may evict the others' objects. */
async function round() {
  const answers = [];
  const base = worker.baseUrl;
  for (let i = 0; i < FIXTURE_SEARCHES.length; i++) {
    const t = small[i % small.length];
    const requests = [
      ['search', fixture.ours, FIXTURE_SEARCHES[i]],
      ['search', t, SMALL_SEARCHES[i % SMALL_SEARCHES.length]],
      ['page', fixture.ours, FIXTURE_PAGES[i % FIXTURE_PAGES.length]],
    ];
    for (const [kind, who, arg] of requests) {
      const res = kind === 'search' ? await search(who, arg, base) : await page(who, arg, base);
      assert.ok(res.status === 200 || (kind === 'page' && res.status === 404), `${kind} ${JSON.stringify(arg)}: ${res.status} ${res.text}`);
      answers.push({ kind, arg, status: res.status, body: res.body });
    }
  }
  return answers;
}

test('answers stay exact through eviction; the cache stays under its bound and evicts', async () => {
  const first = await round();
  const second = await round();
  assert.deepEqual(second, first, 'the same answers after eviction');

  // The main test worker (default cache) answers the fixture the same.
  for (const json of FIXTURE_SEARCHES) {
    const here = await search(fixture.ours, json, worker.baseUrl);
    const there = await search(fixture.main, json);
    assert.equal(there.status, 200, there.text);
    assert.deepEqual(here.body, there.body, JSON.stringify(json));
  }
  for (const path of FIXTURE_PAGES) {
    const here = await page(fixture.ours, path, worker.baseUrl);
    const there = await page(fixture.main, path);
    assert.deepEqual([here.status, here.body], [there.status, there.body], path);
  }
  const searches = first.filter((a) => a.kind === 'search');
  assert.ok(searches.filter((a) => a.body.length > 0).length >= searches.length * 0.7, 'searches find something');

  // Give the log a moment to reach the file.
  let lines = [];
  for (let i = 0; i < 50; i++) {
    lines = logLines().filter((l) => l.path.startsWith('/discovery/'));
    if (lines.length >= first.length * 2 + FIXTURE_SEARCHES.length + FIXTURE_PAGES.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(lines.length >= first.length * 2, `${lines.length} request lines`);
  for (const l of lines) {
    assert.ok(Number.isInteger(l.searchCacheBytes) && Number.isInteger(l.searchCacheEntries), JSON.stringify(l));
    assert.ok(l.searchCacheBytes <= CACHE_BYTES, `searchCacheBytes ${l.searchCacheBytes} over ${CACHE_BYTES}`);
  }
  const peakBytes = Math.max(...lines.map((l) => l.searchCacheBytes));
  const evictions = Math.max(...lines.map((l) => l.searchCacheEvictions));
  const highWater = Math.max(...lines.map((l) => l.wasmMemoryBytes));
  console.log(
    `search cache: peak ${(peakBytes / 1024).toFixed(0)} KiB of ${CACHE_BYTES / 1024} KiB, ${evictions} evictions, ` +
      `most entries ${Math.max(...lines.map((l) => l.searchCacheEntries))}; wasmMemoryBytes high-water ${(highWater / 1048576).toFixed(1)} MiB`,
  );
  assert.ok(peakBytes > CACHE_BYTES / 2, 'the cache was used');
  assert.ok(evictions > 0, 'more was read than fits, so entries were evicted');
  assert.ok(highWater <= SEARCH_ONLY_BUDGET, `wasm memory ${highWater} over the ${SEARCH_ONLY_BUDGET}-byte budget`);
});
