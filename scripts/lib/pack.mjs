// Packs a docs folder into the .tar.gz the publish endpoint takes, with the system tar.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function packDocsFolder(folder) {
  const dir = resolve(folder);
  if (!existsSync(join(dir, 'docs.json'))) {
    throw new Error(`${dir} has no docs.json: point at the folder that holds docs.json`);
  }
  const result = spawnSync('tar', ['-czf', '-', '--exclude=node_modules', '--exclude=.git', '-C', dir, '.'], {
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr}`);
  return result.stdout;
}
