// docs/architecture/modules.mdx says what the code is: every file and folder its tree names exists
// where the tree puts it, and its list of import circles is the one scripts/check-import-cycles.mjs
// enforces (tests/import-cycles.test.mjs holds that list to the code). Pages written here show that
// a misplaced file and a circle the list does not hold are found. Reads files only: no worker needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KNOWN } from '../scripts/check-import-cycles.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE = 'docs/architecture/modules.mdx';
const CRATES = { core: 'docs-edge-core', worker: 'docs-edge-worker', serve: 'docs-edge-serve', sdk: 'docs-edge-sdk' };
const SKIP = new Set(['node_modules', 'target', 'build', 'build-builder', 'pkg', '.git']);
// Source files the tree names in its descriptions: code, manifests, SQL.
const FILE = /(?<![\w./-])((?:[\w-]+\/)*[\w-]+\.(?:rs|mjs|toml|sql))\b/g;

/** Whether a file called `name` is in `dir` or below it. */
function below(root, dir, name) {
  if (!existsSync(join(root, dir))) return false;
  return readdirSync(join(root, dir), { withFileTypes: true }).some((entry) => {
    if (entry.isDirectory()) return !SKIP.has(entry.name) && below(root, join(dir, entry.name), name);
    return entry.name === name;
  });
}

/** The paths the page's tree (its ```text block) names that are not where it says: each entry
 * (`core/`, and `  src/x.rs` under it) from the root, and each file its description names. A file
 * with a folder in its name is found from the entry's folder, its crate, its crate's `src/`, core's
 * `src/` or the root; a bare name in the entry's folder (a folder entry: anywhere below it; a file
 * entry: beside it), or for a top-level entry at the root too. */
function treeProblems(root, page) {
  const tree = /^```text\n([\s\S]*?)^```/m.exec(page);
  if (!tree) return ['the page has no ```text tree'];
  const problems = [];
  let top = null;
  let entry = null;
  for (const line of tree[1].split('\n')) {
    const m = /^( *)(\S+)(.*)$/.exec(line);
    if (!m) continue;
    const [, indent, name, rest] = m;
    let description = rest;
    if (indent.length === 0) {
      top = name.replace(/\/$/, '');
      entry = { path: top, folder: name.endsWith('/') };
    } else if (indent.length === 2) {
      entry = { path: join(top, name.replace(/\/$/, '')), folder: name.endsWith('/') };
    } else {
      description = line;
      entry = entry && { ...entry, continued: true };
    }
    if (!entry) continue;
    if (!entry.continued && !existsSync(join(root, entry.path))) problems.push(`${entry.path}: no such file or folder`);
    const here = entry.folder ? entry.path : dirname(entry.path);
    for (const [, named] of description.matchAll(FILE)) {
      const found = named.includes('/')
        ? [here, top, join(top, 'src'), 'core/src', '.'].some((from) => existsSync(join(root, from, named)))
        : (entry.folder ? below(root, here, named) : existsSync(join(root, here, named)))
          || (entry.path === top && existsSync(join(root, named)));
      if (!found) problems.push(`${entry.path}: names ${named}, which is not ${named.includes('/') ? 'there' : `in ${here}`}`);
    }
  }
  return problems;
}

/** The circles the page's "Import circles" list names, per crate, as KNOWN holds them: each bullet
 * `- core: `a`, `b`: why` is one circle, its modules the quoted paths before the reason. */
function listedCircles(page) {
  const section = /^## Import circles\n([\s\S]*?)(?=^## |^```)/m.exec(page);
  if (!section) return null;
  const circles = {};
  for (const m of section[1].matchAll(/^- (\w+): ((?:`[\w/]+`(?:,\s*)?)+)/gm)) {
    const crate = CRATES[m[1]] ?? m[1];
    const modules = [...m[2].matchAll(/`([\w/]+)`/g)].map((q) => q[1]).sort();
    (circles[crate] ??= []).push(modules);
  }
  return circles;
}

/** What the page claims about circles that the enforced list `known` contradicts. */
function circleProblems(page, known) {
  const listed = listedCircles(page);
  if (!listed) return ['the page has no "Import circles" section'];
  const problems = [];
  const key = (crate, modules) => `${crate}: ${modules.join(', ')}`;
  const want = Object.entries(known).flatMap(([crate, circles]) => circles.map((c) => key(crate, [...c].sort())));
  const have = Object.entries(listed).flatMap(([crate, circles]) => circles.map((c) => key(crate, c)));
  for (const circle of want) if (!have.includes(circle)) problems.push(`not listed: ${circle}`);
  for (const circle of have) if (!want.includes(circle)) problems.push(`listed but not a known circle: ${circle}`);
  const circled = Object.keys(known).filter((crate) => known[crate].length > 0);
  if (circled.length > 0 && /\b(no (import )?(cycles|circles)|acyclic)\b/i.test(page.replace(/^## Import circles\n[\s\S]*?(?=^## |^```)/m, ''))) {
    problems.push('claims the import graph has no circles');
  }
  return problems;
}

const page = readFileSync(join(ROOT, PAGE), 'utf8');

test('every file and folder the modules page names is where it says', () => {
  assert.deepEqual(treeProblems(ROOT, page), []);
});

test("the modules page's import circles are the ones the check enforces", () => {
  assert.deepEqual(circleProblems(page, KNOWN), []);
});

test('a file the tree puts in the wrong folder, and a missing entry, are found', () => {
  const wrong = '```text\nworker/             the crate\n  src/shared/sites/   published sites; mod.rs, exports.rs: bundle links\n  src/gone.rs         nothing\n```\n';
  assert.deepEqual(treeProblems(ROOT, wrong), [
    'worker/src/shared/sites: names exports.rs, which is not in worker/src/shared/sites',
    'worker/src/gone.rs: no such file or folder',
  ]);
});

test('a circle the list lacks, one it does not hold, and a claim of none are found', () => {
  const known = { 'docs-edge-core': [['b', 'a']], 'docs-edge-serve': [] };
  const listing = '## Import circles\n\n- core: `a`, `b`: why\n- serve: `x`, `y`: gone\n\n## Next\n';
  assert.deepEqual(circleProblems(listing, known), ['listed but not a known circle: docs-edge-serve: x, y']);
  assert.deepEqual(circleProblems(`The import graph has no cycles.\n\n${listing}`, { ...known, 'docs-edge-worker': [['c', 'd']] }), [
    'not listed: docs-edge-worker: c, d',
    'listed but not a known circle: docs-edge-serve: x, y',
    'claims the import graph has no circles',
  ]);
});
