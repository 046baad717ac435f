#!/usr/bin/env node
// Builds the worker with worker-build, offline, and skips the build when nothing it reads has changed
// (the machine's build cache, lib/build-cache.mjs).
// Run by wrangler's [build] command and by the start and test scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIcons } from './build-icons.mjs';
import { panicUnwind, pins, root, toolEnv } from './lib/env.mjs';
import { contentHash, restoreOutput, storeOutput, withCargoSourcesSync, withLock, workerCargoEnv, cacheRoot } from './lib/build-cache.mjs';

/** The two Worker scripts built from the worker crate (worker/src/lib.rs): `edge` serves requests
 * (wrangler.toml), `builder` publishes and exports sites (wrangler.builder.toml). */
export const scripts = {
  edge: { outDir: 'build', cargoArgs: [] },
  builder: { outDir: 'build-builder', cargoArgs: ['--no-default-features', '--features', 'builder'] },
};

/** The optimized wasm of a script, as deployed. */
export function wasmPath(script = 'edge') {
  return join(root, 'worker', scripts[script].outDir, 'index_bg.wasm');
}
/** `unwind` or `abort`: how the build in worker/build handles a panic (read by tests/panic.test.mjs). */
const strategyFile = join(root, 'worker', 'build', 'panic-strategy');

export function builtPanicStrategy() {
  return existsSync(strategyFile) ? readFileSync(strategyFile, 'utf8').trim() : 'abort';
}
// package-lock.json: the builder script bundles highlight.js from node_modules (worker/src/builder/highlight.mjs).
const inputs = ['core/src', 'core/build.rs', 'core/source_hash.rs', 'core/Cargo.toml', 'worker/src', 'worker/build.rs', 'worker/Cargo.toml', 'Cargo.toml', 'Cargo.lock', 'package-lock.json'];

/** What a script's build is made from: the sources, the toolchain, the tools, the flags. */
function buildKey(script, unwind, env) {
  const rustc = spawnSync('rustc', ['-vV'], { env, encoding: 'utf8' }).stdout ?? '';
  return contentHash([...inputs, 'scripts/build-worker.mjs'], [
    script, JSON.stringify(scripts[script].cargoArgs), unwind ? 'unwind' : 'abort', env.RUSTFLAGS ?? '', rustc,
    JSON.stringify(pins), process.env.DOCS_EDGE_SKIP_WASM_OPT === '1' ? 'no-wasm-opt' : 'wasm-opt',
    readFileSync(join(root, 'node_modules', 'binaryen', 'package.json'), 'utf8'),
  ]);
}

export function buildWorker({ force = false } = {}) {
  withLock(join(root, 'worker', '.build-lock'), () => buildBoth(force));
}

function buildBoth(force) {
  copyExportStatic();
  copySemanticModel();
  copyOpenApi();
  buildIcons();
  // --panic-unwind (the default where nightly is ready, lib/env.mjs panicUnwind): nightly with rust-src rebuilds std with
  // panic=unwind, so a panic becomes an error of the one call that panicked (app.rs turns it into a
  // 500) instead of trapping the Wasm instance and every request and stream in flight in it.
  // -Zpanic-in-drop=abort: drop glue gets no unwind paths (a panic inside a Drop traps, as every panic
  // does under panic=abort), measured 24 KiB gzipped smaller. -Zlocation-detail=none: panic messages
  // keep their text but not the file and line of every panic site, which otherwise fill the data
  // section. (std's optimize_for_size feature would save 25 KiB gzipped but made publishing through
  // the worker 1.7x slower: docs/engineering/decisions.mdx, "The worker's size".)
  // -Zfmt-debug=shallow: a derived Debug prints only the
  // type's or variant's name, which drops every derived Debug's field names and formatting code
  // (3.7 KiB gzipped); log lines format errors with Display, and `{:?}` of strings is unchanged.
  // RUSTUP_TOOLCHAIN: worker-build's own
  // `cargo metadata` runs with these RUSTFLAGS too, and only nightly accepts -Z.
  // -inline-threshold=0: LLVM inlines only what it inlines at no cost in size (single callers, trivial
  // bodies) instead of up to its minsize threshold; 2.9 KiB gzipped smaller, publish and search as
  // fast (docs/engineering/decisions.mdx, "The worker's size").
  const unwind = panicUnwind();
  const sizeFlags = ['-Cllvm-args=-inline-threshold=0'];
  const env = unwind
    ? toolEnv({ ...workerCargoEnv, RUSTUP_TOOLCHAIN: 'nightly', RUSTFLAGS: [process.env.RUSTFLAGS, '-Zpanic-in-drop=abort', '-Zlocation-detail=none', '-Zfmt-debug=shallow', ...sizeFlags].filter(Boolean).join(' ') })
    : toolEnv({ ...workerCargoEnv, RUSTFLAGS: [process.env.RUSTFLAGS, ...sizeFlags].filter(Boolean).join(' ') });
  // Each script's output is restored from the machine's build cache when the same inputs built it
  // before (scripts/lib/build-cache.mjs); the two share the Worker's target folder, each feature set
  // keeping its own artifacts.
  for (const script of ['builder', 'edge']) {
    const { outDir, cargoArgs } = scripts[script];
    const cached = { name: `worker-${script}`, key: buildKey(script, unwind, env), outDir: join(root, 'worker', outDir) };
    if (!force && restoreOutput(cached)) continue;
    // One Worker build at a time on the machine: the two scripts share the target folder's uplifted
    // `docs_edge_worker.wasm`, which another checkout's build could replace before wasm-bindgen reads it.
    withCargoSourcesSync(() => withLock(join(cacheRoot, 'worker-build.lock'), () => {
      const result = spawnSync('worker-build', ['--release', ...(unwind ? ['--panic-unwind'] : []), '--out-dir', outDir, ...cargoArgs], {
        cwd: join(root, 'worker'),
        env,
        stdio: 'inherit',
      });
      if (result.status !== 0) {
        throw new Error(`worker-build (${script}) failed with status ${result.status}`);
      }
    }));
    shrinkWasm(wasmPath(script));
    if (script === 'edge') writeFileSync(strategyFile, unwind ? 'unwind\n' : 'abort\n');
    storeOutput(cached);
  }
}

/** Core's static export stylesheets and scripts stay where they are edited (core/src/export/static,
 * embedded by the native builds); the worker reads them from its assets instead of carrying them in
 * its wasm (worker/src/shared/assets.rs). Synced on every build so the assets never lag behind. */
function copyExportStatic() {
  syncFolder(join(root, 'core', 'src', 'export', 'static'), join(root, 'worker', 'public', 'export-static'));
}

/** The search's semantic stage model (core/models, compiled into the native builds) is read by
 * both scripts from their assets (worker/src/shared/semantic_model.rs): 2.2 MB that no wasm carries. */
function copySemanticModel() {
  syncFolder(join(root, 'core', 'models'), join(root, 'worker', 'public', 'semantic'));
}

/** The API reference is kept once, in the docs site (`docs/openapi.json`, which its API pages are
 * generated from); the worker serves it from its assets (worker/src/edge/routes/openapi.rs). */
function copyOpenApi() {
  syncFile(join(root, 'docs', 'openapi.json'), join(root, 'worker', 'public', 'openapi.json'));
}

/** Makes `to` a copy of `from`, writing only files whose content differs and removing those `from`
 * lacks: a worker under `wrangler dev` serves these assets while another one starts (each start runs
 * this build), and an unchanged file is never rewritten under it. */
function syncFolder(from, to) {
  mkdirSync(to, { recursive: true });
  const names = new Set(readdirSync(from));
  for (const name of readdirSync(to)) if (!names.has(name)) rmSync(join(to, name), { recursive: true, force: true });
  for (const name of names) {
    if (statSync(join(from, name)).isDirectory()) syncFolder(join(from, name), join(to, name));
    else syncFile(join(from, name), join(to, name));
  }
}

function syncFile(from, to) {
  const content = readFileSync(from);
  if (existsSync(to) && readFileSync(to).equals(content)) return;
  const partial = `${to}.partial-${process.pid}`;
  writeFileSync(partial, content);
  renameSync(partial, to);
}

/** wasm-opt -Oz without a names section, with the wasm features workerd supports (as worker-build
 * enables them). `--low-memory-unused` lets it fold a constant under 1,024 added to an address into the
 * access's offset: the two differ only when the addition wraps past 4 GiB into the first KiB, which
 * Rust's pointers never do (an object never spans the end of the address space). The producers and
 * target-features sections are metadata no runtime reads. Together 2.2 KiB gzipped of the
 * request-serving script. */
function shrinkWasm(path) {
  // A developer's switch for quick rebuilds while iterating (wasm-opt takes minutes on a loaded
  // machine); the result is larger and slower than what deploys, so never for size checks or benches.
  if (process.env.DOCS_EDGE_SKIP_WASM_OPT === '1') {
    console.warn(`wasm-opt skipped (DOCS_EDGE_SKIP_WASM_OPT=1): ${path} is not the deployable size`);
    return;
  }
  const features = ['mutable-globals', 'sign-ext', 'nontrapping-float-to-int', 'bulk-memory', 'multivalue',
    'reference-types', 'exception-handling'].map((f) => `--enable-${f}`);
  const tmp = `${path}.opt`;
  const result = spawnSync(toolEnv().WASM_OPT_BIN, [path, '-o', tmp, '-Oz', '--low-memory-unused', '--strip-producers', '--strip-target-features', ...features], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`wasm-opt failed with status ${result.status}`);
  renameSync(tmp, path);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    buildWorker({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
