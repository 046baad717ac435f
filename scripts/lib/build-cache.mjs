// Builds reused across checkouts on one machine, judged by content, never by time stamps.
//
// Everything built lives outside the checkout, under one cache folder (`DOCS_EDGE_CACHE_DIR`, else
// `$XDG_CACHE_HOME/docs-edge` or `~/.cache/docs-edge`): Cargo's target folders (the host's and the
// Worker scripts'), and the final outputs of the wasm builds (the two Worker scripts, the SDK
// package) keyed by a hash of what they are made from. A fresh clone of code built before skips the
// wasm builds and wasm-opt outright.
//
// Cargo judges its workspace crates by file mtimes, which a clone sets to "now" (everything is
// rebuilt) and which a second checkout of different code can leave older than the artifacts (stale
// code would be reused). So before Cargo runs, `withCargoSources` compares each workspace crate's
// files by content with what the target folders last built: a crate whose content is the same gets
// the mtimes it had then (Cargo finds it fresh); a crate whose content differs is stamped "now"
// (newer than every artifact, so Cargo rebuilds it and what depends on it). Builds of one content
// hold the sources together; a checkout of other content waits until they end.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The machine's build cache for this project. */
export const cacheRoot = resolve(process.env.DOCS_EDGE_CACHE_DIR
  ?? join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'docs-edge'));

/** Cargo's target folder: `CARGO_TARGET_DIR` when set, else shared by every checkout on the machine. */
export const cargoTargetDir = process.env.CARGO_TARGET_DIR ? resolve(root, process.env.CARGO_TARGET_DIR) : join(cacheRoot, 'target');

/** The Worker scripts' target folder (nightly, wasm32, std rebuilt): apart from the host's, so the
 * two build at once (Cargo locks a target folder for the whole of a build). */
export const workerTargetDir = process.env.DOCS_EDGE_WORKER_TARGET_DIR
  ? resolve(root, process.env.DOCS_EDGE_WORKER_TARGET_DIR) : join(cacheRoot, 'target-worker');

/** The environment that points every child (wrangler's [build], tests) at the same cache. Cargo's
 * target folders are not in it: only a run inside `withCargoSources` may use the shared ones
 * (`hostCargoEnv`, `workerCargoEnv`); any other Cargo run builds in the checkout's own `target/`. */
export const cacheEnv = { DOCS_EDGE_CACHE_DIR: cacheRoot };

/** For Cargo runs inside `withCargoSources`. */
export const hostCargoEnv = { CARGO_TARGET_DIR: cargoTargetDir };
export const workerCargoEnv = { CARGO_TARGET_DIR: workerTargetDir };

/** Each workspace crate's files whose content decides its freshness (the crate folder, and files
 * outside it that it includes). The root manifest and lock file are Cargo's own to judge. */
const CRATES = {
  core: ['core', 'docs/openapi.json'],
  worker: ['worker'],
  'sdk-wasm': ['sdk-wasm'],
  serve: ['serve'],
};

/** Folders inside crates that hold build outputs or copied assets, never read by Cargo. */
const NOT_SOURCES = new Set(['build', 'build-builder', 'pkg', 'public', 'node_modules', 'target', '.wrangler', '.build-lock']);

function walk(path, out) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return;
  }
  if (!stat.isDirectory()) {
    out.files.push(path);
    return;
  }
  out.dirs.push(path);
  for (const name of readdirSync(path).sort()) {
    if (!NOT_SOURCES.has(name)) walk(join(path, name), out);
  }
}

function filesOf(paths) {
  const found = { files: [], dirs: [] };
  for (const path of paths) walk(join(root, path), found);
  return found;
}

function hashFiles(files, extra = []) {
  const hash = createHash('sha256');
  for (const item of extra) hash.update(`${item}\0`);
  for (const file of files) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** A hash of the contents and relative paths of `paths` under the checkout (folders walked), and of
 * `extra` (tool versions, flags). */
export function contentHash(paths, extra = []) {
  return hashFiles(filesOf(paths).files, extra);
}

/**
 * Runs `body` (which runs Cargo, and may return a promise) with every workspace crate's mtimes
 * matching what the shared target folders built from the same content. Builds of the same content
 * (two at once in one run, or two checkouts of one commit) hold the sources together; a checkout of
 * other content waits until they end, since it changes what the folders' artifacts stand for.
 */
export async function withCargoSources(body) {
  let release;
  while (!(release = tryHoldSources())) await new Promise((r) => setTimeout(r, 500));
  try {
    return await body();
  } finally {
    release();
  }
}

/** `withCargoSources` for a synchronous body. */
export function withCargoSourcesSync(body) {
  let release;
  while (!(release = tryHoldSources())) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  try {
    return body();
  } finally {
    release();
  }
}

const holders = join(cacheRoot, 'cargo-holders');
let holds = 0;
let waitingSaid = false;

/** Under the mutex: when no live holder holds other content, syncs the mtimes and registers a
 * holder; returns its release, or null when the caller must wait. */
function tryHoldSources() {
  const release = acquireLock(join(cacheRoot, 'cargo.lock'));
  try {
    const trees = Object.fromEntries(Object.entries(CRATES).map(([crate, paths]) => [crate, filesOf(paths)]));
    const content = Object.fromEntries(Object.entries(trees).map(([crate, found]) => [crate, hashFiles(found.files)]));
    const key = createHash('sha256').update(JSON.stringify(content)).digest('hex');
    mkdirSync(holders, { recursive: true });
    for (const name of readdirSync(holders)) {
      const [pid, started] = name.split('-');
      let held;
      try {
        held = readFileSync(join(holders, name), 'utf8');
      } catch {
        continue; // released while listed
      }
      if (!processAlive(Number(pid), started)) {
        rmSync(join(holders, name), { force: true });
      } else if (held !== key) {
        if (!waitingSaid) console.log(`waiting for the build of another checkout's code (process ${pid}) to end`);
        waitingSaid = true;
        return null;
      }
    }
    const stamped = syncSourceTimes(trees, content);
    const holder = join(holders, `${process.pid}-${startTime(process.pid)}-${holds++}`);
    writeFileSync(holder, key);
    return () => {
      const unlock = acquireLock(join(cacheRoot, 'cargo.lock'));
      try {
        forgetEdited(stamped);
        rmSync(holder, { force: true });
      } finally {
        unlock();
      }
    };
  } finally {
    release();
  }
}

/** A crate whose files changed while it was held (an edit, a branch switched mid-build) may have
 * been compiled from either content: its record is dropped, so the next build stamps it anew. */
function forgetEdited(stamped) {
  const edited = Object.entries(stamped)
    .filter(([, { entries, mtimeMs }]) => entries.some((entry) => {
      try {
        return statSync(entry).mtimeMs !== mtimeMs;
      } catch {
        return true;
      }
    }))
    .map(([crate]) => crate);
  if (edited.length === 0) return;
  const recorded = readRecord();
  for (const crate of edited) delete recorded[crate];
  writeFileSync(recordFile, `${JSON.stringify(recorded, null, 1)}\n`);
}

const recordFile = join(cacheRoot, 'cargo-sources.json');

function readRecord() {
  try {
    return JSON.parse(readFileSync(recordFile, 'utf8'));
  } catch {
    return {}; // nothing built here yet: every crate counts as changed
  }
}

/** Each crate gets the mtime recorded with its content, or now (recorded) when its content is new.
 * Returns what was stamped, per crate. */
function syncSourceTimes(trees, content) {
  mkdirSync(cacheRoot, { recursive: true });
  const recorded = readRecord();
  const now = Date.now();
  const next = {};
  const stamped = {};
  for (const [crate, { files, dirs }] of Object.entries(trees)) {
    const tree = content[crate];
    // Recorded before Cargo runs: a build that fails halfway leaves artifacts of this content, newer
    // than this time, and only of this content (no other content is built while this is held).
    const mtimeMs = recorded[crate]?.tree === tree ? recorded[crate].mtimeMs : now;
    const when = new Date(mtimeMs);
    const entries = [...files, ...dirs];
    for (const entry of entries) utimesSync(entry, when, when);
    next[crate] = { tree, mtimeMs };
    stamped[crate] = { entries, mtimeMs: statSync(entries[0]).mtimeMs };
  }
  writeFileSync(recordFile, `${JSON.stringify(next, null, 1)}\n`);
  return stamped;
}

/**
 * Whether `outDir` holds the build of `key`: already (its `.build-key` file names the key), or now,
 * copied from the cache entry `name`/`key`. When not, the caller builds, then calls `storeOutput`.
 */
export function restoreOutput({ name, key, outDir }) {
  const keyFile = join(outDir, '.build-key');
  if (existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() === key) return true;
  const entries = join(cacheRoot, 'outputs', name);
  const entry = join(entries, key);
  mkdirSync(entries, { recursive: true });
  return withLock(join(entries, '.lock'), () => {
    if (!existsSync(join(entry, '.build-key'))) {
      // What is there now is about to be rebuilt: never taken for the old key should the build fail.
      rmSync(keyFile, { force: true });
      return false;
    }
    const partial = `${outDir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(entry, partial, { recursive: true });
    rmSync(outDir, { recursive: true, force: true });
    renameSync(partial, outDir);
    utimesSync(entry, new Date(), new Date()); // the newest used, kept longest
    console.log(`${name}: reused the build of the same inputs (${key.slice(0, 12)}) from ${entries}`);
    return true;
  });
}

/** Marks `outDir` as the build of `key` and keeps a copy in the cache (the `keep` newest per name). */
export function storeOutput({ name, key, outDir, keep = 3 }) {
  writeFileSync(join(outDir, '.build-key'), `${key}\n`);
  const entries = join(cacheRoot, 'outputs', name);
  mkdirSync(entries, { recursive: true });
  withLock(join(entries, '.lock'), () => {
    const entry = join(entries, key);
    const partial = `${entry}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(outDir, partial, { recursive: true });
    rmSync(entry, { recursive: true, force: true });
    renameSync(partial, entry);
    prune(entries, keep);
  });
}

/** Keeps the `keep` most recently stored or used entries of a cache folder. */
function prune(dir, keep) {
  const entries = readdirSync(dir)
    .filter((name) => !name.startsWith('.') && !name.includes('.partial-'))
    .map((name) => ({ name, mtimeMs: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { name } of entries.slice(keep)) rmSync(join(dir, name), { recursive: true, force: true });
}

/** Takes the lock folder `lock` once free (one whose holder is gone is taken over); returns its
 * release, or null without waiting when `wait` is false. */
function tryLock(lock) {
  mkdirSync(dirname(lock), { recursive: true });
  const owner = join(lock, 'pid');
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(owner, String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (holderAlive(lock, owner)) return null;
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function acquireLock(lock) {
  let release;
  while (!(release = tryLock(lock))) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  return release;
}

/** `withLock` for a body that awaits, waiting without blocking this process. */
export async function withLockAsync(lock, body) {
  let release;
  while (!(release = tryLock(lock))) await new Promise((r) => setTimeout(r, 250));
  try {
    return await body();
  } finally {
    release();
  }
}

/** Runs `body` holding the lock folder `lock`; a lock whose holder is gone is taken over. */
export function withLock(lock, body) {
  const release = acquireLock(lock);
  try {
    return body();
  } finally {
    release();
  }
}

/** Whether the pid in `owner` runs. A lock just made may not have its pid yet: alive for its first
 * ten seconds. */
function holderAlive(lock, owner) {
  let pid;
  try {
    pid = Number(readFileSync(owner, 'utf8'));
  } catch {
    pid = 0;
  }
  if (!pid) {
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  return processAlive(pid);
}

/** When the process `pid` started (clock ticks since boot, /proc/<pid>/stat field 22): with the pid,
 * it names a process even after its pid is reused. Empty where /proc is not there. */
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function processAlive(pid, started) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err.code !== 'EPERM') return false;
  }
  return !started || startTime(pid) === '' || startTime(pid) === started;
}
