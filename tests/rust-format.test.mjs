// One style for the workspace's Rust: `cargo fmt --check` under rustfmt.toml (100 columns) passes on
// the whole workspace, and the same command fails on a file rustfmt would change. Reads files only:
// no worker needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function fmtCheck(cwd) {
  return spawnSync('cargo', ['fmt', '--all', '--check'], { cwd, encoding: 'utf8' });
}

test('the workspace is formatted as rustfmt.toml says', () => {
  const checked = fmtCheck(root);
  assert.equal(checked.status, 0, `cargo fmt --all --check wants changes (run \`cargo fmt --all\`):\n${checked.stdout.slice(0, 4000)}${checked.stderr}`);
});

test('the check fails on a file rustfmt would change', () => {
  const base = mkdtempSync(join(tmpdir(), 'rust-format-'));
  try {
    copyFileSync(join(root, 'rustfmt.toml'), join(base, 'rustfmt.toml'));
    writeFileSync(join(base, 'Cargo.toml'), '[workspace]\nmembers = ["demo"]\n');
    mkdirSync(join(base, 'demo', 'src'), { recursive: true });
    writeFileSync(join(base, 'demo', 'Cargo.toml'), '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n');
    writeFileSync(join(base, 'demo', 'src', 'lib.rs'), 'pub fn   spaced( a:u8)->u8{a}\n');
    const checked = fmtCheck(base);
    assert.notEqual(checked.status, 0);
    assert.match(checked.stdout, /lib\.rs/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
