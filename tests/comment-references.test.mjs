// Pointers in the code's comments lead somewhere: a README section named in quotes after README is
// a heading of README.md, and a page of the docs site named by its path (docs/…/page.mdx) exists,
// with the heading quoted after it when one is. Read in the crates, scripts, tests, benches and the
// root's TOML files. Reads files only: no worker needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url));
const SOURCES = ['core', 'worker', 'sdk-wasm', 'serve', 'scripts', 'tests', 'bench'];
const SKIP = new Set(['node_modules', 'target', 'build', 'build-builder', 'pkg', 'public', 'fixtures', 'dist']);
const ENDINGS = new Set(['.rs', '.mjs', '.js', '.ts', '.toml']);

// Stale pointers in folders that other work was editing when this test came: each is taken off
// when its comment is fixed (the test fails while a listed one is no longer there).
const KNOWN_STALE = [
  'core/src/assistant/extractive.rs: README "Answer quality"',
  'core/src/export/archive.rs: README "Gzip members"',
];

function files(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : files(path);
    return ENDINGS.has(extname(entry.name)) ? [path] : [];
  });
}

const sources = [
  ...SOURCES.flatMap(files),
  ...readdirSync(ROOT).filter((f) => f.endsWith('.toml')),
].filter((f) => f !== SELF);

/** A file's comment text, one comment a string: consecutive comment lines joined by spaces, so a
 * pointer wrapped over two lines reads as one. */
function comments(text, file) {
  const marker = file.endsWith('.toml') ? /(?:^|\s)#\s?(.*)$/ : /(?:^|[^:])\/\/[/!]?\s?(.*)$|^\s*\/?\*+\s?(.*?)(?:\*\/)?$/;
  const out = [];
  let run = null;
  for (const line of text.split('\n')) {
    const m = marker.exec(line);
    if (m) {
      const words = (m[1] ?? m[2] ?? '').trim();
      run = run === null ? words : `${run} ${words}`;
    } else if (run !== null) {
      out.push(run);
      run = null;
    }
  }
  if (run !== null) out.push(run);
  return out;
}

/** The headings of a Markdown or MDX page, its frontmatter title among them; code blocks left out. */
function headings(path) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const found = new Set();
  const title = /^---\n[\s\S]*?^title:\s*"?(.*?)"?\s*$/m.exec(text);
  if (title) found.add(title[1]);
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) found.add(heading[1]);
  }
  return found;
}

/** Every pointer in the sources: README sections (in comments and strings alike) and docs pages. */
function pointers() {
  const out = [];
  for (const file of sources) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const flat = comments(text, file);
    // README "X", README's "X", README, "X", wrapped or not.
    for (const m of [...flat.join('\n'), text].join('\n').matchAll(/\bREADME(?:'s)?,?\s+(?:(?:\/\/[/!]?|#|\*)\s*)?"([^"\n]+)"/g)) {
      out.push({ file, kind: 'readme', heading: m[1] });
    }
    for (const comment of flat) {
      for (const m of comment.matchAll(/(?<![\w/.-])(docs\/[\w/.-]+\.mdx)(?:,\s*"([^"]+)")?/g)) {
        out.push({ file, kind: 'page', page: m[1], heading: m[2] });
      }
    }
  }
  return out;
}

test('a README section a comment names is a heading of README.md', () => {
  const readme = headings('README.md');
  const found = pointers().filter((p) => p.kind === 'readme');
  const stale = [...new Set(found.filter((p) => !readme.has(p.heading)).map((p) => `${p.file}: README "${p.heading}"`))].sort();
  assert.deepEqual(stale.filter((s) => !KNOWN_STALE.includes(s)), [], 'README has no such heading');
  assert.deepEqual(KNOWN_STALE.filter((s) => !stale.includes(s)), [], 'fixed: take these off KNOWN_STALE');
});

test('a docs page a comment names exists, with the heading quoted after it', () => {
  const found = pointers().filter((p) => p.kind === 'page');
  assert.ok(found.length > 10, `only ${found.length} pointers into docs/ found: is the reader broken?`);
  const missing = found.filter((p) => !existsSync(join(ROOT, p.page))).map((p) => `${p.file}: ${p.page}`);
  assert.deepEqual(missing, [], 'no such page');
  const wrong = found
    .filter((p) => p.heading && !headings(p.page).has(p.heading))
    .map((p) => `${p.file}: ${p.page}, "${p.heading}"`);
  assert.deepEqual(wrong, [], 'no such heading on that page');
});
