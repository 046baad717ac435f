#!/usr/bin/env node
// Publishing real docs repositories file by file, as owners do with the publish command: the first
// publish of a folder (every file uploaded), then a re-publish after one page changed (that page and
// the manifest sent), each timed from the first request to live, with the bytes the client sent and
// the builder's wasm memory high-water (the largest `wasmMemoryBytes` of the phase's log lines, each
// phase in a fresh `wrangler dev` process so its isolates are its own). Default limits; remote
// dependencies are not fetched (no network here). Prints one JSON line per site; asserts nothing.
//   node bench/republish.mjs [folder ...] [--scale COPIES] [--pad-to MB]
// Default folders: the three fixtures in ../shared/fixtures. `--pad-to` adds media of random bytes to
// each copy (one of the largest size a file may have, 25 MiB, then 10 MiB ones) until it holds MB
// megabytes, as the heaviest real repositories do (107 MB seen, nearly all of it media).
import { appendFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { root } from '../scripts/lib/env.mjs';
import { bootstrap } from '../scripts/lib/bootstrap.mjs';
import { buildWorker } from '../scripts/build-worker.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { OperatorClient } from '../scripts/lib/operator.mjs';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { writableCopy } from '../tests/support/writable-copy.mjs';
import { FIXTURE, DOMAIN } from './support.mjs';

const args = process.argv.slice(2);
const scaleAt = args.indexOf('--scale');
const scale = scaleAt === -1 ? [] : args.splice(scaleAt, 2)[1].split(',').map(Number);
const padAt = args.indexOf('--pad-to');
const padToBytes = padAt === -1 ? 0 : Number(args.splice(padAt, 2)[1]) * 1e6;
const fixtures = join(root, '..', 'shared', 'fixtures');
const folders = args.length > 0 || scale.length > 0 ? args : readdirSync(fixtures).sort().map((name) => join(fixtures, name));

bootstrap({ quiet: true });
buildWorker();
const { publishFolder } = await import('../sdk-wasm/js/publish/index.js');

const mib = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

/** A phase in a worker process of its own on `state`: its result, and the high-water of its log. */
async function phase(state, vars, name, work) {
  const logFile = join(state, `${name}.log`);
  const worker = await startWorker({ persistTo: join(state, 'state'), logFile, vars });
  try {
    const result = await work(worker.baseUrl);
    await new Promise((r) => setTimeout(r, 1000));
    const lines = logLines(logFile);
    const steps = lines.filter((l) => l.event === 'publish_step');
    return {
      ...result,
      wasmMiB: mib(Math.max(0, ...lines.map((l) => l.wasmMemoryBytes ?? 0))),
      builderWasmMiB: mib(Math.max(0, ...steps.map((l) => l.wasmMemoryBytes ?? 0))),
      reusedPages: steps.reduce((sum, l) => sum + (l.reusedPages ?? 0), 0),
      steps: steps.map((l) => ({ step: l.step, ms: l.durationMs, phases: l.phasesMs, wasmMiB: mib(l.wasmMemoryBytes ?? 0) })),
    };
  } finally {
    await worker.stop();
  }
}

/** The first MDX page of the folder's listing, to touch (Markdown files such as README.md are often
 * ignored by default). */
function aPage(dir) {
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.shift();
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'snippets') continue;
      const path = join(rel, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.name.endsWith('.mdx')) return path;
    }
  }
  throw new Error(`${dir} has no page`);
}

function folderBytes(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** Media of random bytes (nothing compresses them) added to `dir` until it holds `bytes`. */
function padWithMedia(dir, bytes) {
  const into = join(dir, 'images', 'bench-padding');
  mkdirSync(into, { recursive: true });
  let total = folderBytes(dir);
  for (let i = 0; total < bytes; i++) {
    const size = i === 0 ? 25 * 1048576 : Math.min(10 * 1048576, bytes - total);
    writeFileSync(join(into, `clip-${i}.${i % 2 === 0 ? 'mp4' : 'gif'}`), randomBytes(size));
    total += size;
  }
  return total;
}

async function measure(name, source) {
  const state = scratchDir('docs-edge-republish-');
  const dir = writableCopy(source, join(state, 'docs'));
  const folderMB = Math.round((padToBytes > 0 ? padWithMedia(dir, padToBytes) : folderBytes(dir)) / 1e5) / 10;
  const vars = { ROOT_TOKEN: randomBytes(16).toString('hex'), LINK_SIGNING_KEY: randomBytes(16).toString('hex') };
  let adminKey;
  const publish = async (baseUrl) => {
    const started = performance.now();
    // The client's file-hash cache as an owner's machine keeps it, but in the scratch folder.
    const result = await publishFolder({ folder: dir, baseUrl, adminKey, domain: DOMAIN, noFetch: true, pollMs: 50, hashCacheDir: join(state, 'hash-cache') });
    return {
      ms: Math.round(performance.now() - started),
      pages: result.site.pageCount,
      warnings: result.site.warnings.length,
      files: result.filesTotal,
      uploaded: result.filesUploaded,
      sentBytes: result.bytesSent,
    };
  };
  const first = await phase(state, vars, 'first', async (baseUrl) => {
    const op = new OperatorClient(baseUrl, vars.ROOT_TOKEN);
    const org = await op.createOrg('bench', 'enterprise');
    await op.addDomain(org.orgId, DOMAIN);
    adminKey = (await op.createKey(org.orgId, 'admin')).key;
    return publish(baseUrl);
  });
  const page = aPage(dir);
  appendFileSync(join(dir, page), `\nA sentence added for the re-publish, ${Date.now()}.\n`);
  const again = await phase(state, vars, 'again', publish);
  console.log(JSON.stringify({ site: name, folderMB, touched: page, first, again, ratio: Math.round((again.ms / first.ms) * 100) / 100 }));
}

for (const folder of folders) await measure(folder.split('/').pop(), folder);
for (const copies of scale) {
  const site = writeScaleSite(FIXTURE, copies);
  await measure(`scale-${copies}x (${site.pages} pages)`, site.dir);
}
