// docs-edge-serve for the tests: the binary scripts/test.mjs built, on a free loopback port, with its
// configuration in a throwaway folder; reload (SIGHUP), health polling and stop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../scripts/lib/env.mjs';
import { freePort } from '../../scripts/lib/worker-process.mjs';
import { scratchDir } from '../../scripts/lib/scratch.mjs';

// npm test names the binary its host tests built (SERVE_BIN); run alone, a file finds Cargo's.
export const SERVE_BIN = process.env.SERVE_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'debug', 'docs-edge-serve');

/** TOML for `[static_export]` and friends: `{ bundle_url, sha256, version }` etc. as plain values. */
export function toml(sections) {
  const line = (k, v) => `${k} = ${typeof v === 'string' || Array.isArray(v) ? JSON.stringify(v) : v}`;
  let out = '';
  for (const [name, values] of Object.entries(sections)) {
    if (values && typeof values === 'object') {
      out += `[${name}]\n`;
      for (const [k, v] of Object.entries(values)) if (v !== undefined) out += `${line(k, v)}\n`;
    } else if (values !== undefined) {
      out = `${line(name, values)}\n${out}`;
    }
  }
  return out;
}

/**
 * Starts the server. `config` is the TOML minus `listen` and `cache_dir` (added here); `cacheDir`
 * reuses a folder across restarts.
 */
export async function startServe({ config = {}, env = {}, cacheDir } = {}) {
  const home = scratchDir('docs-edge-serve-');
  cacheDir ??= join(home, 'cache');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const configFile = join(home, 'docs-edge-serve.toml');
  const write = (sections) => writeFileSync(configFile, toml({ listen: `127.0.0.1:${port}`, cache_dir: cacheDir, ...sections }));
  write(config);
  const child = spawn(SERVE_BIN, ['--config', configFile], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (c) => { log += c; });
  child.stderr.on('data', (c) => { log += c; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const handle = {
    url,
    cacheDir,
    child,
    log: () => log,
    async health() {
      const res = await fetch(`${url}/_docs-edge/health`);
      assert.equal(res.status, 200);
      return res.json();
    },
    /** Polls health until `predicate` holds (the server loads in the background). */
    async waitFor(predicate, what, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        let health;
        try {
          health = await handle.health();
          if (predicate(health)) return health;
        } catch {}
        assert.ok(child.exitCode === null, `docs-edge-serve exited:\n${log}`);
        assert.ok(Date.now() < deadline, `timed out waiting for ${what}: ${JSON.stringify(health)}\n${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /** Writes a new configuration and sends SIGHUP; resolves once the reload attempt finished. */
    async reload(sections) {
      const before = (await handle.health()).lastAttemptAt;
      write(sections);
      child.kill('SIGHUP');
      return handle.waitFor((h) => h.lastAttemptAt && h.lastAttemptAt !== before, 'the reload');
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
    async remove() {
      await handle.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
  await handle.waitFor(() => true, 'the server to listen', 30_000);
  return handle;
}
