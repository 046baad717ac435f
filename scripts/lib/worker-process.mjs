// Runs the built worker under `wrangler dev` (workerd with local KV, R2 and Durable Objects) and stops it.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, createWriteStream, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { root, nodeBin, toolEnv } from './env.mjs';
import { cacheRoot } from './build-cache.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The D1 database's name in wrangler.toml, whose migrations (worker/migrations) every start applies. */
export const ANALYTICS_DATABASE = 'docs-edge-analytics';

/**
 * Applies the D1 migrations to the local database under `persistTo` (`wrangler d1 migrations apply
 * --local`). A state folder records the migrations it holds, so a restart on it skips them; a new
 * one starts as a copy of an empty database those migrations made before (kept in the machine's
 * build cache, keyed by the migrations and wrangler's version), so each worker a test starts does
 * not run wrangler once more for them.
 */
export function applyMigrations(persistTo, { inherit = false } = {}) {
  const key = migrationsKey();
  const marker = join(persistTo, '.docs-edge-migrations');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === key) return;
  const template = join(cacheRoot, 'd1-migrated', key);
  const fresh = !existsSync(persistTo) || readdirSync(persistTo).length === 0;
  if (fresh && existsSync(join(template, '.docs-edge-migrations'))) {
    cpSync(template, persistTo, { recursive: true });
    return;
  }
  const result = spawnSync(join(nodeBin, 'wrangler'), [
    'd1', 'migrations', 'apply', ANALYTICS_DATABASE, '--local', '--persist-to', persistTo,
  ], { cwd: root, env: toolEnv({ FORCE_COLOR: '0', CI: '1' }), encoding: 'utf8', stdio: inherit ? 'inherit' : 'pipe' });
  if (result.status !== 0) {
    throw new Error(`wrangler d1 migrations apply failed (${result.status})\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  }
  writeFileSync(marker, key);
  if (fresh && !existsSync(template)) {
    const partial = `${template}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(persistTo, partial, { recursive: true });
    try {
      renameSync(partial, template);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another start made the same template first
    }
  }
}

/** The migrations' files, the configuration that names the database, and wrangler's version: what an
 * empty migrated database is made from. */
function migrationsKey() {
  const hash = createHash('sha256').update(readFileSync(join(root, 'wrangler.toml')));
  const dir = join(root, 'worker', 'migrations');
  for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(join(dir, name)));
  hash.update(readFileSync(join(root, 'node_modules', 'wrangler', 'package.json')));
  return hash.digest('hex');
}

/**
 * Starts `wrangler dev` and resolves once `/health` answers. The D1 migrations are applied first.
 * `testScheduled` exposes `/__scheduled` (runs the `scheduled` handler, as a cron trigger would).
 * `configs` runs other wrangler configs beside the main one (the first config is the service under
 * test; the others are workers it binds to, as `wrangler dev -c a -c b` does); the builder script
 * (wrangler.builder.toml) always runs second.
 * @param {{port?: number, persistTo: string, vars?: Record<string,string>, logFile?: string, inherit?: boolean, configs?: string[], testScheduled?: boolean}} options
 */
/** The configs `wrangler dev` runs: the service under test first (wrangler.toml unless `configs` names
 * another), then the builder script it binds its publish and export objects to, then the rest. */
function scriptConfigs(configs) {
  const [primary = join(root, 'wrangler.toml'), ...others] = configs;
  return [primary, join(root, 'wrangler.builder.toml'), ...others];
}

export async function startWorker({ port, persistTo, vars = {}, logFile, inherit = false, configs = [], testScheduled = false }) {
  applyMigrations(persistTo, { inherit });
  port ??= await freePort();
  const inspectorPort = await freePort();
  const args = [
    'dev', ...scriptConfigs(configs).flatMap((c) => ['-c', c]), '--local', '--ip', '127.0.0.1', '--port', String(port),
    '--inspector-port', String(inspectorPort), '--persist-to', persistTo,
    '--show-interactive-dev-session=false', '--log-level', 'log',
  ];
  if (testScheduled) args.push('--test-scheduled');
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  const child = spawn(join(nodeBin, 'wrangler'), args, {
    cwd: root,
    env: toolEnv({ FORCE_COLOR: '0' }),
    stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    detached: !inherit,
  });
  let output = '';
  if (!inherit) {
    const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : null;
    const collect = (chunk) => {
      output = (output + chunk.toString()).slice(-20000);
      log?.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const handle = { baseUrl, port, inspectorPort, child, stop: () => stopProcess(child), kill: () => stopProcess(child, 'SIGKILL'), output: () => output };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`wrangler dev exited with ${child.exitCode}\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) return handle;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await handle.stop();
  throw new Error(`wrangler dev did not answer /health within 180 s\n${output}`);
}

/** Stops wrangler and its workerd children (its own process group), waiting for the exit; `SIGKILL`
 * first is a crash, with no chance to finish what is running. */
export function stopProcess(child, first = 'SIGTERM') {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => signal('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signal(first);
    function signal(name) {
      try {
        process.kill(-child.pid, name);
      } catch {
        try { child.kill(name); } catch { /* already gone */ }
      }
    }
  });
}
