// Scratch folders for tests, benches and scripts, removed when the process that made them exits.
// CI machines have little disk to spare: a 10x site, a bundle or an oversized upload left behind by
// every run once filled one (ENOSPC in the middle of the integration tests).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];
const beforeRemoval = [];

function removeAll() {
  // Servers running out of a scratch folder (a PostgreSQL cluster) are stopped first.
  while (beforeRemoval.length > 0) {
    try {
      beforeRemoval.pop()();
    } catch {}
  }
  while (made.length > 0) rmSync(made.pop(), { recursive: true, force: true });
}

process.on('exit', removeAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    removeAll();
    process.kill(process.pid, signal);
  });
}

/** A new empty folder under the system's temporary folder, gone when this process exits. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Runs `stop` (synchronous) when this process exits or is interrupted, before the scratch folders go;
 * answers a function that cancels it, for a caller that stopped the thing itself.
 */
export function atScratchRemoval(stop) {
  beforeRemoval.push(stop);
  return () => {
    const at = beforeRemoval.indexOf(stop);
    if (at >= 0) beforeRemoval.splice(at, 1);
  };
}

/** Removes a scratch folder now, when a test is done with something large. */
export function removeScratch(dir) {
  rmSync(dir, { recursive: true, force: true });
  const at = made.indexOf(dir);
  if (at >= 0) made.splice(at, 1);
}
