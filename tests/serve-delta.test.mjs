// docs-edge-serve's refresh by delta: a hosted domain (the fixture's 254 English pages, one copy of
// scripts/lib/scale-site.mjs) mirrored by the real binary from the site's delta listing, through a
// local proxy that puts the domain in `Host`. The first round fetches every file; one page changed
// and published, the next round fetches only a small fraction of the bundle's bytes, and the tree it
// serves holds the same files, by SHA-256, as the bundle of the same export downloaded whole. A round
// with nothing published fetches nothing but the index's 304. The bytes are printed (the figure at
// 1×); the 10× figure is `node bench/scale.mjs`'s site under the same steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_URL, ROOT_TOKEN, call, tenant } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { downloadBundle, listFiles, requestBundle, waitForJob } from './support/export.mjs';
import { startServe } from './support/serve.mjs';
import { eventually as poll, siteProxy, underHost } from './support/hosting.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';

// What the round after one changed page may fetch, of the gzipped bundle's bytes. Measured at 1×
// (bench/mirror.mjs, the same steps): 284,649 of 3,023,267 bytes (9.4%, 44 requests: the changed
// parts, the large files' chunk lists, groups and changed chunks, the page and its Markdown, the
// offline index's term files of the sentence's words). At this size the listing's fixed costs and the
// small files dominate; at 10× the same edit costs 0.57% of the bundle (508,753 of 89,490,464 bytes).
const DELTA_SHARE = 0.12;

const cleanup = [];
let t;
let site;
let proxy;

const under = (host, path) => underHost(BASE_URL, host, path);
/** Polls `check` until it answers something truthy; fails naming `what` after 4 minutes. */
const eventually = (check, what) => poll(check, { what, ms: 240_000 });

const servedPublish = async () => {
  const res = await under(t.domain, '/_docs-edge/manifest.json');
  return res.status === 200 ? JSON.parse(res.body).jobId : null;
};

/** path → SHA-256 of every file under `dir`. */
function hashes(dir) {
  return Object.fromEntries(listFiles(dir).map((p) => [p, createHash('sha256').update(readFileSync(join(dir, p))).digest('hex')]));
}

/** The folder docs-edge-serve serves (the newest under its cache's `sites/`). */
function servedDir(cacheDir, jobId) {
  const sites = join(cacheDir, 'sites');
  const dir = readdirSync(sites)
    .map((name) => join(sites, name))
    .find((d) => { try { return JSON.parse(readFileSync(join(d, '_docs-edge/manifest.json'))).jobId === jobId; } catch { return false; } });
  assert.ok(dir, `a folder of ${jobId} under ${sites}`);
  return dir;
}

before(async () => {
  t = await tenant();
  site = writeScaleSite(FIXTURE_DOCS, 1);
  cleanup.push(() => rmSync(site.dir, { recursive: true, force: true }));
  assert.equal((await publishFolder(t.domain, t.adminKey, site.dir)).status, 200);
  const on = await call('PUT', `/v1/admin/orgs/${t.org.orgId}/domains/${t.domain}/hosting`, { token: ROOT_TOKEN, json: { enabled: true } });
  assert.equal(on.status, 200, on.text);
  assert.equal((await waitForJob(t.adminKey, on.body.exportJob.jobId)).job.status, 'completed');
  await eventually(async () => (await servedPublish()) === on.body.exportJob.jobId, 'the hosted site');
  proxy = await siteProxy(BASE_URL, t.domain);
  cleanup.push(() => proxy.close());
});

after(async () => {
  for (const step of cleanup.reverse()) await step();
});

test('the refresh mirrors a hosted site by delta: one changed page costs a small fraction of the bundle, and the tree equals a full download', async () => {
  const serve = await startServe({
    config: { static_export: { enabled: true }, refresh: { api_url: BASE_URL, domain: t.domain, every: '1s', site_url: proxy.url } },
    env: { DOCS_EDGE_ADMIN_KEY: t.adminKey },
  });
  cleanup.push(() => serve.remove());
  const firstJob = await servedPublish();
  const first = await serve.waitFor((h) => h.jobId === firstJob && h.lastFetch?.mode === 'delta', 'the first round', 240_000);
  assert.equal(first.lastRefreshError, null);
  assert.match(await (await fetch(`${serve.url}/part0/quickstart`)).text(), /<h1/);

  // Nothing published: rounds answer 304 and fetch nothing more.
  const idle = { ...proxy.counted };
  await new Promise((r) => setTimeout(r, 2500));
  assert.ok(proxy.counted.bytes - idle.bytes < 2048, `idle rounds fetched ${proxy.counted.bytes - idle.bytes} bytes`);
  assert.equal((await serve.health()).lastFetch.bytes, first.lastFetch.bytes, 'no round loaded anything');

  // One page changed and published: the hosting export runs, then the mirror catches up.
  const page = join(site.dir, 'part0', 'quickstart.mdx');
  writeFileSync(page, `${readFileSync(page, 'utf8')}\n\nOne more sentence about delta mirrors and their bytes.\n`);
  assert.equal((await publishFolder(t.domain, t.adminKey, site.dir)).status, 200);
  const secondJob = await eventually(async () => { const j = await servedPublish(); return j !== firstJob && j; }, 'the hosted site after the publish');
  const second = await serve.waitFor((h) => h.jobId === secondJob, 'the round after the publish', 240_000);
  assert.equal(second.lastFetch.mode, 'delta');
  assert.match(await (await fetch(`${serve.url}/part0/quickstart`)).text(), /One more sentence about delta mirrors/);

  // The same export downloaded whole: its bundle.
  const link = await requestBundle(t.adminKey, secondJob);
  assert.equal(link.status, 200, link.text);
  const whole = await downloadBundle(link.body.bundleUrl);
  cleanup.push(() => rmSync(whole.dir, { recursive: true, force: true }));
  const share = second.lastFetch.bytes / whole.bytes.length;
  const mirrored = hashes(servedDir(serve.cacheDir, secondJob));
  const before = hashes(servedDir(serve.cacheDir, firstJob));
  const changedFiles = Object.keys(mirrored).filter((p) => before[p] !== mirrored[p]);
  console.log(JSON.stringify({
    pages: site.pages,
    bundleGzipBytes: whole.bytes.length,
    bundleFiles: second.lastFetch.files,
    bundleFileBytes: second.lastFetch.fileBytes,
    firstRound: first.lastFetch,
    oneChangedPage: second.lastFetch,
    share: Number(share.toFixed(4)),
    changedFiles,
  }));
  assert.ok(share <= DELTA_SHARE, `the round after one changed page fetched ${second.lastFetch.bytes} bytes, ${(share * 100).toFixed(1)}% of the ${whole.bytes.length}-byte bundle`);
  assert.ok(second.lastFetch.bytes < first.lastFetch.bytes / 4, 'far less than the first round');
  assert.deepEqual(mirrored, hashes(whole.dir), 'the mirrored tree is the bundle, file by file');
});

test('a site without a delta listing leaves the refresh to the whole bundle', async () => {
  const own = await tenant();
  assert.equal((await publishFolder(own.domain, own.adminKey)).status, 200);
  // Not hosted: the site answers 404 for the listing, as a service older than it would.
  const plain = await siteProxy(BASE_URL, own.domain);
  cleanup.push(() => plain.close());
  const serve = await startServe({
    config: { static_export: { enabled: true }, refresh: { api_url: BASE_URL, domain: own.domain, every: '1s', site_url: plain.url } },
    env: { DOCS_EDGE_ADMIN_KEY: own.adminKey },
  });
  cleanup.push(() => serve.remove());
  const health = await serve.waitFor((h) => h.jobId && h.lastFetch, 'the whole-bundle round', 120_000);
  assert.equal(health.lastFetch.mode, 'bundle');
  assert.equal(health.lastRefreshError, null);
  // Nothing published since: the next rounds start no export.
  const job = health.jobId;
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal((await serve.health()).jobId, job);
});
