// Which files of a docs folder make up the site, for both upload paths (the incremental publish and
// the .tar.gz packer): the config at the root, `.mintignore` and the format's default ignores, and
// symbolic links followed only while they stay inside the folder. Synchronous, because the packer's
// callers are: a walk reads directory entries and sizes, never file contents.
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import ignore from 'ignore';

/** The largest single file the server stores (its per-file limit); a bigger one fails the walk. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

/** The configs the format knows, in the order a folder holding both is read. */
export const CONFIG_NAMES = ['docs.json', 'mint.json'];

/**
 * What Mintlify leaves out of every site without being told ("Default ignored patterns" on its
 * `.mintignore` page), read as entries of the root: real sites keep pages under deeper folders with
 * these names (dify-docs lists 89 pages under `en/cloud/use-dify/build/`). `.git` and `node_modules`
 * are skipped at any depth; `.docs-edge` is where the publish puts fetched remote files.
 */
export const DEFAULT_IGNORES = [
  '.git', 'node_modules',
  ...['.github', '.claude', '.agents', '.idea', '.vscode', 'build', 'dist', 'coverage', '.cache', 'tmp', 'temp',
    'README.md', 'LICENSE.md', 'CHANGELOG.md', 'CONTRIBUTING.md', '.docs-edge'].map((name) => `/${name}`),
];

export class WalkError extends Error {}

const inside = (root, path) => path === root || path.startsWith(root + sep);

/**
 * Walks `folder`: `{root, config, files: [{path, abs, size, mtimeMs}], warnings}`, files sorted by path, `path`
 * relative with '/', `abs` where the bytes are read from (a followed link's target). Throws a
 * WalkError when there is no config or when files exceed `maxFileBytes`.
 */
export function walkDocsFolder(folder, { maxFileBytes = MAX_FILE_BYTES } = {}) {
  const root = realpathSync(resolve(folder));
  const config = CONFIG_NAMES.find((name) => statOrNull(join(root, name))?.isFile());
  if (!config) {
    throw new WalkError(`${root} has no docs.json or mint.json: point at the folder that holds the site's config`);
  }
  const rules = ignore().add(DEFAULT_IGNORES);
  const mintignore = statOrNull(join(root, '.mintignore'));
  if (mintignore?.isFile()) rules.add(readFileSync(join(root, '.mintignore'), 'utf8'));

  const files = [];
  const warnings = [];
  // Real paths of the directories being walked, outermost first: a link back into one is a cycle.
  const open = [];
  const walk = (dir, prefix) => {
    open.push(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      const abs = join(dir, entry.name);
      let stat = lstatSync(abs);
      let real = abs;
      if (stat.isSymbolicLink()) {
        try {
          real = realpathSync(abs);
          stat = statSync(real);
        } catch {
          if (!rules.ignores(path)) warnings.push(`${path}: symbolic link to a missing target, left out`);
          continue;
        }
        if (rules.ignores(stat.isDirectory() ? `${path}/` : path)) continue;
        // Only its metadata was looked at: the bytes outside the folder are never read.
        if (!inside(root, real)) {
          warnings.push(`${path}: symbolic link to ${real}, outside the docs folder, left out`);
          continue;
        }
        if (stat.isDirectory() && open.includes(real)) {
          warnings.push(`${path}: symbolic link to a folder that contains it, left out (a cycle)`);
          continue;
        }
      }
      if (stat.isDirectory()) {
        if (!rules.ignores(`${path}/`)) walk(real, path);
      } else if (stat.isFile() && !rules.ignores(path)) {
        files.push({ path, abs: real, size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
    open.pop();
  };
  walk(root, '');

  const tooLarge = files.filter((f) => f.size > maxFileBytes);
  if (tooLarge.length > 0) {
    const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    const list = tooLarge.map((f) => `  ${f.path} (${mib(f.size)})`).join('\n');
    throw new WalkError(
      `${tooLarge.length === 1 ? 'a file is' : `${tooLarge.length} files are`} over the ${mib(maxFileBytes)} limit for one file:\n` +
        `${list}\nleave ${tooLarge.length === 1 ? 'it' : 'them'} out with .mintignore, or host ${tooLarge.length === 1 ? 'it' : 'them'} elsewhere and link to the address`,
    );
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root, config, files, warnings };
}

function statOrNull(path) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** Reads a JSON file of the folder given by a path relative to `root`, or null when it is not one. */
export function readJsonInside(root, path) {
  const abs = resolve(root, path);
  if (!inside(root, abs)) return null;
  try {
    const real = realpathSync(abs);
    return inside(root, real) ? JSON.parse(readFileSync(real, 'utf8')) : null;
  } catch {
    return null;
  }
}
