// A copy of a read-only fixture that a test may edit and delete: the shared fixtures are checked out
// read-only (files 444, folders 555), and a copy keeps those modes.
import { chmodSync, cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function writableCopy(source, target) {
  cpSync(source, target, { recursive: true });
  const open = (dir) => {
    chmodSync(dir, 0o755);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) open(join(dir, entry.name));
      else if (entry.isFile()) chmodSync(join(dir, entry.name), 0o644);
    }
  };
  open(target);
  return target;
}
