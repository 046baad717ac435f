// Installs what the build and tests need, and only what is missing: the wasm target (stable and, for
// the worker's panic=unwind build, nightly with rust-src), the pinned
// wasm-bindgen-cli and worker-build, the npm packages from the lock file, Debian's Chromium for the
// browser tests, and (for `npm test`) pinned schemathesis in the build cache and PostgreSQL's server
// (Debian's `postgresql` package, when no initdb and pg_ctl are found). A second run takes seconds.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { root, cargoBin, chromiumPath, nightlyMissing, pins, recheckNightly, toolEnv } from './env.mjs';
import { ensurePostgres } from './postgres.mjs';
import { ensureSchemathesis } from './schemathesis.mjs';

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, env: toolEnv(), stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with status ${result.status}`);
}

function output(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, env: toolEnv(), encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : '';
}

function step(message) {
  console.log(`[bootstrap] ${message}`);
}

export function bootstrap({ quiet = false, contractTests = false, postgres = false } = {}) {
  const log = quiet ? () => {} : step;
  if (!output('rustup', ['target', 'list', '--installed']).split('\n').includes('wasm32-unknown-unknown')) {
    step('adding the wasm32-unknown-unknown target');
    run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
  }
  // The panic=unwind build (scripts/build-worker.mjs) rebuilds std with nightly: nightly itself, its
  // rust-src and its wasm target, each only when missing. Should they not install, the worker is
  // built with panic=abort, said loudly here and by the skipped tests/panic.test.mjs.
  if (process.env.DOCS_EDGE_PANIC_UNWIND !== '0' && nightlyMissing().length > 0) {
    try {
      ensureNightly();
    } catch (err) {
      if (process.env.DOCS_EDGE_PANIC_UNWIND === '1') throw err;
      step(`WARNING: nightly for panic=unwind could not be installed (${err.message}); the worker is built with panic=abort, where a panic traps every request in flight in its isolate`);
    }
    recheckNightly();
  }
  // Installed where cargo puts them by default, so a fresh clone on the same machine reuses them.
  const tools = [
    ['wasm-bindgen', 'wasm-bindgen-cli', pins.wasmBindgen],
    ['worker-build', 'worker-build', pins.workerBuild],
  ];
  for (const [bin, crate, version] of tools) {
    const installed = output(join(cargoBin, bin), ['--version']);
    if (!installed.includes(version)) {
      step(`installing ${crate} ${version} (several minutes, once)`);
      // No --locked: the registry mirror lacks some locked versions.
      run('cargo', ['install', crate, '--version', version]);
    }
  }
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    // `npm install` from the committed lock, not `npm ci`: the registry mirror omits workerd's other
    // platforms' optional packages from every lock it produces, and `npm ci` then refuses the lock as
    // out of sync. The versions installed are still exactly the locked ones.
    step('installing npm packages from package-lock.json');
    run('npm', ['install', '--no-audit', '--no-fund']);
  }
  // playwright-core drives Debian's Chromium: `npx playwright install` downloads a browser build, which
  // cannot work here. apt-get only when it is missing (the machines run as root).
  if (!existsSync(chromiumPath)) {
    step('installing Debian\'s chromium (once)');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { ...toolEnv(), DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (contractTests) ensureSchemathesis(step);
  // The storage tests run against a throwaway cluster scripts/test.mjs starts (scripts/lib/postgres.mjs).
  if (postgres) ensurePostgres(step);
  log('tools ready');
}

/** Nightly with rust-src and the wasm target, for worker-build --panic-unwind. */
function ensureNightly() {
  const missing = nightlyMissing();
  if (missing.includes('toolchain')) {
    step('installing the nightly toolchain (for panic=unwind; once)');
    run('rustup', ['toolchain', 'install', 'nightly', '--profile', 'minimal']);
  }
  if (missing.includes('rust-src')) {
    step('adding rust-src to nightly (panic=unwind rebuilds std from it)');
    run('rustup', ['+nightly', 'component', 'add', 'rust-src']);
  }
  if (missing.includes('target')) {
    step('adding the wasm32-unknown-unknown target to nightly');
    run('rustup', ['+nightly', 'target', 'add', 'wasm32-unknown-unknown']);
  }
}
