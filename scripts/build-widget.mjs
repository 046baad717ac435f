#!/usr/bin/env node
// Builds the assistant widget (sdk-wasm/js/widget) from the SDK package in sdk-wasm/pkg (build-sdk.mjs):
// - for the worker's static assets (worker/public, served by the assets layer without running the
//   worker: wrangler.toml run_worker_first): `widget.js`, the launcher a page loads (a classic
//   script), and under `widget/` the panel with the SDK bundled in and the SDK's wasm, both named by
//   a hash of their content so they can be cached for a year; `_headers`, their response headers; and
//   `widget-files.json`, their list, from which the export job copies them into the bundles that
//   ask for the widget;
// - for the npm package: `widget.js` (ESM: defineDocsAssistant, mountDocsAssistant) and
//   `widget-panel.js`, which imports the package's own `index.js`.
// Prints the gzipped sizes.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib/env.mjs';

const sources = join(root, 'sdk-wasm', 'js', 'widget');
const pkg = join(root, 'sdk-wasm', 'pkg');
const publicDir = join(root, 'worker', 'public');
const WASM = 'docs_edge_sdk_bg.wasm';
const common = { bundle: true, minify: true, target: 'es2022', legalComments: 'none', logLevel: 'warning', write: false };

const hash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 10);
export const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;

/** `docs-edge-sdk` as the package's browser entry: bundled in (`bundled`) or imported beside it. */
function sdkPlugin(bundled) {
  return {
    name: 'docs-edge-sdk',
    setup(build) {
      build.onResolve({ filter: /^docs-edge-sdk$/ }, () => (bundled ? { path: join(pkg, 'index.js') } : { path: './index.js', external: true }));
      build.onResolve({ filter: /^\.\/widget-panel\.js$/ }, () => ({ path: './widget-panel.js', external: true }));
    },
  };
}

async function one(options) {
  const { build } = await import('esbuild');
  const result = await build({ ...common, ...options });
  return result.outputFiles[0].contents;
}

/**
 * worker/public/_headers. The assets layer answers every path under a rule's pattern, a missing file
 * too (its 404 gets the rule's headers), so the year-long cache names each hashed file exactly: a
 * wildcard would make a browser or CDN keep the 404 of a part not deployed yet (a page ahead of a
 * deployment, a mistyped name) for a year. Other widget paths get the CORS headers only.
 */
function headersFile(hashed) {
  const open = ['Access-Control-Allow-Origin: *', 'Cross-Origin-Resource-Policy: cross-origin', 'X-Content-Type-Options: nosniff'];
  const rule = (path, headers) => [path, ...headers.map((h) => `  ${h}`)].join('\n');
  return [
    '# Written by scripts/build-widget.mjs: the assistant widget\'s headers (the assets layer serves its files',
    '# without running the worker). widget.js keeps its name, so caches re-check it within minutes; the',
    '# parts are named by their content and cached a year, each by its exact name, so that a missing one',
    '# is never cached.',
    rule('/widget.js', [...open, 'Cache-Control: public, max-age=300, stale-while-revalidate=86400']),
    // Headers of several matching rules add up (a second Cache-Control would be appended): this one
    // sets none, so a 404 here carries the assets layer's own, uncached.
    rule('/widget/*', open),
    ...hashed.map((path) => rule(path, ['Cache-Control: public, max-age=31536000, immutable'])),
    '',
  ].join('\n');
}

export async function buildWidget() {
  // Served: the wasm and the panel under names that change with their content.
  const wasm = readFileSync(join(pkg, WASM));
  const wasmName = `sdk.${hash(wasm)}.wasm`;
  let panel = Buffer.from(await one({ entryPoints: [join(sources, 'panel.js')], format: 'esm', plugins: [sdkPlugin(true)] })).toString();
  if (!panel.includes(`"./${WASM}"`)) throw new Error(`the SDK bundle no longer names ./${WASM}: update build-widget.mjs`);
  panel = panel.replaceAll(`"./${WASM}"`, `"./${wasmName}"`);
  const panelName = `panel.${hash(panel)}.js`;
  const launcher = await one({
    entryPoints: [join(sources, 'widget.js')],
    format: 'iife',
    define: { __PANEL__: JSON.stringify(panelName) },
  });
  rmSync(join(publicDir, 'widget'), { recursive: true, force: true });
  mkdirSync(join(publicDir, 'widget'), { recursive: true });
  writeFileSync(join(publicDir, 'widget.js'), launcher);
  writeFileSync(join(publicDir, 'widget', panelName), panel);
  writeFileSync(join(publicDir, 'widget', wasmName), wasm);
  // What an export that asks for the widget copies into its bundle (worker/src/shared/assets.rs).
  writeFileSync(join(publicDir, '_headers'), headersFile([`/widget/${panelName}`, `/widget/${wasmName}`]));
  writeFileSync(join(publicDir, 'widget-files.json'), JSON.stringify(['widget.js', `widget/${panelName}`, `widget/${wasmName}`]));

  // npm: ESM beside the package's index.js.
  writeFileSync(join(pkg, 'widget.js'), await one({ entryPoints: [join(sources, 'module.js')], format: 'esm', plugins: [sdkPlugin(false)] }));
  writeFileSync(join(pkg, 'widget-panel.js'), await one({ entryPoints: [join(sources, 'panel.js')], format: 'esm', plugins: [sdkPlugin(false)] }));

  const sizes = { launcher: gz(launcher), panel: gz(Buffer.from(panel)), wasm: gz(wasm) };
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`widget: launcher ${kib(sizes.launcher)}, panel with the SDK ${kib(sizes.panel)}, wasm ${kib(sizes.wasm)} (gzip -9)`);
  return { ...sizes, panelName, wasmName };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildWidget().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
