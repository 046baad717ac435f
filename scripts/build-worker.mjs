#!/usr/bin/env node
// Builds the worker with worker-build, offline, and skips the build when nothing it reads has changed.
// Run by wrangler's [build] command and by the start and test scripts.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { root, toolEnv } from './lib/env.mjs';

const output = join(root, 'worker', 'build', 'index_bg.wasm');
const inputs = ['core/src', 'core/Cargo.toml', 'worker/src', 'worker/openapi.json', 'worker/Cargo.toml', 'Cargo.toml', 'Cargo.lock'];

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
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    buildWorker({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
