#!/usr/bin/env node
// A hosted site's export written whole against the export after one changed page, through the
// worker under wrangler dev: hosting is turned on (the first export writes every file), then one
// page is edited and published. For each: milliseconds from the start (hosting on; the publish
// live) to the site serving the new export under its `Host`, the objects the export wrote
// (`siteWrites`: files, delta listing objects, the pointer), the pages the second one rendered
// (`pagesRendered`), and the export object's wasm memory high-water (each phase in a worker process of its own). Prints one
// JSON line per site; asserts nothing.
//   node bench/hosted-change.mjs                 the fixture
//   node bench/hosted-change.mjs --copies 4,40   sites of N copies of the fixture's English pages
//   --steps: also the one-page export's wall time per kind of step (each step's `export_step` log
//   line timed as it arrives; the first step's time includes the export's start), its longest, and
//   the export object's wasm memory after it, and `switchedMs`: when the export wrote the live
//   pointer (the site serves it once the request-serving isolate's pointer cache, 1 s, runs out)
//   KEEP_LOG=<file>: keeps the one-page export's worker log there
import { request } from 'node:http';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { adminApi, benchWorker, DOMAIN, eachScaleSite, FIXTURE } from './support.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const args = process.argv.slice(2);
const copiesAt = args.indexOf('--copies');
const timeSteps = args.includes('--steps');

/** Times the `export_step` lines of `logFile` as they arrive, until `stop()`: milliseconds per kind
 * of step, counted from `started` (a step's time runs from the line before it). */
function stepTimer(logFile, started) {
  const times = {};
  let switchedMs = null;
  let seen = 0;
  let last = started;
  let kind = null;
  const tick = () => {
    const lines = logLines(logFile).filter((l) => l.event === 'export_step' || l.event === 'site_live' || (l.event === 'durable' && l.class === 'ExportJob'));
    const now = performance.now();
    for (const line of lines.slice(seen)) {
      if (line.event === 'site_live') {
        switchedMs ??= Math.round(now - started);
        continue;
      }
      if (line.event === 'durable') {
        // The alarm that ran the step logs after it: the isolate's memory then.
        if (kind) times[kind].wasmMemoryMiB = Math.max(times[kind].wasmMemoryMiB, Math.round((line.wasmMemoryBytes / 1048576) * 10) / 10);
        continue;
      }
      kind = line.kind;
      const entry = (times[kind] ??= { steps: 0, ms: 0, longestMs: 0, wasmMemoryMiB: 0 });
      entry.steps += 1;
      entry.ms += now - last;
      entry.longestMs = Math.max(entry.longestMs, now - last);
      last = now;
    }
    seen = lines.length;
  };
  const timer = setInterval(tick, 50);
  return {
    stop() {
      clearInterval(timer);
      tick();
      for (const entry of Object.values(times)) {
        entry.ms = Math.round(entry.ms);
        entry.longestMs = Math.round(entry.longestMs);
      }
      return { ...times, switchedMs };
    },
  };
}

/** GET `path` of the bench worker under the hosted domain: `{status, body}`. */
function hosted(bench, path) {
  return new Promise((resolve, reject) => {
    request(new URL(path, bench.baseUrl), { headers: { host: DOMAIN } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    }).on('error', reject).end();
  });
}

/** Waits until the site serves `publishId`'s export; its manifest. */
async function servedPublish(bench, publishId) {
  for (;;) {
    const res = await hosted(bench, '/_docs-edge/manifest.json');
    if (res.status === 200) {
      const manifest = JSON.parse(res.body);
      if (!publishId || manifest.publishId === publishId) return manifest;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function finished(bench, jobId) {
  for (;;) {
    const job = await adminApi(bench, 'GET', `/v1/static-export/jobs/${jobId}`);
    if (job.status !== 'queued' && job.status !== 'running') {
      if (job.status !== 'completed') throw new Error(`job ${job.status}: ${job.error}`);
      return job;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The export object's wasm memory high-water in `logFile`, MiB. */
function exportMemoryMiB(logFile) {
  const lines = logLines(logFile).filter((l) => l.event === 'durable' && l.class === 'ExportJob');
  return Math.round((Math.max(0, ...lines.map((l) => l.wasmMemoryBytes ?? 0)) / 1048576) * 10) / 10;
}

async function measure(bench, label, folder) {
  await bench.publish(folder);
  const logs = scratchDir('docs-edge-hosted-change-log-');
  const wholeLog = join(logs, 'whole.log');
  await bench.restart({ logFile: wholeLog });
  const started = performance.now();
  const res = await fetch(`${bench.baseUrl}/v1/admin/orgs/${bench.orgId}/domains/${DOMAIN}/hosting`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${bench.rootToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: true }),
  });
  const on = await res.json();
  if (!res.ok) throw new Error(`hosting: ${res.status} ${JSON.stringify(on)}`);
  const whole = await finished(bench, on.exportJob.jobId);
  const first = await servedPublish(bench);
  const wholeMs = performance.now() - started;

  // One page edited: a page of the first copy (or the fixture's quickstart).
  const page = ['part0/quickstart.mdx', 'quickstart.mdx'].map((p) => join(folder, p)).find(existsSync);
  writeFileSync(page, `${readFileSync(page, 'utf8')}\n\nThis sentence is new in the second version.\n`);
  const changeLog = join(logs, 'change.log');
  await bench.restart({ logFile: changeLog });
  const publishedMs = await bench.publish(folder);
  // The publish is live when `publish` returns: from here to the site serving it.
  const live = performance.now();
  const steps = timeSteps ? stepTimer(changeLog, live) : null;
  const manifest = await servedNext(bench, first.jobId);
  const changeMs = performance.now() - live;
  const changeSteps = steps?.stop();
  if (process.env.KEEP_LOG) cpSync(changeLog, process.env.KEEP_LOG);
  const change = await finished(bench, manifest.jobId);
  const figures = {
    site: label,
    pages: whole.pageCount,
    wholeMs: Math.round(wholeMs),
    wholeSiteWrites: whole.siteWrites,
    wholeExportWasmMemoryMiB: exportMemoryMiB(wholeLog),
    publishMs: Math.round(publishedMs),
    changeMs: Math.round(changeMs),
    changeSiteWrites: change.siteWrites,
    changePagesRendered: change.pagesRendered,
    changeExportWasmMemoryMiB: exportMemoryMiB(changeLog),
    changeOfWhole: Math.round((changeMs / wholeMs) * 1000) / 10,
    ...(changeSteps ? { changeSteps } : {}),
  };
  rmSync(logs, { recursive: true, force: true });
  console.log(JSON.stringify(figures));
}

/** Waits until the site serves an export other than `jobId`; its manifest. */
async function servedNext(bench, jobId) {
  for (;;) {
    const manifest = await servedPublish(bench);
    if (manifest.jobId !== jobId) return manifest;
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The scale sites exceed the platform-sized upload defaults (5 MiB upload, 9 MiB source).
const bench = await benchWorker({ vars: { MAX_UPLOAD_BYTES: String(128 << 20), MAX_SOURCE_BYTES: String(128 << 20) } });
try {
  if (copiesAt >= 0) {
    await eachScaleSite(args[copiesAt + 1].split(',').map(Number), (name, dir) => measure(bench, name, dir));
  } else {
    const dir = join(scratchDir('docs-edge-hosted-change-'), 'docs');
    cpSync(FIXTURE, dir, { recursive: true });
    try {
      await measure(bench, 'fixture', dir);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  }
} finally {
  await bench.stop();
}
