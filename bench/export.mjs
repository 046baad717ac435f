#!/usr/bin/env node
// Static export figures through the worker under wrangler dev: pages per second (start -> completed),
// median and max page bytes, bundle bytes, files in the bundle (and of them `.md` files), the
// export Durable Object's wasm memory high-water (the largest `wasmMemoryBytes` of its log lines;
// the export runs in a worker process started after the publish, so the isolate is its own), and
// the bytes the exported site's offline search fetches in headless Chromium for the first and the
// second query of one session. Prints one JSON line per site; asserts nothing.
//   node bench/export.mjs [docs folder]          the folder (default: the fixture)
//   node bench/export.mjs --copies 4,40          sites of N copies of the fixture's English pages
//                                                (scripts/lib/scale-site.mjs; 4 ≈ 1×, 40 ≈ 10×)
//   --markdown pages|llms-full                   the start request's `markdown` (default: by size)
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { adminApi, benchWorker, docsFolder, DOMAIN, eachScaleSite } from './support.mjs';
import { launchChromium, serveFolder } from '../tests/support/browser.mjs';
import { offlineSearch, pageSizes } from '../tests/support/export-site.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const args = process.argv.slice(2);
const copiesAt = args.indexOf('--copies');
const markdownAt = args.indexOf('--markdown');
const markdown = markdownAt >= 0 ? args[markdownAt + 1] : undefined;
const folderArg = args.find((a, i) => !a.startsWith('--') && i !== copiesAt + 1 && i !== markdownAt + 1);
const QUERIES = ['static export bundle', 'custom domain'];

/** Bytes the first and the second query of one search session fetch, from the bundle's home page. */
async function searchBytes(dir, home) {
  const server = await serveFolder(dir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/${home}`);
    const out = [];
    for (const query of QUERIES) out.push((await offlineSearch(page, query)).bytes);
    return out;
  } finally {
    await browser.close();
    await server.close();
  }
}

async function measure(bench, label, folder) {
  const publishMs = await bench.publish(folder);
  const logFile = join(scratchDir('docs-edge-export-log-'), 'worker.log');
  await bench.restart({ logFile });
  const started = performance.now();
  const job = await adminApi(bench, 'POST', '/v1/static-export/jobs', { domain: DOMAIN, ...(markdown ? { markdown } : {}) });
  let status = job;
  while (status.status === 'queued' || status.status === 'running') {
    await new Promise((r) => setTimeout(r, 200));
    status = await adminApi(bench, 'GET', `/v1/static-export/jobs/${job.jobId}`);
  }
  const completedMs = performance.now() - started;
  if (status.status !== 'completed') throw new Error(`job ${status.status}: ${status.error}`);
  const link = await adminApi(bench, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`);
  const exportLines = logLines(logFile).filter((l) => l.event === 'durable' && l.class === 'ExportJob');
  const exportMemory = Math.max(0, ...exportLines.map((l) => l.wasmMemoryBytes ?? 0));
  // Where the high-water is reached: each logged call's memory after it, in MiB, repeats folded.
  const exportMemorySteps = exportLines
    .map((l) => `${l.operation}:${Math.round((l.wasmMemoryBytes ?? 0) / 1048576)}`)
    .reduce((runs, step) => (runs.at(-1)?.step === step ? (runs.at(-1).n++, runs) : [...runs, { step, n: 1 }]), [])
    .map(({ step, n }) => (n > 1 ? `${step}×${n}` : step))
    .join(' ');
  // Time inside the export object's steps against the wall clock from start to completed: the
  // difference is scheduling between alarms and polling.
  const alarms = exportLines.filter((l) => l.operation === 'alarm');
  const alarmMs = alarms.reduce((sum, l) => sum + (l.durationMs ?? 0), 0);
  const slowestAlarmMs = Math.max(0, ...alarms.map((l) => l.durationMs ?? 0));
  rmSync(dirname(logFile), { recursive: true, force: true });
  const download = Buffer.from(await (await fetch(link.bundleUrl)).arrayBuffer());
  const dir = scratchDir('docs-edge-export-bench-');
  const archive = `${dir}.tar.gz`;
  try {
    writeFileSync(archive, download);
    spawnSync('tar', ['-xzf', archive, '-C', dir]);
    const files = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8', maxBuffer: 256 << 20 }).stdout.trim().split('\n');
    const sizes = pageSizes(dir, files);
    // The brand link of the 404 page names the home page.
    const home = files.includes('index.html') ? 'index.html' : files.find((f) => f.endsWith('/index.html') && !f.startsWith('_static/'));
    const [firstQuery, secondQuery] = await searchBytes(dir, home);
    const figures = {
      site: label,
      pages: status.pageCount,
      publishMs: Math.round(publishMs),
      exportMs: Math.round(completedMs),
      pagesPerSecond: Math.round(status.pageCount / (completedMs / 1000)),
      medianPageBytes: sizes[Math.floor(sizes.length / 2)],
      maxPageBytes: sizes.at(-1),
      bundleBytes: link.sizeBytes,
      bundleBytesPerPage: Math.round(link.sizeBytes / status.pageCount),
      files: files.length,
      markdownFiles: files.filter((f) => f.endsWith('.md')).length,
      exportWasmMemoryMiB: Math.round((exportMemory / 1048576) * 10) / 10,
      exportMemorySteps,
      alarmMs,
      alarms: alarms.length,
      slowestAlarmMs,
      // Every alarm's duration in order (page batches, search pack copies, finishing last), to tell a
      // batch's fixed cost (the first batch loads the version) from its pages' work.
      alarmDurationsMs: alarms.map((l) => l.durationMs ?? 0),
      queries: QUERIES,
      firstQueryBytes: firstQuery,
      secondQueryBytes: secondQuery,
    };
    console.log(JSON.stringify(figures));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(archive, { force: true });
  }
}

// The scale sites exceed the platform-sized upload defaults (5 MiB upload, 9 MiB source).
const bench = await benchWorker({ vars: { MAX_UPLOAD_BYTES: String(128 << 20), MAX_SOURCE_BYTES: String(128 << 20) } });
try {
  if (copiesAt >= 0) {
    await eachScaleSite(args[copiesAt + 1].split(',').map(Number), (name, dir) => measure(bench, name, dir));
  } else {
    await measure(bench, folderArg ?? 'fixture', docsFolder(folderArg));
  }
} finally {
  await bench.stop();
}
