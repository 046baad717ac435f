// Pointers in the code's comments lead somewhere: a README section named in quotes after README is
// a heading of README.md, and a page of the docs site named by its path (docs/…/page.mdx) exists,
// with the heading quoted after it when one is. Read in the crates, scripts, tests, benches and the
// root's TOML files; a tree written here shows that a stale pointer of each kind is found. Reads
// files only: no worker needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url));
const SOURCES = ['core', 'worker', 'sdk-wasm', 'serve', 'scripts', 'tests', 'bench'];
const SKIP = new Set(['node_modules', 'target', 'build', 'build-builder', 'pkg', 'public', 'fixtures', 'dist']);
const ENDINGS = new Set(['.rs', '.mjs', '.js', '.ts', '.toml']);

function files(root, dir) {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : files(root, path);
    return ENDINGS.has(extname(entry.name)) ? [path] : [];
  });
}

/** The files of `root` whose comments are read. */
function sources(root) {
  return [
    ...SOURCES.flatMap((dir) => files(root, dir)),
    ...readdirSync(root).filter((f) => f.endsWith('.toml')),
  ].filter((f) => f !== SELF);
}

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
function headings(root, path) {
  const text = readFileSync(join(root, path), 'utf8');
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
function pointers(root) {
  const out = [];
  for (const file of sources(root)) {
    const text = readFileSync(join(root, file), 'utf8');
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

/** `{ pages, stale }`: how many docs pages the comments of `root` name, and each pointer that leads
 * nowhere, as `file: README "X"`, `file: docs/page.mdx` or `file: docs/page.mdx, "X"`. */
function check(root) {
  const found = pointers(root);
  const readme = headings(root, 'README.md');
  const stale = found.filter((p) => p.kind === 'readme' && !readme.has(p.heading)).map((p) => `${p.file}: README "${p.heading}"`);
  const pages = found.filter((p) => p.kind === 'page');
  for (const p of pages) {
    if (!existsSync(join(root, p.page))) stale.push(`${p.file}: ${p.page}`);
    else if (p.heading && !headings(root, p.page).has(p.heading)) stale.push(`${p.file}: ${p.page}, "${p.heading}"`);
  }
  return { pages: pages.length, stale: [...new Set(stale)].sort() };
}

test('every README section and docs page a comment names exists, with the heading quoted after it', () => {
  const { pages, stale } = check(ROOT);
  assert.ok(pages > 10, `only ${pages} pointers into docs/ found: is the reader broken?`);
  assert.deepEqual(stale, [], 'no such section or page');
});

test('a pointer to a missing README section, page or heading is found, wrapped or not', () => {
  const base = mkdtempSync(join(tmpdir(), 'comment-references-'));
  try {
    const write = (path, text) => {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    };
    write('README.md', '# Demo\n\n## Install\n\n```sh\n# Not a heading\n```\n');
    write('docs/guide.mdx', '---\ntitle: "Guide"\n---\n\n## Setup\n');
    write('core/src/lib.rs', [
      '//! Installing: README "Install"; set up: docs/guide.mdx, "Setup"; the page: docs/guide.mdx.',
      '/// Stale: README "Limits", docs/gone.mdx and docs/guide.mdx, "Gone".',
      'pub fn f() {}',
      '// README, "Not a heading", and a heading wrapped onto the next line: docs/guide.mdx,',
      '// "Teardown".',
      'pub const README_NOTE: &str = "README \\"Install\\"";',
    ].join('\n'));
    write('Cargo.toml', '# See README "Self-hosting".\n[workspace]\n');
    assert.deepEqual(check(base).stale, [
      'Cargo.toml: README "Self-hosting"',
      'core/src/lib.rs: README "Limits"',
      'core/src/lib.rs: README "Not a heading"',
      'core/src/lib.rs: docs/gone.mdx',
      'core/src/lib.rs: docs/guide.mdx, "Gone"',
      'core/src/lib.rs: docs/guide.mdx, "Teardown"',
    ]);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
