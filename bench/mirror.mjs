#!/usr/bin/env node
// docs-edge-serve's refresh by delta at scale: a hosted site of N copies of the fixture's English
// pages (scripts/lib/scale-site.mjs; 40 ≈ 10×) mirrored by the real binary through a local proxy that
// puts the domain in `Host`; then one page changed and published, and the next round's bytes against
// the export's whole bundle. Checks that the mirrored tree equals the bundle by SHA-256; prints one
// JSON line per site. tests/serve-delta.test.mjs asserts the same at 1×.
//   node bench/mirror.mjs [--copies 1,40]
// Needs docs-edge-serve built (`cargo build -p docs-edge-serve`, or SERVE_BIN).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminApi, benchWorker, DOMAIN, FIXTURE } from './support.mjs';
import { startServe } from '../tests/support/serve.mjs';
import { eventually as poll, siteProxy, underHost } from '../tests/support/hosting.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';

// The tests' bundle helpers import their API client, which wants the worker's URL; this bench starts
// its own worker and passes full URLs, so any URL will do.
process.env.BASE_URL ??= 'http://127.0.0.1:9';
const { downloadBundle, listFiles } = await import('../tests/support/export.mjs');

const args = process.argv.slice(2);
const copiesAt = args.indexOf('--copies');
const copiesList = (copiesAt >= 0 ? args[copiesAt + 1] : '40').split(',').map(Number);

const under = (base, path) => underHost(base, DOMAIN, path);
/** Polls `check` every half second until it answers truthy; an error naming `what` after half an hour. */
const eventually = (check, what) => poll(check, { what, ms: 1_800_000, every: 500 });

const hashes = (dir) => Object.fromEntries(listFiles(dir).map((p) => [p, createHash('sha256').update(readFileSync(join(dir, p))).digest('hex')]));

async function measure(copies) {
  const bench = await benchWorker();
  const site = writeScaleSite(FIXTURE, copies);
  const cleanup = [() => rmSync(site.dir, { recursive: true, force: true }), () => bench.stop()];
  try {
    await bench.publish(site.dir);
    const live = async () => {
      const res = await under(bench.baseUrl, '/_docs-edge/manifest.json');
      return res.status === 200 ? JSON.parse(res.body).jobId : null;
    };
    const on = await fetch(`${bench.baseUrl}/v1/admin/orgs/${bench.orgId}/domains/${DOMAIN}/hosting`, {
      method: 'PUT', headers: { authorization: `Bearer ${bench.rootToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ enabled: true }),
    });
    assert.equal(on.status, 200, await on.clone().text());
    const firstJob = (await on.json()).exportJob.jobId;
    await eventually(async () => (await live()) === firstJob, 'the hosted site');
    const proxy = await siteProxy(bench.baseUrl, DOMAIN);
    cleanup.push(() => proxy.close());
    const serve = await startServe({
      config: { static_export: { enabled: true }, refresh: { api_url: bench.baseUrl, domain: DOMAIN, every: '2s', site_url: proxy.url } },
      env: { DOCS_EDGE_ADMIN_KEY: bench.adminKey },
    });
    cleanup.push(() => serve.remove());
    const first = await serve.waitFor((h) => h.jobId === firstJob && h.lastFetch?.mode === 'delta', 'the first round', 1_800_000);
    const page = join(site.dir, 'part0', 'quickstart.mdx');
    writeFileSync(page, `${readFileSync(page, 'utf8')}\n\nOne more sentence about delta mirrors and their bytes.\n`);
    await bench.publish(site.dir);
    const secondJob = await eventually(async () => { const j = await live(); return j !== firstJob && j; }, 'the export after the publish');
    const second = await serve.waitFor((h) => h.jobId === secondJob, 'the round after the publish', 1_800_000);
    const link = await adminApi(bench, 'POST', `/v1/static-export/jobs/${secondJob}/bundle`);
    const whole = await downloadBundle(link.bundleUrl);
    cleanup.push(() => rmSync(whole.dir, { recursive: true, force: true }));
    const sites = join(serve.cacheDir, 'sites');
    const served = readdirSync(sites).map((n) => join(sites, n))
      .find((d) => { try { return JSON.parse(readFileSync(join(d, '_docs-edge/manifest.json'))).jobId === secondJob; } catch { return false; } });
    const a = hashes(served);
    const b = hashes(whole.dir);
    const same = JSON.stringify(a) === JSON.stringify(b);
    const firstDir = readdirSync(sites).map((n) => join(sites, n))
      .find((d) => { try { return JSON.parse(readFileSync(join(d, '_docs-edge/manifest.json'))).jobId === firstJob; } catch { return false; } });
    const old = firstDir ? hashes(firstDir) : {};
    const changedFiles = Object.keys(a).filter((p) => old[p] !== a[p]);
    console.log(JSON.stringify({
      copies, pages: site.pages, bundleGzipBytes: whole.bytes.length, firstRound: first.lastFetch, oneChangedPage: second.lastFetch,
      share: Number((second.lastFetch.bytes / whole.bytes.length).toFixed(4)), sameFilesAsTheBundle: same, changedFiles,
    }));
  } finally {
    for (const step of cleanup.reverse()) await step();
  }
}

for (const copies of copiesList) await measure(copies);
