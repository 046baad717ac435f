#!/usr/bin/env node
// Many tenants on one isolate (the scale issue's second memory target): `--sites N` organizations
// (default 50), each with its own domain and a site of `--copies C` copies of the fixture's English
// pages (default 4: 1,025 pages, the "ordinary 1,000-page site"), published in one worker process;
// then a fresh worker process on the same state (so its isolate starts empty) answers `--rounds R`
// round-robin passes of searches over every site (default 8: 400 searches), then one assistant
// question per site. Prints one JSON line: pages per site, the search and first-byte p50/p99, the
// search cache's peak bytes and evictions, and the wasm memory high-water of the serving isolate
// (`wasmMemoryBytes`, the largest in its log lines). Asserts nothing.
//   node bench/tenants.mjs [--sites 50] [--copies 4] [--rounds 8] [--cache-bytes N]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { settledLog } from '../scripts/lib/worker-log.mjs';
import { bootstrap } from '../scripts/lib/bootstrap.mjs';
import { buildWorker } from '../scripts/build-worker.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { OperatorClient } from '../scripts/lib/operator.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';
import { FIXTURE, pct, timeAnswer } from './support.mjs';
import { publishArchive } from '../scripts/publish-docs.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const SITES = option('--sites', 50);
const COPIES = option('--copies', 4);
const ROUNDS = option('--rounds', 8);
const CACHE_BYTES = option('--cache-bytes', undefined);
const QUERIES = ['custom domain', 'api key', 'static export bundle', 'analytics', 'getting started', 'authentication', 'webhooks', 'search'];

const round2 = (v) => Math.round(v * 100) / 100;
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round2(pct(sorted, 0.5)), p99: round2(pct(sorted, 0.99)) };
};
const domainOf = (i) => `tenant${i}.example.com`;


bootstrap({ quiet: true });
buildWorker();
const site = writeScaleSite(FIXTURE, COPIES);
const state = scratchDir('docs-edge-tenants-bench-');
const vars = {
  ROOT_TOKEN: randomBytes(16).toString('hex'),
  LINK_SIGNING_KEY: randomBytes(16).toString('hex'),
  MAX_UPLOAD_BYTES: String(64 << 20),
  MAX_SOURCE_BYTES: String(64 << 20),
  ...(CACHE_BYTES ? { SEARCH_CACHE_BYTES: String(CACHE_BYTES) } : {}),
};
try {
  const archive = packDocsFolder(site.dir);
  const tenants = [];
  let pages = 0;
  const publisher = await startWorker({ persistTo: state, vars });
  try {
    const op = new OperatorClient(publisher.baseUrl, vars.ROOT_TOKEN);
    for (let i = 0; i < SITES; i++) {
      const org = await op.createOrg(`tenant ${i}`, 'enterprise');
      await op.addDomain(org.orgId, domainOf(i));
      const admin = (await op.createKey(org.orgId, 'admin')).key;
      const assistant = (await op.createKey(org.orgId, 'assistant')).key;
      const published = await publishArchive({ baseUrl: publisher.baseUrl, adminKey: admin, domain: domainOf(i), archive, pollMs: 50 });
      pages = published.pageCount;
      tenants.push({ domain: domainOf(i), assistant });
    }
  } finally {
    await publisher.stop();
  }

  const logFile = join(state, 'serve.log');
  const server = await startWorker({ persistTo: state, logFile, vars });
  const ids = [];
  const searchMs = [];
  const firstByteMs = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of tenants) {
        const started = performance.now();
        const res = await fetch(`${server.baseUrl}/discovery/v1/search/${t.domain}`, {
          method: 'POST', headers: { authorization: `Bearer ${t.assistant}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: QUERIES[round % QUERIES.length] }),
        });
        await res.text();
        searchMs.push(performance.now() - started);
        if (!res.ok) throw new Error(`search on ${t.domain}: ${res.status}`);
        ids.push(res.headers.get('x-request-id'));
      }
    }
    for (const [i, t] of tenants.entries()) {
      const question = 'How do I set up a custom domain?';
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/discovery/v1/assistant/${t.domain}/message`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.assistant}`, 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${(i % 200) + 1}` },
        body: JSON.stringify({ fp: 'bench', messages: [{ id: 'm1', role: 'user', content: question, parts: [{ type: 'text', text: question }] }] }),
      });
      if (!res.ok) throw new Error(`assistant on ${t.domain}: ${res.status}`);
      ids.push(res.headers.get('x-request-id'));
      firstByteMs.push((await timeAnswer(res, started)).firstText);
    }
  } finally {
    await server.stop();
  }
  const lines = (await settledLog(logFile, ids.filter(Boolean))).filter((l) => l.event === 'request');
  const high = Math.max(0, ...lines.map((l) => l.wasmMemoryBytes ?? 0));
  console.log(JSON.stringify({
    sites: SITES,
    pagesPerSite: pages,
    searches: searchMs.length,
    searchMs: summary(searchMs),
    assistantFirstByteMs: summary(firstByteMs),
    searchCacheBytesPeak: Math.max(0, ...lines.map((l) => l.searchCacheBytes ?? 0)),
    searchCacheEvictions: Math.max(0, ...lines.map((l) => l.searchCacheEvictions ?? 0)),
    wasmMemoryBytes: high,
    wasmMemoryMiB: round2(high / 1048576),
  }));
} finally {
  rmSync(site.dir, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
}
