#!/usr/bin/env node
// Publishing and search figures for a docs folder (default: the 1,130-page fixture):
// natively (time, peak heap, index size, query p50/p99) and through the worker under wrangler dev
// (publish time, query p50/p99). Prints figures; asserts nothing.
//   node bench/publish.mjs [docs folder]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { root, toolEnv } from '../scripts/lib/env.mjs';
import { bootstrap } from '../scripts/lib/bootstrap.mjs';
import { buildWorker } from '../scripts/build-worker.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { OperatorClient } from '../scripts/lib/operator.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';

const folder = resolve(process.argv[2] ?? join(root, '..', 'shared', 'fixtures', 'mintlify-docs'));
const QUERIES = ['static export bundle', 'custom domain', 'how do I add redirects', 'api key', 'analytics export csv',
  'single sign-on', 'openapi playground', 'dominio personalizado', '自定义域名', 'rate limits'];

const pct = (sorted, p) => sorted[Math.round((sorted.length - 1) * p)];

bootstrap({ quiet: true });
console.log(`docs folder: ${folder}`);
const native = spawnSync('cargo', ['run', '--quiet', '--release', '-p', 'docs-edge-core', '--example', 'publish_bench', '--', folder], {
  cwd: root, env: toolEnv(), encoding: 'utf8', maxBuffer: 1 << 24,
});
if (native.status !== 0) {
  console.error(native.stderr);
  process.exit(1);
}
const n = JSON.parse(native.stdout.trim().split('\n').pop());
console.log('native (release build):');
console.log(`  pages ${n.pages} (${n.languages.join(', ')}), ${n.warnings} warnings`);
console.log(`  source ${(n.sourceBytes / 1e6).toFixed(2)} MB, archive ${(n.archiveBytes / 1e6).toFixed(2)} MB, index ${(n.indexBytes / 1e6).toFixed(2)} MB (${n.indexToSource.toFixed(2)}x source)`);
console.log(`  archive -> site -> index: ${n.publishMs.toFixed(0)} ms, peak heap ${(n.peakHeapBytes / 1048576).toFixed(1)} MiB (+ the ${(n.archiveBytes / 1048576).toFixed(1)} MiB upload)`);
console.log(`  index load ${n.indexLoadMs.toFixed(1)} ms; query p50 ${n.queryP50Ms.toFixed(3)} ms, p99 ${n.queryP99Ms.toFixed(3)} ms`);

buildWorker();
const state = mkdtempSync(join(tmpdir(), 'docs-edge-bench-'));
const rootToken = randomBytes(16).toString('hex');
const worker = await startWorker({ persistTo: state, vars: { ROOT_TOKEN: rootToken } });
try {
  const op = new OperatorClient(worker.baseUrl, rootToken);
  const org = await op.createOrg('bench', 'enterprise');
  await op.addDomain(org.orgId, 'bench.example.com');
  const admin = await op.createKey(org.orgId, 'admin');
  const assistant = await op.createKey(org.orgId, 'assistant');
  const archive = packDocsFolder(folder);
  const started = performance.now();
  const res = await fetch(`${worker.baseUrl}/v1/sites/bench.example.com/content`, {
    method: 'PUT', headers: { authorization: `Bearer ${admin.key}`, 'content-type': 'application/gzip' }, body: archive,
  });
  const publishMs = performance.now() - started;
  if (!res.ok) throw new Error(`publish failed: ${res.status} ${await res.text()}`);
  const search = async (query) => {
    const t = performance.now();
    const r = await fetch(`${worker.baseUrl}/discovery/v1/search/bench.example.com`, {
      method: 'POST', headers: { authorization: `Bearer ${assistant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    await r.arrayBuffer();
    return performance.now() - t;
  };
  await search('warm up the isolate cache');
  const times = [];
  for (let i = 0; i < 20; i++) for (const q of QUERIES) times.push(await search(q));
  times.sort((a, b) => a - b);
  const health = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await (await fetch(`${worker.baseUrl}/health`)).arrayBuffer();
    health.push(performance.now() - t);
  }
  health.sort((a, b) => a - b);
  console.log('through the worker (wrangler dev, local):');
  console.log(`  publish (upload + parse + index + R2 writes): ${publishMs.toFixed(0)} ms`);
  console.log(`  search p50 ${pct(times, 0.5).toFixed(2)} ms, p99 ${pct(times, 0.99).toFixed(2)} ms (HTTP round trip; /health p50 ${pct(health, 0.5).toFixed(2)} ms)`);
} finally {
  await worker.stop();
  rmSync(state, { recursive: true, force: true });
}
