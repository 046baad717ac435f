#!/usr/bin/env node
// `npm run deploy`: builds both Worker scripts and the assistant widget (its static assets) and deploys
// them with wrangler, the builder (wrangler.builder.toml) first, since the request-serving script
// (wrangler.toml) binds its Durable Objects by script name and the script itself as a service.
// Arguments after `--` go to both `wrangler deploy` calls (`--env`, …). The builder binds one class
// of the request-serving script too (EXPORT_ORGS): on a first deploy, when that script does not exist
// and Cloudflare refuses the binding, the builder is deployed without it, then the request-serving
// script, then the builder whole.
//
// `--move-builder-classes`, once, for a deployment from before the builder script (PublishJob and
// ExportJob in docs-edge, with their jobs): the builder is deployed with a migration that transfers
// both classes, and their stored jobs, from docs-edge instead of creating them (Cloudflare's
// `transferred_classes`). Its tag is the one the usual migration has, so later deploys apply nothing.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorker } from './build-worker.mjs';
import { buildSdk } from './build-sdk.mjs';
import { nodeBin, root, toolEnv } from './lib/env.mjs';

const MOVE_FLAG = '--move-builder-classes';
const MOVED_CLASSES = ['PublishJob', 'ExportJob'];

/** wrangler.builder.toml with its migration transferring the classes from the `from` script. */
export function movingConfig(text, from) {
  const migration = /\[\[migrations\]\]\ntag = "v1"\nnew_sqlite_classes = \[[^\]]*\]\n/;
  if (!migration.test(text)) throw new Error('wrangler.builder.toml: its v1 migration is not the expected new_sqlite_classes one');
  const transfers = MOVED_CLASSES.map((c) => `  { from = "${c}", from_script = "${from}", to = "${c}" },`).join('\n');
  return text.replace(migration, `[[migrations]]\ntag = "v1"\ntransferred_classes = [\n${transfers}\n]\n`);
}

/** wrangler.builder.toml without its bindings to the request-serving script's classes (a
 * `script_name` naming `edge`): what a first deploy deploys before that script exists. */
export function withoutEdgeBindings(text, edge) {
  const line = new RegExp(`^  \\{ name = "[A-Z_]+", class_name = "[A-Za-z]+", script_name = "${edge}" \\},\\n`, 'gm');
  if (!line.test(text)) throw new Error(`wrangler.builder.toml binds no class of ${edge}`);
  return text.replace(line, '');
}

/** `binding → id` of a config's KV namespaces and D1 databases. */
function storageIds(text) {
  const ids = {};
  for (const m of text.matchAll(/^\[\[(kv_namespaces|d1_databases)\]\]\n((?:[a-z_]+ = "[^"]*"\n?)+)/gm)) {
    const binding = /^binding = "([^"]+)"/m.exec(m[2])?.[1];
    const id = /^(?:id|database_id) = "([^"]+)"/m.exec(m[2])?.[1];
    if (binding) ids[binding] = id;
  }
  return ids;
}

/** Why the builder's KV and D1 bindings do not name the request-serving script's storage (it runs
 * the admin routes on the same organizations, keys and analytics), or `undefined` when they do. */
export function sharedStorageMismatch(edgeText, builderText) {
  const edge = storageIds(edgeText);
  const builder = storageIds(builderText);
  for (const [binding, id] of Object.entries(builder)) {
    if (edge[binding] !== id) {
      return `wrangler.builder.toml binds ${binding} to ${id}, wrangler.toml to ${edge[binding] ?? 'nothing'}: give both the same id`;
    }
  }
  return undefined;
}

function deploy(config, extra) {
  if (!tryDeploy(config, extra)) throw new Error(`wrangler deploy -c ${config} failed`);
}

function tryDeploy(config, extra) {
  return spawnSync(join(nodeBin, 'wrangler'), ['deploy', '-c', config, ...extra], { cwd: root, env: toolEnv(), stdio: 'inherit' }).status === 0;
}

async function main(args) {
  const move = args.includes(MOVE_FLAG);
  const extra = args.filter((a) => a !== MOVE_FLAG);
  const mismatch = sharedStorageMismatch(readFileSync(join(root, 'wrangler.toml'), 'utf8'), readFileSync(join(root, 'wrangler.builder.toml'), 'utf8'));
  if (mismatch) throw new Error(mismatch);
  buildWorker();
  // The assistant widget (worker/public/widget*) is built from the SDK package.
  await buildSdk();
  let builderConfig = 'wrangler.builder.toml';
  const edgeName = /^name = "([^"]+)"/m.exec(readFileSync(join(root, 'wrangler.toml'), 'utf8'))?.[1];
  if (!edgeName) throw new Error('wrangler.toml has no name');
  // Beside the real one, so its relative paths (main, assets, build) resolve the same.
  const moving = join(root, '.wrangler.builder.move.toml');
  const first = join(root, '.wrangler.builder.first.toml');
  if (move) {
    writeFileSync(moving, movingConfig(readFileSync(join(root, builderConfig), 'utf8'), edgeName));
    builderConfig = moving;
  }
  try {
    if (tryDeploy(builderConfig, extra)) {
      deploy('wrangler.toml', extra);
      return;
    }
    // Perhaps a first deploy: the request-serving script, whose class the builder binds, is not there yet.
    console.error(`deploying the builder without its bindings to ${edgeName}, then ${edgeName}, then the builder whole`);
    writeFileSync(first, withoutEdgeBindings(readFileSync(join(root, builderConfig), 'utf8'), edgeName));
    deploy(first, extra);
    deploy('wrangler.toml', extra);
    deploy(builderConfig, extra);
  } finally {
    rmSync(moving, { force: true });
    rmSync(first, { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
