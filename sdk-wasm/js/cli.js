#!/usr/bin/env node
// The `docs-edge` bin of the npm package: `npx docs-edge-sdk publish <folder> --domain …`.
// Node only, no wasm: esbuild bundles it apart from the SDK (scripts/build-sdk.mjs).
import { main, usage } from './publish/command.js';

const [subcommand, ...rest] = process.argv.slice(2);
if (subcommand === 'publish') {
  process.exitCode = await main(rest);
} else if (subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
  process.stdout.write(`${usage('docs-edge publish')}\n`);
} else {
  process.stderr.write(`${subcommand ? `unknown command: ${subcommand}\n` : ''}${usage('docs-edge publish')}\n`);
  process.exitCode = 2;
}
