#!/usr/bin/env node
// Publishing and search figures for a docs folder (default: the 1,130-page fixture):
// natively (time, peak heap, index size, query p50/p99) and through the worker under wrangler dev
// (publish time, query p50/p99). Prints figures; asserts nothing.
//   node bench/publish.mjs [docs folder]
import { spawnSync } from 'node:child_process';
import { root, toolEnv } from '../scripts/lib/env.mjs';
import { bootstrap } from '../scripts/lib/bootstrap.mjs';
import { benchWorker, docsFolder, DOMAIN, pct } from './support.mjs';

const folder = docsFolder(process.argv[2]);
const QUERIES = ['static export bundle', 'custom domain', 'how do I add redirects', 'api key', 'analytics export csv',
  'single sign-on', 'openapi playground', 'dominio personalizado', '自定义域名', 'rate limits'];

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
console.log(`  of which agent documents (every page as Markdown): ${n.agentDocsMs.toFixed(0)} ms; llms.txt ${(n.llmsTxtBytes / 1e3).toFixed(1)} kB, llms-full.txt ${(n.llmsFullBytes / 1e6).toFixed(2)} MB`);
console.log(`  index load ${n.indexLoadMs.toFixed(1)} ms; query p50 ${n.queryP50Ms.toFixed(3)} ms, p99 ${n.queryP99Ms.toFixed(3)} ms`);

const bench = await benchWorker();
try {
  const publishMs = await bench.publish(folder);
  const search = async (query) => {
    const t = performance.now();
    const r = await fetch(`${bench.baseUrl}/discovery/v1/search/${DOMAIN}`, {
      method: 'POST', headers: { authorization: `Bearer ${bench.assistantKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    await r.arrayBuffer();
    return performance.now() - t;
  };
  await search('warm up the isolate cache');
  const times = [];
  for (let i = 0; i < 20; i++) for (const q of QUERIES) times.push(await search(q));
  times.sort((a, b) => a - b);
  const health = await bench.healthTimes(200);
  console.log('through the worker (wrangler dev, local):');
  console.log(`  publish (upload + parse + index + R2 writes): ${publishMs.toFixed(0)} ms`);
  console.log(`  search p50 ${pct(times, 0.5).toFixed(2)} ms, p99 ${pct(times, 0.99).toFixed(2)} ms (HTTP round trip; /health p50 ${pct(health, 0.5).toFixed(2)} ms)`);
} finally {
  await bench.stop();
}
