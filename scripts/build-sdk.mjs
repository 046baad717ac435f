#!/usr/bin/env node
// Builds the npm package in sdk-wasm/pkg/, offline: cargo (wasm32, release), the pinned wasm-bindgen CLI
// (`--target web`: ESM whose init takes a URL or bytes, so one glue file serves browsers and Node),
// npm binaryen's wasm-opt, then esbuild bundles the glue and the hand-written modules of sdk-wasm/js/
// into one minified ESM file per platform (index.js for browsers, node.js for Node), next to the types,
// and the `docs-edge` publish command into cli.js; then the assistant widget (build-widget.mjs).
// Skips everything when nothing it reads changed (the machine's build cache, lib/build-cache.mjs).
// Prints the gzipped size.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root, nodeBin, cargoBin, pins, toolEnv } from './lib/env.mjs';
import { cargoTargetDir, contentHash, hostCargoEnv, restoreOutput, storeOutput, withCargoSources } from './lib/build-cache.mjs';
import { buildWidget } from './build-widget.mjs';

export const sdkPkg = join(root, 'sdk-wasm', 'pkg');
const jsSources = join(root, 'sdk-wasm', 'js');
const wasmName = 'docs_edge_sdk';
const inputs = [
  'sdk-wasm/src', 'sdk-wasm/js', 'sdk-wasm/Cargo.toml', 'core/src', 'core/build.rs', 'core/source_hash.rs', 'core/Cargo.toml',
  'Cargo.toml', 'Cargo.lock', 'package-lock.json',
];

/** What the package is made from: the sources, the toolchain and the tools. */
function buildKey() {
  const rustc = spawnSync('rustc', ['-vV'], { env: toolEnv(), encoding: 'utf8' }).stdout ?? '';
  return contentHash([...inputs, 'scripts/build-sdk.mjs', 'scripts/build-widget.mjs'], [rustc, process.env.RUSTFLAGS ?? '', JSON.stringify(pins)]);
}

/** Compiles the package into sdk-wasm/pkg/. */
async function compileSdk() {
  // The parser runs in the core crate's stream layer: give it the SDK's opt-level (Cargo.toml) in
  // this build only, the worker keeps "z".
  run('cargo', ['build', '-p', 'docs-edge-sdk', '--target', 'wasm32-unknown-unknown', '--release', '--quiet',
    '--config', 'profile.release.package.docs-edge-core.opt-level=3'], toolEnv(hostCargoEnv));
  const out = mkdtempSync(join(tmpdir(), 'docs-edge-sdk-'));
  try {
    const built = join(cargoTargetDir, 'wasm32-unknown-unknown', 'release', `${wasmName}.wasm`);
    // --weak-refs: wasm objects a caller forgets to free are released by the garbage collector.
    run(join(cargoBin, 'wasm-bindgen'), [
      built, '--out-dir', out, '--out-name', wasmName, '--target', 'web', '--no-typescript', '--weak-refs',
    ]);
    rmSync(sdkPkg, { recursive: true, force: true });
    mkdirSync(sdkPkg, { recursive: true });
    // npm's binaryen, never Debian's (its wasm-opt 108 produces modules that fail to load).
    run(join(nodeBin, 'wasm-opt'), ['-Oz', join(out, `${wasmName}_bg.wasm`), '-o', join(out, 'opt.wasm')]);
    cpSync(jsSources, out, { recursive: true });
    await bundle(out);
    await bundleCli();
    for (const file of ['index.d.ts', 'widget.d.ts', 'package.json', 'README.md']) copyFileSync(join(jsSources, file), join(sdkPkg, file));
    copyFileSync(join(out, 'opt.wasm'), join(sdkPkg, `${wasmName}_bg.wasm`));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function run(cmd, args, env = toolEnv()) {
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with status ${result.status}`);
}

/** Gzipped bytes of what a page loads: the wasm module and the browser bundle. */
export function sdkSize() {
  const gz = (f) => gzipSync(readFileSync(join(sdkPkg, f)), { level: 9 }).length;
  const wasm = gz(`${wasmName}_bg.wasm`);
  const js = gz('index.js');
  return { wasm, js, total: wasm + js };
}

const common = { bundle: true, format: 'esm', target: 'es2022', minify: true, legalComments: 'none', logLevel: 'warning' };

async function bundle(dir) {
  const { build } = await import('esbuild');
  await build({ ...common, entryPoints: [join(dir, 'index.js')], outfile: join(sdkPkg, 'index.js'), platform: 'browser' });
  await build({ ...common, entryPoints: [join(dir, 'node.js')], outfile: join(sdkPkg, 'node.js'), platform: 'node' });
}

/**
 * The `docs-edge` bin (sdk-wasm/js/cli.js): Node only and without the wasm, so it is bundled straight
 * from the sources, with its dependency `ignore` inlined (the package has no runtime dependencies).
 * esbuild keeps the entry's #! line. Node 20 is the package's floor.
 */
export async function bundleCli(outfile = join(sdkPkg, 'cli.js')) {
  const { build } = await import('esbuild');
  await build({ ...common, entryPoints: [join(jsSources, 'cli.js')], outfile, platform: 'node', target: 'node20' });
}

export async function buildSdk({ force = false } = {}) {
  const cached = { name: 'sdk-pkg', key: buildKey(), outDir: sdkPkg };
  if (force || !restoreOutput(cached)) {
    await withCargoSources(compileSdk);
    storeOutput(cached);
  }
  const size = sdkSize();
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`sdk package: ${kib(size.total)} gzipped (wasm ${kib(size.wasm)}, JS ${kib(size.js)})`);
  // The widget is built from the package on every call: esbuild takes a moment, and the worker's
  // assets (worker/public/widget*) then never lag behind the widget's sources.
  await buildWidget();
  return size;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildSdk({ force: process.argv.includes('--force') }).catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
