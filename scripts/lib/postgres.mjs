// A throwaway PostgreSQL server for the storage tests (docs-edge-serve's `[storage]` on PostgreSQL):
// the machine's server binaries, or Debian's `postgresql` package installed by the bootstrap; a new
// cluster in a scratch folder, on a free loopback port, trust authentication, no fsync; stopped and
// removed when the run ends, also when it fails or is interrupted. initdb refuses to run as root, so
// under root the cluster belongs to an unprivileged user (`postgres`, else `nobody`).
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, isAbsolute } from 'node:path';
import { atScratchRemoval, scratchDir } from './scratch.mjs';
import { freePort } from './worker-process.mjs';

const SERVER_TOOLS = ['initdb', 'pg_ctl', 'postgres', 'createdb'];
const SUPERUSER = 'docs_edge';
const DATABASE = 'docs_edge_test';

/** The real folder of an initdb found in `dir` (a symlink on PATH leads to its installation), if it has the other tools too. */
function serverToolsIn(dir) {
  const initdb = join(dir, 'initdb');
  if (!existsSync(initdb)) return undefined;
  const real = dirname(realpathSync(initdb));
  return SERVER_TOOLS.every((tool) => existsSync(join(real, tool))) ? real : undefined;
}

/** The folder holding initdb, pg_ctl, postgres and createdb: by PATH first, then Debian's versioned folders, newest first. */
export function postgresBinDir() {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)).map((v) => join(debian, v, 'bin'))
    : [];
  for (const dir of [...onPath, ...versions]) {
    const found = serverToolsIn(dir);
    if (found) return found;
  }
  return undefined;
}

/** Installs Debian's `postgresql` package when no server binaries are found; nothing otherwise. */
export function ensurePostgres(step) {
  if (postgresBinDir()) return;
  if (process.getuid?.() !== 0) {
    throw new Error('PostgreSQL\'s server binaries (initdb, pg_ctl, postgres) are missing and only root can install them: run `apt-get install postgresql`, or put a PostgreSQL bin folder on PATH');
  }
  // The package also sets up and may start Debian's own `main` cluster; the tests never use it.
  step('installing Debian\'s postgresql package (server binaries for the storage tests; once)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'postgresql']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed with status ${result.status}`);
  }
  if (!postgresBinDir()) throw new Error('Debian\'s postgresql package is installed, yet no initdb, pg_ctl, postgres and createdb were found under /usr/lib/postgresql');
}

function userIds(user) {
  const id = (flag) => spawnSync('id', [flag, user], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout), gid: Number(gid.stdout) } : undefined;
}

/**
 * Under root, the user the cluster runs as may need to pass through this run's own scratch folders
 * (made 0700 by mkdtemp); they get o+x (passing, not listing). Folders above the system's temporary
 * folder are left as they are.
 */
function letThrough(dir) {
  const top = tmpdir();
  for (let at = dirname(dir); ; at = dirname(at)) {
    const inside = relative(top, at);
    if (inside.startsWith('..') || isAbsolute(inside)) break;
    const { mode, uid } = statSync(at);
    if ((mode & 0o001) === 0 && uid === process.getuid()) chmodSync(at, mode | 0o001);
    if (at === top) break;
  }
}

function check(result, what, log) {
  if (result.status === 0) return;
  const detail = [result.stdout, result.stderr, log && existsSync(log) ? readFileSync(log, 'utf8') : ''].filter(Boolean).join('\n');
  throw new Error(`${what} failed (status ${result.status ?? result.signal}):\n${detail.trim()}`);
}

/**
 * Starts the cluster and creates its database; answers `{ url, stop }`. `stop` (synchronous,
 * idempotent) also runs on its own when this process exits or is interrupted.
 */
export async function startPostgres() {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries (initdb, pg_ctl, postgres, createdb): the bootstrap installs Debian\'s postgresql package');
  const dir = scratchDir('docs-edge-postgres-');
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  let runAs = [];
  if (process.getuid?.() === 0) {
    const user = ['postgres', 'nobody'].find(userIds);
    if (!user) throw new Error('running as root, and neither a `postgres` nor a `nobody` user exists to own the test cluster (initdb refuses root)');
    const { uid, gid } = userIds(user);
    chownSync(dir, uid, gid);
    letThrough(dir);
    runAs = ['runuser', '-u', user, '--'];
  }
  const tool = (name, args) => {
    const [cmd, ...rest] = [...runAs, join(bin, name), ...args];
    return spawnSync(cmd, rest, { cwd: dir, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
  };
  check(tool('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']), 'initdb');
  const port = await freePort();
  // A test server: durability is not wanted, only speed. The socket goes in the scratch folder, not
  // in /run/postgresql, which may be missing or someone else's.
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const started = tool('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
  let stopped = false;
  const pid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // Immediate shutdown: nothing in a throwaway cluster needs a checkpoint. Should even this be
  // missed (the run killed with SIGKILL), the server stops by itself within a minute of its data
  // folder going: it checks its postmaster.pid.
  const kill = () => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(pid(), 'SIGQUIT');
    } catch {
      return;
    }
    // Its last act is removing postmaster.pid; the folder goes after that, not while it still writes.
    // (Not the process table: without an init that reaps, the server stays there as a zombie.)
    const lock = join(data, 'postmaster.pid');
    const deadline = Date.now() + 5000;
    while (existsSync(lock) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  };
  const cancel = atScratchRemoval(kill);
  check(started, 'pg_ctl start', log);
  check(tool('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', SUPERUSER, DATABASE]), 'createdb', log);
  return {
    url: `postgres://${SUPERUSER}@127.0.0.1:${port}/${DATABASE}`,
    log,
    stop() {
      if (stopped) return;
      cancel();
      const result = tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      if (result.status === 0) stopped = true;
      else kill();
    },
  };
}
