// Scratch folders for tests, benches and scripts, removed when the process that made them exits.
// CI machines have little disk to spare: a 10x site, a bundle or an oversized upload left behind by
// every run once filled one (ENOSPC in the middle of the integration tests).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];

function removeAll() {
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

/** Removes a scratch folder now, when a test is done with something large. */
export function removeScratch(dir) {
  rmSync(dir, { recursive: true, force: true });
  const at = made.indexOf(dir);
  if (at >= 0) made.splice(at, 1);
}
