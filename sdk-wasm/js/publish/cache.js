// What the publishing machine remembers of a site between runs: the hashes of the last manifest that
// went live there. The site keeps every file a kept version refers to, so those need not be asked
// about again; the missing-files question then lists only new hashes, and a re-publish sends the
// manifest plus the changed files. Wrong memory costs one round trip, never a wrong site: a commit
// naming a file the site lost is refused with the paths, which are then uploaded.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** DOCS_EDGE_CACHE_DIR, else the XDG cache folder. */
export function defaultCacheDir(env = process.env) {
  return env.DOCS_EDGE_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'docs-edge');
}

export class HeldFiles {
  /** `dir` null: remembers nothing. */
  constructor(dir, baseUrl, domain) {
    const key = createHash('sha256').update(`${baseUrl.replace(/\/+$/, '')}\n${domain}`).digest('hex').slice(0, 24);
    this.file = dir ? join(dir, `${key}.json`) : null;
  }

  load() {
    if (!this.file) return new Set();
    try {
      const { hashes } = JSON.parse(readFileSync(this.file, 'utf8'));
      return new Set(Array.isArray(hashes) ? hashes : []);
    } catch {
      return new Set();
    }
  }

  /** Best effort: a cache that cannot be written only makes the next publish ask about every file. */
  save(hashes) {
    if (!this.file) return;
    try {
      mkdirSync(join(this.file, '..'), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify({ hashes: [...hashes].sort() }));
      renameSync(temp, this.file);
    } catch {
      // read-only home, full disk: publishing already succeeded
    }
  }
}
