// What the last publish of a folder learned about its files, so the next one reads only the files that
// changed: per path, its size and modification time, its hash and (for a page) the remote images it
// shows. Kept outside the docs folder, in the user's cache directory (`$XDG_CACHE_HOME/docs-edge`, or
// `~/.cache/docs-edge`), one file per folder, named by a digest of the folder's real path. A file whose
// size or modification time differ is read again, and so is one modified within RACY_MS of the walk
// that saw it: a coarse clock could give a later edit the same time (as git's "racily clean" entries).
// Losing the cache only costs the reading; a broken one is ignored.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const FORMAT = 1;
const RACY_MS = 2000;

/** The directory the caches live in unless the caller names one. */
export function defaultCacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'docs-edge', 'publish');
}

export class HashCache {
  /**
   * The cache of the folder whose real path is `root`, in `dir` (empty when there is none yet);
   * `walkedAt` is when the walk that stats the files began.
   */
  constructor(root, { dir = defaultCacheDir(), walkedAt }) {
    this.root = root;
    this.dir = dir;
    this.file = join(dir, `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);
    this.walkedAt = walkedAt;
    this.known = new Map();
    try {
      const stored = JSON.parse(readFileSync(this.file, 'utf8'));
      if (stored.format === FORMAT && stored.root === root) this.known = new Map(Object.entries(stored.files));
    } catch {
      // None yet, or unreadable: every file is read.
    }
  }

  /** `{hash, images}` of a walked file (`{path, size, mtimeMs}`) as last seen, or null. */
  get(file) {
    const seen = this.known.get(file.path);
    if (!seen || seen[0] !== file.size || seen[1] !== file.mtimeMs) return null;
    return { hash: seen[2], images: (seen[3] ?? []).map(([url, line]) => ({ url, line })) };
  }

  /** Stores what `files` (walked, with `hash` and, for pages, `images`) are now; failures are ignored. */
  save(files) {
    const entries = {};
    for (const f of files) {
      if (!f.hash || f.mtimeMs === undefined || f.mtimeMs > this.walkedAt - RACY_MS) continue;
      const images = (f.images ?? []).map(({ url, line }) => [url, line]);
      entries[f.path] = images.length > 0 ? [f.size, f.mtimeMs, f.hash, images] : [f.size, f.mtimeMs, f.hash];
    }
    try {
      mkdirSync(this.dir, { recursive: true });
      const partial = `${this.file}.${process.pid}.tmp`;
      writeFileSync(partial, JSON.stringify({ format: FORMAT, root: this.root, files: entries }));
      renameSync(partial, this.file);
    } catch {
      // A read-only home: the next publish reads every file again.
    }
  }
}
