#!/usr/bin/env node
// Builds the worker with worker-build, offline, and skips the build when nothing it reads has changed.
// Run by wrangler's [build] command and by the start and test scripts.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIcons } from './build-icons.mjs';
import { panicUnwind, root, toolEnv } from './lib/env.mjs';

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
// package-lock.json: the builder script bundles highlight.js from node_modules (worker/src/highlight.mjs).
const inputs = ['core/src', 'core/Cargo.toml', 'worker/src', 'worker/Cargo.toml', 'Cargo.toml', 'Cargo.lock', 'package-lock.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), stat.mtimeMs);
}

export function workerIsBuilt() {
  if (builtPanicStrategy() !== (panicUnwind() ? 'unwind' : 'abort')) return false;
  return Object.keys(scripts).every((script) => {
    const output = wasmPath(script);
    if (!existsSync(output)) return false;
    const built = statSync(output).mtimeMs;
    return inputs.every((p) => !existsSync(join(root, p)) || newestMtime(join(root, p)) <= built);
  });
}

export function buildWorker({ force = false } = {}) {
  withBuildLock(() => buildBoth(force));
}

/** `wrangler dev` runs each config's [build] command, so the two scripts' configs start this twice at
 * once (on start and on every watched change): the second waits for the first, then finds the build
 * up to date. The lock names its holder's pid; a lock whose holder is gone (a killed `wrangler dev`
 * kills its build) is taken over. */
function withBuildLock(build) {
  const lock = join(root, 'worker', '.build-lock');
  const owner = join(lock, 'pid');
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (!holderAlive(lock, owner)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Whether the pid in `owner` runs. A lock just made may not have its pid yet: alive for its first
 * ten seconds. */
function holderAlive(lock, owner) {
  let pid;
  try {
    pid = Number(readFileSync(owner, 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function buildBoth(force) {
  copyExportStatic();
  copyOpenApi();
  buildIcons();
  if (!force && workerIsBuilt()) return;
  // --panic-unwind (the default where nightly is ready, lib/env.mjs panicUnwind): nightly with rust-src rebuilds std with
  // panic=unwind, so a panic becomes an error of the one call that panicked (app.rs turns it into a
  // 500) instead of trapping the Wasm instance and every request and stream in flight in it.
  // -Zpanic-in-drop=abort: drop glue gets no unwind paths (a panic inside a Drop traps, as every panic
  // does under panic=abort), measured 24 KiB gzipped smaller. -Zlocation-detail=none: panic messages
  // keep their text but not the file and line of every panic site, which otherwise fill the data
  // section. (std's optimize_for_size feature would save 25 KiB gzipped but made publishing through
  // the worker 1.7x slower: README "Figures".) -Zfmt-debug=shallow: a derived Debug prints only the
  // type's or variant's name, which drops every derived Debug's field names and formatting code
  // (3.7 KiB gzipped); log lines format errors with Display, and `{:?}` of strings is unchanged.
  // RUSTUP_TOOLCHAIN: worker-build's own
  // `cargo metadata` runs with these RUSTFLAGS too, and only nightly accepts -Z.
  // -inline-threshold=0: LLVM inlines only what it inlines at no cost in size (single callers, trivial
  // bodies) instead of up to its minsize threshold; 2.9 KiB gzipped smaller, publish and search as
  // fast (README "Worker size, cut by cut").
  const unwind = panicUnwind();
  const sizeFlags = ['-Cllvm-args=-inline-threshold=0'];
  const env = unwind
    ? toolEnv({ RUSTUP_TOOLCHAIN: 'nightly', RUSTFLAGS: [process.env.RUSTFLAGS, '-Zpanic-in-drop=abort', '-Zlocation-detail=none', '-Zfmt-debug=shallow', ...sizeFlags].filter(Boolean).join(' ') })
    : toolEnv({ RUSTFLAGS: [process.env.RUSTFLAGS, ...sizeFlags].filter(Boolean).join(' ') });
  // Both scripts, one after the other: they share the target folder (each feature set keeps its own
  // artifacts), and the builder first, so worker/build (what wrangler.toml serves) is written last.
  for (const script of ['builder', 'edge']) {
    const { outDir, cargoArgs } = scripts[script];
    const result = spawnSync('worker-build', ['--release', ...(unwind ? ['--panic-unwind'] : []), '--out-dir', outDir, ...cargoArgs], {
      cwd: join(root, 'worker'),
      env,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      throw new Error(`worker-build (${script}) failed with status ${result.status}`);
    }
    shrinkWasm(wasmPath(script));
  }
  writeFileSync(strategyFile, unwind ? 'unwind\n' : 'abort\n');
}

/** Core's static export stylesheets and scripts stay where they are edited (core/src/export/static,
 * embedded by the native builds); the worker reads them from its assets instead of carrying them in
 * its wasm (worker/src/assets.rs). Copied on every build so the assets never lag behind. */
function copyExportStatic() {
  const from = join(root, 'core', 'src', 'export', 'static');
  const to = join(root, 'worker', 'public', 'export-static');
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}

/** The API reference is kept once, in the docs site (`docs/openapi.json`, which its API pages are
 * generated from); the worker serves it from its assets (worker/src/routes/openapi.rs). */
function copyOpenApi() {
  copyFileSync(join(root, 'docs', 'openapi.json'), join(root, 'worker', 'public', 'openapi.json'));
}

/** wasm-opt -Oz without a names section, with the wasm features workerd supports (as worker-build
 * enables them). */
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
  const result = spawnSync(toolEnv().WASM_OPT_BIN, [path, '-o', tmp, '-Oz', ...features], { stdio: 'inherit' });
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
