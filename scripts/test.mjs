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
import { mkdtempSync, mkdirSync, readdirSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bootstrap } from './lib/bootstrap.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { root, nodeBin, toolEnv } from './lib/env.mjs';
import { buildWorker } from './build-worker.mjs';
import { buildSdk } from './build-sdk.mjs';
import { HOST_TEST_RUNS, cargoPackages } from './lib/host-tests.mjs';
import { startWorker } from './lib/worker-process.mjs';
import { runSchemathesis } from '../tests/contract/run-schemathesis.mjs';

function section(title) {
  console.log(`\n=== ${title}`);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, env: toolEnv(), stdio: 'inherit', ...options });
  return result.status === 0;
}

/** Like `run`, without blocking this process: the worker's log is collected here meanwhile. */
function runAsync(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: toolEnv(), stdio: 'inherit', ...options });
    child.on('exit', (code) => resolve(code === 0));
    child.on('error', () => resolve(false));
  });
}

/** `wrangler deploy --dry-run` bundles both scripts, and each one's wasm and JavaScript module stay
 * inside their size budgets. */
function deployBundleFits() {
  section('deploy bundles (wrangler deploy --dry-run, both scripts)');
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
// 10 MB paid); git log has the history of each figure. The request-serving script holds only what
// a reader's request needs: the admin routes' work (operator API, analytics report and CSV), the
// file stores' work and the storage sweep run in the builder behind the service binding
// (worker/src/builder_service.rs), leaving it at 391.1 KiB (gzip -9 of worker/build/index_bg.wasm
// after wasm-opt; encre-css left out: core feature `utilities` is the builder's only). The builder
// (the MDX parser, the index builder, the static renderer with icons, site chrome, API samples,
// math-core's LaTeX to MathML (about 70 KiB), encre-css's Tailwind utilities (about 76 KiB),
// multi-version exports and click-to-load embeds, tar and deflate, the admin routes) measured
// 883.8 KiB without Mermaid's renderer; with it (merman, 11 diagram families: core/Cargo.toml,
// docs/export/fidelity.mdx) 2764.5 KiB as `npm test` measured it, SVG files sanitised into the bundle and
// shared source packs included (the assembled concatenation parts merged after: about 3 KiB more) (gzip -9 of worker/build-builder/index_bg.wasm after wasm-opt; all 34 families measured
// 3.8 MiB before wasm-opt, the 11 3.0 MiB); 2794.4 KiB with remote images as click-to-load
// placeholders and their img-src origins, docs.json `theme` rules and the readable Tailwind text
// colours (budget 2790 -> 2800 for them). The JavaScript modules (wasm-bindgen's glue and
// worker-build's shim; in the builder also highlight.js with the grammars worker/src/highlight.mjs
// registers) measure 10.5 and 58.3 KiB.
const BUDGET_KIB = { edge: { wasm: 410, js: 12 }, builder: { wasm: 2800, js: 62 } };

// `npm test -- tests/x.test.mjs ...` runs only those integration files, without the host tests, the
// deploy check and schemathesis: the quick loop while working on one endpoint.
const only = process.argv.slice(2);

async function main() {
  section('bootstrap');
  bootstrap({ contractTests: true, postgres: true });

  section('PostgreSQL for the storage tests (a throwaway cluster)');
  const started = Date.now();
  const postgres = await startPostgres();
  console.log(`PostgreSQL is up at ${postgres.url} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  // The host tests and the integration tests both read it; set here, neither can leave PostgreSQL out.
  process.env.DOCS_EDGE_TEST_POSTGRES_URL = postgres.url;
  try {
    return await testsWithPostgres();
  } finally {
    postgres.stop();
  }
}

async function testsWithPostgres() {
  if (only.length === 0) {
    section('host tests (cargo test)');
    if (!HOST_TEST_RUNS.every((packages) => run('cargo', ['test', ...cargoPackages(packages), '--quiet']))) return 1;
  }

  section('build the worker');
  buildWorker();

  if (only.length === 0 && !deployBundleFits()) return 1;

  // tests/selfhost.test.mjs and tests/export.test.mjs run it. A debug build: it compiles in a fraction of the release time.
  section('build docs-edge-serve');
  if (!run('cargo', ['build', '-p', 'docs-edge-serve', '--quiet'])) return 1;

  section('build the SDK package');
  await buildSdk();

  section('integration tests against wrangler dev');
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
  const worker = await startWorker({ persistTo: state, vars: secrets, logFile, testScheduled: true });
  try {
    const files = only.length > 0 ? only : readdirSync(join(root, 'tests'))
      .filter((f) => f.endsWith('.test.mjs'))
      .map((f) => join('tests', f));
    const ok = await runAsync(process.execPath, ['--test', '--test-concurrency=1', ...files], {
      env: {
        ...toolEnv(),
        BASE_URL: worker.baseUrl,
        ROOT_TOKEN: secrets.ROOT_TOKEN,
        LINK_SIGNING_KEY: secrets.LINK_SIGNING_KEY,
        WORKER_LOG: logFile,
        TEST_STATE_DIR: state,
        // The publish client's file-hash caches (sdk-wasm/js/publish/hash-cache.js) go with the state.
        XDG_CACHE_HOME: join(state, 'cache'),
      },
    });
    if (only.length > 0) return ok ? 0 : 1;
    section('contract fuzzing (schemathesis) against wrangler dev');
    const fuzzed = await runSchemathesis({
      baseUrl: worker.baseUrl,
      rootToken: secrets.ROOT_TOKEN,
      reportDir: join(artifacts, 'schemathesis'),
    });
    return ok && fuzzed ? 0 : 1;
  } finally {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
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
