// The two Worker scripts' configs agree with each other, and the one-off upgrade deploy
// (`npm run deploy -- --move-builder-classes`) and a first deploy's builder (without its binding to
// the request-serving script's class) are configs wrangler accepts: checked with
// `wrangler deploy --dry-run`, which bundles without contacting Cloudflare.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeBin, root, toolEnv } from '../scripts/lib/env.mjs';
import { movingConfig, sharedStorageMismatch, withoutEdgeBindings } from '../scripts/deploy.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const edge = readFileSync(join(root, 'wrangler.toml'), 'utf8');
const builder = readFileSync(join(root, 'wrangler.builder.toml'), 'utf8');
const name = (toml) => /^name = "([^"]+)"/m.exec(toml)?.[1];
/** `{ name = "X", class_name = "Y", script_name? = "Z" }` bindings, by binding name. */
const bindings = (toml) =>
  Object.fromEntries([...toml.matchAll(/\{ name = "([^"]+)", class_name = "([^"]+)"(?:, script_name = "([^"]+)")? \}/g)].map((m) => [m[1], { className: m[2], scriptName: m[3] }]));
/** Classes the migrations create or receive, in order. */
const migrated = (toml) => [...toml.matchAll(/(?:new_sqlite_classes = \[([^\]]*)\]|to = "([^"]+)")/g)].flatMap((m) => (m[1] !== undefined ? [...m[1].matchAll(/"([^"]+)"/g)].map((c) => c[1]) : [m[2]]));

const scratch = scratchDir('docs-edge-deploy-configs-');
const moving = join(root, '.wrangler.builder.move-test.toml');
after(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(moving, { force: true });
});

function dryRun(config) {
  const outdir = join(scratch, String(Math.random()).slice(2));
  const result = spawnSync(join(nodeBin, 'wrangler'), ['deploy', '--dry-run', '--outdir', outdir, '-c', config], { cwd: root, env: toolEnv({ CI: '1' }), encoding: 'utf8' });
  return { ...result, files: result.status === 0 ? readdirSync(outdir) : [] };
}

test('the request-serving script binds the builder\'s objects by its name, and each script migrates only its own classes', () => {
  const builderName = name(builder);
  const builderBindings = bindings(builder);
  const edgeBindings = bindings(edge);
  assert.ok(builderName && builderName !== name(edge));
  const ownBuilderClasses = [];
  for (const [binding, { className, scriptName }] of Object.entries(builderBindings)) {
    if (scriptName) {
      // The builder starts hosted sites' exports through the request-serving script's ExportOrg.
      assert.equal(scriptName, name(edge), `the builder binds ${className} of the request-serving script`);
      assert.deepEqual(edgeBindings[binding], { className, scriptName: undefined }, `wrangler.toml holds ${className} as ${binding}`);
      continue;
    }
    ownBuilderClasses.push(className);
    assert.deepEqual(edgeBindings[binding], { className, scriptName: builderName }, `wrangler.toml binds ${binding} to ${builderName}'s ${className}`);
  }
  const ownEdgeClasses = Object.values(edgeBindings).filter((b) => !b.scriptName).map((b) => b.className);
  assert.deepEqual(migrated(edge).sort(), ownEdgeClasses.sort(), 'wrangler.toml migrates exactly the classes it holds');
  assert.deepEqual(migrated(builder).sort(), ownBuilderClasses.sort(), 'the builder migrates exactly its classes');
});

test('the request-serving script binds the builder as a service, and the builder, trusting what that script sends, has no public URL', () => {
  const service = /^\[\[services\]\]\nbinding = "([^"]+)"\nservice = "([^"]+)"$/m.exec(edge);
  assert.deepEqual(service?.slice(1), ['BUILDER', name(builder)], 'wrangler.toml binds the builder script as BUILDER');
  assert.match(builder, /^workers_dev = false$/m);
  assert.match(builder, /^preview_urls = false$/m);
  assert.doesNotMatch(builder, /^(routes?|\[triggers\]|\[\[routes\]\])/m, 'no route, no cron of its own: the request-serving script orders the sweep');
});

test('the builder binds the same KV namespace and D1 database as the request-serving script, and deploy refuses other ids', () => {
  assert.match(builder, /^\[\[kv_namespaces\]\]\nbinding = "STATE"$/m);
  assert.match(builder, /^\[\[d1_databases\]\]\nbinding = "ANALYTICS"$/m);
  assert.equal(sharedStorageMismatch(edge, builder), undefined);
  const otherKv = builder.replace(/(\[\[kv_namespaces\]\]\nbinding = "STATE"\nid = ")[^"]+/, '$1' + 'f'.repeat(32));
  assert.match(sharedStorageMismatch(edge, otherKv) ?? '', /binds STATE to f{32}, wrangler.toml to 0{32}/);
  const otherD1 = builder.replace(/database_id = "[^"]+"/, 'database_id = "11111111-0000-0000-0000-000000000000"');
  assert.match(sharedStorageMismatch(edge, otherD1) ?? '', /binds ANALYTICS to 11111111/);
});

test('the upgrade deploy transfers the builder\'s classes from the request-serving script, and wrangler accepts it', () => {
  const text = movingConfig(builder, name(edge));
  assert.doesNotMatch(text, /new_sqlite_classes/);
  assert.deepEqual(migrated(text).sort(), migrated(builder).sort(), 'every class the builder creates is transferred instead');
  for (const c of migrated(builder)) assert.match(text, new RegExp(`\\{ from = "${c}", from_script = "${name(edge)}", to = "${c}" \\}`));
  assert.equal(/^tag = "([^"]+)"/m.exec(text)?.[1], /^tag = "([^"]+)"/m.exec(builder)?.[1], 'the same tag, so later deploys apply nothing');
  writeFileSync(moving, text);
  const result = dryRun(moving);
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
  assert.ok(result.files.some((f) => f.endsWith('.wasm')), 'the builder bundle carries its wasm');
});

test('a first deploy\'s builder, before the request-serving script exists, binds none of its classes, and wrangler accepts it', () => {
  const text = withoutEdgeBindings(builder, name(edge));
  assert.ok(Object.values(bindings(builder)).some((b) => b.scriptName === name(edge)), 'the builder binds a class of the request-serving script');
  assert.deepEqual(Object.values(bindings(text)).filter((b) => b.scriptName), [], 'none left');
  assert.deepEqual(migrated(text), migrated(builder));
  writeFileSync(moving, text);
  const result = dryRun(moving);
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
});
