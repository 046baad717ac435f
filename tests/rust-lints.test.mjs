// Clippy with `-D warnings` passes on every build of the workspace's Rust: each crate for the target
// and feature set it ships in (the Worker's two scripts for wasm32, core with and without Mermaid's
// `diagrams`, the SDK for wasm32, docs-edge-serve), under the root Cargo.toml's `[workspace.lints]`.
// A crate written here shows that the same command fails on a warning and honours the allow list.
// Reads files only: no worker needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostCargoEnv, withCargoSources } from '../scripts/lib/build-cache.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const WASM = ['--target', 'wasm32-unknown-unknown'];

// One `cargo clippy` each: a run lints every workspace crate it builds, dependencies too, so core's
// library is linted in the feature set of each crate that uses it (without `diagrams` under
// docs-edge-serve); its tests and examples with `diagrams`, as `npm test` runs them. In the host's
// target folder, one run after another.
const RUNS = {
  'docs-edge-serve and the SDK on the host (with their tests), and core as they build it': ['-p', 'docs-edge-serve', '-p', 'docs-edge-sdk', '--all-targets'],
  'core with diagrams (with tests and examples)': ['-p', 'docs-edge-core', '--all-targets', '--features', 'diagrams'],
  'the edge Worker script (wasm32)': ['-p', 'docs-edge-worker', ...WASM],
  'the builder Worker script (wasm32)': ['-p', 'docs-edge-worker', ...WASM, '--no-default-features', '--features', 'builder'],
  'the SDK (wasm32)': ['-p', 'docs-edge-sdk', ...WASM],
};

function clippy(cwd, args, env) {
  return new Promise((resolve) => {
    const child = spawn('cargo', ['clippy', '--quiet', '--message-format=short', ...args, '--', '-D', 'warnings'], {
      cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (status) => resolve({ status, stderr }));
  });
}

for (const [name, args] of Object.entries(RUNS)) {
  test(`clippy finds nothing in ${name}`, () => withCargoSources(async () => {
    const linted = await clippy(root, args, hostCargoEnv);
    assert.equal(linted.status, 0, `cargo clippy ${args.join(' ')} -- -D warnings:\n${linted.stderr.slice(0, 6000)}`);
  }));
}

test('the check fails on a warning and leaves alone what [workspace.lints] allows', async () => {
  const base = mkdtempSync(join(tmpdir(), 'rust-lints-'));
  try {
    const lints = /^\[workspace\.lints[\s\S]*?(?=^\[(?!workspace\.lints))/m.exec(readFileSync(join(root, 'Cargo.toml'), 'utf8'));
    assert.ok(lints, 'the root Cargo.toml has [workspace.lints]');
    assert.match(lints[0], /too_many_arguments = "allow"/);
    writeFileSync(join(base, 'Cargo.toml'), `[workspace]\nmembers = ["demo"]\n\n${lints[0]}`);
    mkdirSync(join(base, 'demo', 'src'), { recursive: true });
    writeFileSync(join(base, 'demo', 'Cargo.toml'), '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n\n[lints]\nworkspace = true\n');
    const lib = join(base, 'demo', 'src', 'lib.rs');
    const env = { CARGO_TARGET_DIR: join(base, 'target') };
    // Eight arguments: clippy's too_many_arguments, allowed by the workspace.
    writeFileSync(lib, 'pub fn sum(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8) -> u8 {\n    a ^ b ^ c ^ d ^ e ^ f ^ g ^ h\n}\n');
    const allowed = await clippy(base, [], env);
    assert.equal(allowed.status, 0, allowed.stderr);
    writeFileSync(lib, 'pub fn one() -> u8 {\n    return 1;\n}\n');
    const warned = await clippy(base, [], env);
    assert.notEqual(warned.status, 0);
    assert.match(warned.stderr, /lib\.rs:2:5: error: unneeded `return` statement/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
