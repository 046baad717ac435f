// schemathesis (PyPI), pinned, in a virtual environment in the machine's build cache (shared by every
// checkout, keyed by the version): installed once by the bootstrap, a later run only asks the
// installed `st` its version.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './env.mjs';
import { cacheRoot, withLock } from './build-cache.mjs';

export const SCHEMATHESIS_VERSION = '4.32.5';
export const venv = join(cacheRoot, `schemathesis-${SCHEMATHESIS_VERSION}`);
export const st = join(venv, 'bin', 'st');

function installedVersion() {
  const result = spawnSync(st, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : '';
}

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with status ${result.status}`);
}

export function ensureSchemathesis(log) {
  if (installedVersion().endsWith(` ${SCHEMATHESIS_VERSION}`)) return;
  // Two checkouts bootstrapping at once install it once.
  withLock(`${venv}.lock`, () => {
    if (installedVersion().endsWith(` ${SCHEMATHESIS_VERSION}`)) return;
    log(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${venv}`);
    run('python3', ['-m', 'venv', venv]);
    run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]);
  });
}
