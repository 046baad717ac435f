// Paths and environment shared by the scripts: where the pinned tools live and how to keep wrangler
// and worker-build off the network.
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheEnv } from './build-cache.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cargoBin = join(process.env.CARGO_HOME || join(homedir(), '.cargo'), 'bin');
export const nodeBin = join(root, 'node_modules', '.bin');
/** Debian's Chromium, installed by bootstrap, driven by playwright-core in the browser tests. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const pins = {
  wasmBindgen: '0.2.130',
  workerBuild: '0.8.7',
};

/** Environment for anything that builds or runs the worker: local tools first, no telemetry. */
export function toolEnv(extra = {}) {
  return {
    ...process.env,
    // npm's binaryen before any system wasm-opt (Debian's produces wasm that fails to load).
    PATH: [nodeBin, cargoBin, process.env.PATH].join(':'),
    WASM_BINDGEN_BIN: join(cargoBin, 'wasm-bindgen'),
    WASM_OPT_BIN: join(nodeBin, 'wasm-opt'),
    ESBUILD_BIN: join(root, 'node_modules', '@esbuild', 'linux-x64', 'bin', 'esbuild'),
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_LOG_PATH: join(root, '.wrangler', 'logs'),
    // Cargo's target folder and the built outputs, shared by every checkout on the machine.
    ...cacheEnv,
    ...extra,
  };
}

/**
 * Whether the worker is built with panic=unwind: worker-build --panic-unwind on nightly, so a panic is
 * the 500 of the one request that panicked instead of a trap of the Wasm instance and every request
 * and stream in flight in it. On whenever nightly with rust-src and the wasm target is there (the
 * bootstrap installs them); `DOCS_EDGE_PANIC_UNWIND=0` builds with panic=abort (52 KiB gzipped
 * smaller; docs/engineering/decisions.mdx, "panic=unwind"), `=1` insists on unwind.
 */
export function panicUnwind() {
  const wanted = process.env.DOCS_EDGE_PANIC_UNWIND;
  if (wanted === '0') return false;
  return wanted === '1' || nightlyMissing().length === 0;
}

let nightlyMissingMemo;

/** What worker-build --panic-unwind needs of nightly and this machine lacks, in install order. */
export function nightlyMissing() {
  if (nightlyMissingMemo) return nightlyMissingMemo;
  const lines = (args) => {
    const result = spawnSync('rustup', args, { encoding: 'utf8' });
    return result.status === 0 ? result.stdout.split('\n').map((l) => l.trim()) : [];
  };
  const missing = [];
  if (!lines(['toolchain', 'list']).some((l) => l.startsWith('nightly'))) missing.push('toolchain');
  if (!lines(['+nightly', 'component', 'list', '--installed']).some((l) => l.startsWith('rust-src'))) missing.push('rust-src');
  if (!lines(['+nightly', 'target', 'list', '--installed']).includes('wasm32-unknown-unknown')) missing.push('target');
  nightlyMissingMemo = missing;
  return missing;
}

/** Forgets what `nightlyMissing` found (after the bootstrap installed something). */
export function recheckNightly() {
  nightlyMissingMemo = undefined;
}
