#!/usr/bin/env node
// `npm test`: everything, on a fresh machine. Bootstraps, runs the host `cargo test`s, builds the worker,
// checks that `wrangler deploy` can bundle it, builds docs-edge-serve and the SDK package, starts the
// worker under `wrangler dev` on a free loopback port with a throwaway state folder, runs the HTTP, SDK
// (Node and Chromium), self-hosting and web demo tests against it (each response checked against
// docs/openapi.json), then schemathesis against the same worker, and stops it whatever happens. A
// throwaway PostgreSQL cluster, started first, is where the storage tests run a second time
// (DOCS_EDGE_TEST_POSTGRES_URL); should it not start, the run fails.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bootstrap } from './lib/bootstrap.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { root, nodeBin, toolEnv } from './lib/env.mjs';
import { buildSdk } from './build-sdk.mjs';
import { HOST_TEST_RUNS, SERVE_TEST_RUN, cargoPackages } from './lib/host-tests.mjs';
import { startWorker } from './lib/worker-process.mjs';
import { runTestFiles } from './lib/test-files.mjs';
import { cacheRoot, cargoTargetDir, hostCargoEnv, withCargoSources } from './lib/build-cache.mjs';
import { runSchemathesis } from '../tests/contract/run-schemathesis.mjs';

const phases = [];
const runStarted = Date.now();

/** Runs one phase of the run under a heading, and records its wall time for the closing table. */
async function phase(title, body) {
  console.log(`\n=== ${title}`);
  const started = Date.now();
  try {
    return await body();
  } finally {
    const seconds = (Date.now() - started) / 1000;
    phases.push({ title, seconds });
    console.log(`=== ${title}: ${seconds.toFixed(1)} s`);
  }
}

/** `cmd` as a child, without blocking this process; `capture` keeps its output for the caller
 * instead of printing it (a phase that runs beside another). Resolves `{ ok, output }`. */
function runAsync(cmd, args, { capture = false, env = toolEnv() } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (capture) {
      child.stdout.on('data', (chunk) => { output += chunk; });
      child.stderr.on('data', (chunk) => { output += chunk; });
    }
    child.on('exit', (code) => resolve({ ok: code === 0, output }));
    child.on('error', (err) => resolve({ ok: false, output: `${output}${err.stack}\n` }));
  });
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, env: toolEnv(), stdio: 'inherit', ...options });
  return result.status === 0;
}

/** `wrangler deploy --dry-run` bundles both scripts, and each one's wasm and JavaScript module stay
 * inside their size budgets. */
function deployBundleFits() {
  return Object.entries(BUDGET_KIB).every(([script, budget]) => bundleFits(script, budget));
}

function bundleFits(script, budget) {
  const outdir = mkdtempSync(join(tmpdir(), 'docs-edge-deploy-'));
  try {
    if (!run(join(nodeBin, 'wrangler'), ['deploy', '--dry-run', '--outdir', outdir, '-c', SCRIPT_CONFIGS[script]])) return false;
    const wasm = readdirSync(outdir).find((f) => f.endsWith('.wasm'));
    if (!wasm) {
      console.error(`the ${script} deploy bundle has no .wasm module`);
      return false;
    }
    const gzipped = (file) => gzipSync(readFileSync(join(outdir, file)), { level: 9 }).length;
    const size = { wasm: gzipped(wasm), js: gzipped('index.js') };
    const kib = (bytes) => (bytes / 1024).toFixed(1);
    console.log(`${script} worker wasm: ${kib(size.wasm)} KiB gzipped (budget ${budget.wasm} KiB), JavaScript ${kib(size.js)} KiB (budget ${budget.js} KiB), together ${kib(size.wasm + size.js)} KiB`);
    const over = Object.keys(size).filter((part) => size[part] > budget[part] * 1024);
    if (over.length > 0) {
      console.error(`the ${script} worker's ${over.join(' and ')} is over its size budget`);
      return false;
    }
    return true;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const SCRIPT_CONFIGS = { edge: 'wrangler.toml', builder: 'wrangler.builder.toml' };

// Guards against unexplained growth (Cloudflare allows 3 MB gzipped per script on the free plan,
// 10 MB paid). The request-serving script holds only what a reader's request needs, hosted sites'
// pages from R2 included (worker/src/edge/hosted_site.rs: a third script would add a hop to every page).
// The admin routes' work (the operator API with the hosting settings, the analytics report), the
// file stores' work (a `.tar.gz` upload, files, manifests), the rebuild of a version from an earlier
// release and the storage sweep run in the builder behind the service binding
// (worker/src/builder/service.rs), beside the MDX parser, the index builder and the static renderer
// (Mermaid's renderer, LaTeX to MathML, Tailwind utilities; highlight.js in its JavaScript module).
// `npm test` prints what each part measures; the figures: docs/engineering/figures.mdx, "Size"; how
// they got there: git log. The request-serving script's 450 KiB is the ceiling shared by the
// assistant's answers, its parity with Mintlify's and the live site (issues 46, 48, 50); wasm-opt's
// `--low-memory-unused` and the two metadata sections it strips (scripts/build-worker.mjs) save 2.0
// KiB of it. The builder's budget: the work above is rare (operator calls, publishes, an old version's one
// rebuild), and keeping it there is what keeps the request-serving script small (the hosting
// settings, storing uploads and rebuilding old versions take about 28 KiB of the builder and would
// take about 19 of the request-serving script; the live pointer's rollback and the sweep of retired
// exports take 6.8) and the semantic stage's publish side (the WordPiece tokenizer, the model
// reader, chunk vectors: 6.1), the hosted exports' delta listing for mirrors (each file hashed, large
// ones cut into content-defined chunks as they are written: builder/export_job/delta_listing.rs, 6.1)
// and previews with the start of a hosted site's export when a publish goes live (moved here from the
// request-serving script, which it left 1.3 KiB smaller: 5.8), the search packs laid out for
// mirrors by delta (postings by page and place, the meta's lengths, the shards' cut mark: 2.7; one
// changed page of the 10x site then costs a mirror 0.57% of the bundle instead of 1.74%), and the
// live site's incremental export (an export writes only the files its base lacks, reading the live
// export's listing; batches of pages keyed by their inputs and taken from the live export, which
// links the outline's serializer; the copy streaming large text files: 10.0 by gzip -9 of the wasm).
// the per-batch products (each batch's search sections, referenced files and llms-full.txt share
// stored beside its part and folded in by the finishing step, taken with a reused batch, and a taken
// part listed unread: 7.9): one changed page of the 10x site's finishing step no longer parses its
// 10,203 pages again, and its copy no longer inflates and hashes the ~100 unchanged parts (figures:
// docs/engineering/figures.mdx); then the one-page export's speed-ups (the offline index's postings
// in a hash map, the large files and chunks hashed by the runtime's SHA-256, a taken part's file
// list read alone, each batch keyed once: 8.3, 2,895.7 -> 2,904.0 by Node's gzip -9 of the wasm):
// one changed page of the 10x site live in 15.8 s on a quiet machine (17.5% of a whole export;
// 22.7 s, 21.6% before), at load 3-5 18.5 s instead of 44.0 s, the finishing step 11.7 -> 5.5 s
// and the site's files 15.2 -> 5.3 s (bench/hosted-change.mjs --copies 40 --steps); then the
// batches a hosted export takes from the live export named where that export stored them and
// copied after the switch (builder/export_job/batch_reuse.rs: 0.5, 2,904.0 -> 2,904.5): taking the
// 10x site's 102 unchanged batches 3.3 -> 1.2 s, one changed page live in 13.6 s at load 1-2.5;
// then a code block's title kept in the indexed section text and left out of search's words, and
// Mermaid diagrams' non-ASCII spaces made plain before merman reads them (its ER lexer panicked on
// U+2000 and ended the export): 0.7, 2,904.5 -> 2,905.2; then a hosted export's search packs
// written to the site from the version's packs, their pieces compressed into reserved parts after
// the switch, a cancel after the switch answered 409, the finishing fold reading the next batch's
// products ahead and a file's chunks hashed 32 at once (builder/export_job/site_packs.rs: 5.0,
// 2,905.2 -> 2,910.2): one changed page of the 10x site live in 13.3 s instead of 18.7 s, the code
// before run just before it (load 2-4; no search step before the switch, was 2.8 s); then the
// export a hosted site serves kept past the export retention (its host named beside its parts, read
// by the sweep and the bundle call: 0.3) with this round's answer rules in the core the builder links
// (0.5): 2,910.2 -> 2,911.0, so that a site published less often than the retention still takes
// its unchanged pages and its live export's bundle still mints; then each batch's share of the
// offline search index stored with its products and merged by the finishing step, a hosted site's
// large files stored as segments, batch keys hashed by the runtime (7.3: 2,911.0 -> 2,918.3): one
// changed page of the 10x site live in 5.9 s, 9% of a whole export, instead of 8.5 s, 14%, on a
// quiet machine (issue 50's last point). The wasm-opt
// flags above save 16 KiB of the builder. Cloudflare's
// ceiling for a Worker on the free plan is 3 MiB gzipped, wasm and JavaScript together: 2,919 + 62
// KiB leaves 91 KiB of it.
const BUDGET_KIB = { edge: { wasm: 450, js: 12 }, builder: { wasm: 2919, js: 62 } };

/** The test file that runs with the host tests, before the worker starts (clippy's runs). */
const BEFORE_WORKER_FILE = 'rust-lints.test.mjs';

// `npm test -- tests/x.test.mjs ...` runs only those integration files, without the host tests, the
// deploy check and schemathesis: the quick loop while working on one endpoint.
const only = process.argv.slice(2);

async function main() {
  await phase('bootstrap', () => bootstrap({ contractTests: true, postgres: true }));
  const postgres = await phase('PostgreSQL for the storage tests (a throwaway cluster)', async () => {
    const started = await startPostgres();
    console.log(`PostgreSQL is up at ${started.url}`);
    return started;
  });
  // The host tests and the integration tests both read it; set here, neither can leave PostgreSQL out.
  process.env.DOCS_EDGE_TEST_POSTGRES_URL = postgres.url;
  try {
    return await testsWithPostgres();
  } finally {
    postgres.stop();
    printTimings();
  }
}

async function testsWithPostgres() {
  // The Worker scripts build in a target folder of their own (nightly, wasm32), so on a machine with
  // nothing built they compile beside the host tests, each using the core the other leaves idle
  // (links, LTO and wasm-opt run on one). Their output is printed when they end.
  const workerBuilt = phase('build the worker (beside the host tests)', async () => {
    const built = await runAsync(process.execPath, [join(root, 'scripts', 'build-worker.mjs')], { capture: true });
    process.stdout.write(built.output);
    return built.ok;
  });
  let hostOk;
  try {
    hostOk = only.length > 0 || await phase('host tests (cargo test, then clippy)', () => withCargoSources(async () => {
      for (const packages of HOST_TEST_RUNS) {
        if (!(await runAsync('cargo', ['test', ...cargoPackages(packages), '--quiet'], { env: toolEnv(hostCargoEnv) })).ok) return false;
      }
      // Clippy's runs take the cargo sources' hold, which may set the sources' modification times;
      // under wrangler dev that restarts the worker mid-test (503s), so they run here, beside the
      // worker's build, before it starts.
      return (await runAsync(process.execPath, ['--test', join('tests', BEFORE_WORKER_FILE)])).ok;
    }));
  } finally {
    hostOk = (await workerBuilt) && hostOk;
  }
  if (!hostOk) return 1;

  if (only.length === 0 && !await phase('deploy bundles (wrangler deploy --dry-run, both scripts)', deployBundleFits)) return 1;

  // tests/selfhost.test.mjs and tests/export.test.mjs run it: the binary the host tests built
  // (serve/tests/cli.rs makes `cargo test` build it), so this finds it fresh after them.
  if (!await phase('build docs-edge-serve', () => withCargoSources(() => run('cargo', ['test', ...cargoPackages(SERVE_TEST_RUN), '--no-run', '--quiet'], { env: toolEnv(hostCargoEnv) })))) return 1;

  await phase('build the SDK package', () => buildSdk());

  const artifacts = join(root, 'test-artifacts');
  mkdirSync(artifacts, { recursive: true });
  const state = mkdtempSync(join(tmpdir(), 'docs-edge-state-'));
  const logFile = join(artifacts, 'worker.log');
  rmSync(logFile, { force: true });
  const secrets = {
    ROOT_TOKEN: randomBytes(24).toString('hex'),
    LINK_SIGNING_KEY: randomBytes(24).toString('hex'),
    ANALYTICS_SALT: randomBytes(24).toString('hex'),
  };
  // An operator's masking pattern, which tests/privacy.test.mjs checks is applied.
  // Previews are served under `preview.test` (tests/hosting-preview.test.mjs).
  const vars = { ...secrets, PRIVACY_MASK_PATTERNS: 'cust_*', PREVIEW_HOST_SUFFIX: 'preview.test' };
  const worker = await phase('start the shared worker (wrangler dev)', () => startWorker({ persistTo: state, vars, logFile, testScheduled: true }));
  try {
    const files = only.length > 0 ? only : longestFirst(readdirSync(join(root, 'tests'))
      .filter((f) => f.endsWith('.test.mjs') && f !== BEFORE_WORKER_FILE)
      .map((f) => join('tests', f)));
    const results = await phase('integration tests against wrangler dev', () => runTestFiles(files, {
      concurrency: TEST_FILE_CONCURRENCY,
      serial: SERIAL_FILES,
      cwd: root,
      env: {
        ...toolEnv(),
        BASE_URL: worker.baseUrl,
        ROOT_TOKEN: secrets.ROOT_TOKEN,
        LINK_SIGNING_KEY: secrets.LINK_SIGNING_KEY,
        WORKER_LOG: logFile,
        TEST_STATE_DIR: state,
        SERVE_BIN: join(cargoTargetDir, 'debug', 'docs-edge-serve'),
        // The publish client's file-hash caches (sdk-wasm/js/publish/hash-cache.js) go with the state.
        XDG_CACHE_HOME: join(state, 'cache'),
      },
    }));
    fileResults.push(...results);
    const ok = results.every((r) => r.ok);
    if (only.length > 0) return ok ? 0 : 1;
    const fuzzed = await phase('contract fuzzing (schemathesis) against wrangler dev', () => runSchemathesis({
      baseUrl: worker.baseUrl,
      rootToken: secrets.ROOT_TOKEN,
      reportDir: join(artifacts, 'schemathesis'),
    }));
    return ok && fuzzed ? 0 : 1;
  } finally {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
  }
}

// Test files at once against the shared worker (each file's tenants are its own), on CI's two cores.
const TEST_FILE_CONCURRENCY = Math.max(1, Number.parseInt(process.env.DOCS_EDGE_TEST_CONCURRENCY ?? '2', 10) || 1);

// Files that read the shared worker's log, trigger its cron handlers or measure its isolate's
// memory: another file's requests would show in what they read, so they run alone.
const SERIAL_FILES = new Set([
  'auth.test.mjs', 'foundation.test.mjs', 'publish-incremental.test.mjs', 'site-upgrade.test.mjs',
  'analytics.test.mjs', 'platform-limits.test.mjs',
]);

const fileResults = [];

// Each file's time in the machine's last run, kept in the build cache: a fresh clone on the same
// machine starts the longest files first too.
const lastTimings = join(cacheRoot, 'test-file-seconds.json');

/** `files` with the longest first by the last run's times (new files first of all), so that two at
 * a time end close together. */
function longestFirst(files) {
  let seconds = {};
  try {
    seconds = JSON.parse(readFileSync(lastTimings, 'utf8'));
  } catch {
    return files;
  }
  return [...files].sort((a, b) => (seconds[b] ?? Infinity) - (seconds[a] ?? Infinity) || a.localeCompare(b));
}

/** The phase table, the ten slowest test files and the totals; also written to
 * test-artifacts/timings.json, where a later run can be compared with this one. */
function printTimings() {
  const rows = (items, label) => items.map((item) => `  ${item.seconds.toFixed(1).padStart(8)} s  ${item[label]}`).join('\n');
  const total = (Date.now() - runStarted) / 1000;
  console.log(`\n=== timings (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})\nphases (the Worker's build runs beside the host tests):\n${rows(phases, 'title')}\n  ${total.toFixed(1).padStart(8)} s  in all, wall time`);
  const slowest = [...fileResults].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  if (slowest.length > 0) console.log(`slowest test files:\n${rows(slowest, 'file')}`);
  mkdirSync(join(root, 'test-artifacts'), { recursive: true });
  writeFileSync(join(root, 'test-artifacts', 'timings.json'), JSON.stringify({
    phases, files: fileResults.map(({ file, seconds, ok, pass, fail, skipped }) => ({ file, seconds, ok, pass, fail, skipped })),
  }, null, 1));
  if (fileResults.length > 0 && only.length === 0) {
    mkdirSync(cacheRoot, { recursive: true });
    writeFileSync(lastTimings, JSON.stringify(Object.fromEntries(fileResults.map((r) => [r.file, r.seconds]))));
  }
  if (fileResults.length > 0) {
    const sum = (key) => fileResults.reduce((n, r) => n + r[key], 0);
    const failed = fileResults.filter((r) => !r.ok).map((r) => r.file);
    if (failed.length > 0) console.log(`failed files: ${failed.join(', ')}`);
    console.log(`integration: ${sum('pass')} passed, ${sum('fail')} failed, ${sum('skipped')} skipped`);
  }
}

// Everything the run's tools and tests put in the system's temporary folder (wrangler dev's state,
// unpacked bundles, Chromium profiles, cargo tests' folders) goes under one folder, removed at the end:
// CI machines have little disk to spare, and a run that is killed leaves one folder, not hundreds.
function inRunScratch(body) {
  const scratch = mkdtempSync(join(tmpdir(), 'docs-edge-test-run-'));
  process.env.TMPDIR = scratch;
  // A full run builds each crate once: incremental caches would only add gigabytes to target/.
  process.env.CARGO_INCREMENTAL ??= '0';
  const done = () => rmSync(scratch, { recursive: true, force: true });
  return body().finally(done);
}

inRunScratch(main).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err.stack || err.message);
    process.exit(1);
  },
);
