#!/usr/bin/env node
// Builds the worker with worker-build, offline, and skips the build when nothing it reads has changed.
// Run by wrangler's [build] command and by the start and test scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { root, toolEnv } from './lib/env.mjs';

const output = join(root, 'worker', 'build', 'index_bg.wasm');
const inputs = ['core/src', 'core/Cargo.toml', 'worker/src', 'worker/Cargo.toml', 'Cargo.toml', 'Cargo.lock'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newestMtime(join(path, name))), stat.mtimeMs);
}

export function workerIsBuilt() {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return inputs.every((p) => !existsSync(join(root, p)) || newestMtime(join(root, p)) <= built);
}

export function buildWorker({ force = false } = {}) {
  if (!force && workerIsBuilt()) return;
  const result = spawnSync('worker-build', ['--release'], {
    cwd: join(root, 'worker'),
    env: toolEnv(),
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    throw new Error(`worker-build failed with status ${result.status}`);
  }
  shrinkWasm(output);
}

/** wasm-opt -Oz without a names section, with the wasm features workerd supports (as worker-build
 * enables them). */
function shrinkWasm(path) {
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
