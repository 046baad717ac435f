// Import circles between a crate's modules may only shrink (scripts/check-import-cycles.mjs): the
// workspace's circles are exactly the listed ones, and the checker finds a circle in a small crate
// written here and none in an acyclic one. Reads files only: no worker needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { check } from '../scripts/check-import-cycles.mjs';

/** A workspace of one crate `demo` with these files under src/, checked against `known`. */
function checkCrate(files, known = {}) {
  const base = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  try {
    const write = (path, text) => {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    };
    write('Cargo.toml', '[workspace]\nmembers = ["demo"]\n');
    write('demo/Cargo.toml', '[package]\nname = "demo"\nversion = "0.1.0"\n');
    for (const [path, text] of Object.entries(files)) write(join('demo/src', path), text);
    return check(base, known);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const modules = (result) => result.circles.map((c) => c.modules);

test("the workspace's import circles are the listed ones, no more and no fewer", () => {
  const { problems } = check();
  assert.deepEqual(problems, []);
});

test('a circle through `use crate::…` and a path in an expression is found and fails the check', () => {
  const result = checkCrate({
    'lib.rs': 'mod a;\nmod b;\nmod c;\n',
    'a.rs': 'use crate::b::B;\npub struct A(B);\n',
    'b.rs': 'pub struct B;\npub fn make() -> u8 { crate::c::C }\n',
    'c.rs': "pub const C: u8 = 1;\npub fn a() -> usize { std::mem::size_of::<super::a::A>() }\n",
  });
  assert.deepEqual(modules(result), [['a', 'b', 'c']]);
  assert.equal(result.problems.length, 1);
  assert.match(result.problems[0], /a new import circle in demo .*: a, b, c/);
});

test("a parent calling into its child is an import; a parent's re-export of it is not", () => {
  const child = 'use super::Shared;\npub fn go(_: Shared) {}\n';
  const calls = checkCrate({
    'lib.rs': 'mod p;\n',
    'p/mod.rs': 'mod c;\npub struct Shared;\npub fn run() { c::go(Shared) }\n',
    'p/c.rs': child,
  });
  assert.deepEqual(modules(calls), [['p', 'p/c']]);
  const reexports = checkCrate({
    'lib.rs': 'mod p;\nmod user;\n',
    'p/mod.rs': 'mod c;\npub use c::go;\npub struct Shared;\n',
    'p/c.rs': child,
    // Through the re-export, an import of p/c, not of p.
    'user.rs': 'use crate::p::go;\n',
  });
  assert.deepEqual(modules(reexports), []);
  assert.deepEqual(reexports.problems, []);
});

test('doc comments, strings and #[cfg(test)] code are not imports', () => {
  const result = checkCrate({
    'lib.rs': 'mod a;\nmod b;\n',
    'a.rs': 'use crate::b::B;\npub struct A(B);\n',
    'b.rs': [
      '//! Made into `crate::a::A` by a (crate::a::A).',
      '/// See [`crate::a::A`].',
      'pub struct B;',
      'pub const NOTE: &str = "crate::a::A";',
      '/* crate::a::A */',
      '#[cfg(test)]',
      'mod tests {\n    use crate::a::A;\n}',
      '#[cfg(all(test, feature = "x"))]',
      'fn only_in_tests() -> crate::a::A { crate::a::A(B) }',
      "fn lifetimes<'a>(s: &'a str) -> char { let _ = s; 'x' }",
      '',
    ].join('\n'),
  });
  assert.deepEqual(modules(result), []);
  assert.deepEqual(result.problems, []);
});

test('a listed circle passes; a listed one that is gone, or has grown, fails', () => {
  const files = {
    'lib.rs': 'mod a;\nmod b;\nmod c;\n',
    'a.rs': 'use crate::b::B;\npub struct A;\n',
    'b.rs': 'pub struct B;\npub fn f() -> super::a::A { super::a::A }\n',
    'c.rs': 'pub struct C;\n',
  };
  assert.deepEqual(checkCrate(files, { demo: [['b', 'a']] }).problems, []);
  const gone = checkCrate(files, { demo: [['a', 'b'], ['a', 'c']] }).problems;
  assert.equal(gone.length, 1);
  assert.match(gone[0], /no longer exists as listed.*demo: a, c/);
  const grown = checkCrate({ ...files, 'c.rs': 'pub struct C;\nuse crate::a::A;\n', 'a.rs': 'use crate::b::B;\nuse crate::c::C;\npub struct A;\n' }, { demo: [['a', 'b']] }).problems;
  assert.equal(grown.length, 2);
});
