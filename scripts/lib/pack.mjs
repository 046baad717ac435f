// Packs a docs folder into the .tar.gz the single-request publish endpoint takes, with the system tar:
// the files the incremental publish would send (sdk-wasm/js/publish/walk.js: docs.json or mint.json,
// .mintignore and the default ignores, links inside the folder followed, those outside left out).
import { spawnSync } from 'node:child_process';
import { walkDocsFolder } from '../../sdk-wasm/js/publish/walk.js';

export function packDocsFolder(folder) {
  const { root, files } = walkDocsFolder(folder);
  // -h and --hard-dereference store a followed link's target bytes under the link's name (never a
  // link entry, which the server refuses); './' keeps a name starting with '-' from reading as an
  // option, and matches the names `tar -C dir .` gave.
  const result = spawnSync('tar', ['-czhf', '-', '--hard-dereference', '-C', root, '--null', '-T', '-'], {
    input: files.map((f) => `./${f.path}\0`).join(''),
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr}`);
  return result.stdout;
}
