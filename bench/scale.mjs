#!/usr/bin/env node
// The scale site through a local worker (wrangler dev): the fixture's English pages copied N times
// under part0/ … part{N-1}/ (scripts/lib/scale-site.mjs; 40 copies is the scale issue's ~10,000-page
// site: 10,200 page files, 10,205 published pages on the current fixture), published, searched and
// asked. Three phases, each in a fresh worker process on the
// same --persist-to state, so each phase's isolate starts empty and its wasm memory high-water
// (the largest `wasmMemoryBytes` of its log lines) is its own:
//   publish    bootstrap an organization, upload the site (publish ms)
//   search     ~200 queries made from the site's page titles and headings: the first pass on the
//              fresh isolate is "cold" (empty search cache; `searchFirstMs` is the very first query),
//              then two more passes are "warm"; then as many `/health` round trips (`healthMs`)
//   assistant  ~50 questions, extractive backend: time to the first text part (`0:`), after one
//              warm-up question
// Prints one JSON line per size; asserts nothing.
//   node bench/scale.mjs                  40 copies and 1 copy
//   node bench/scale.mjs --copies 1,4     the given sizes, in order
//   node bench/scale.mjs --cache-bytes N  with SEARCH_CACHE_BYTES=N
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { settledLog } from '../scripts/lib/worker-log.mjs';
import { bootstrap } from '../scripts/lib/bootstrap.mjs';
import { buildWorker } from '../scripts/build-worker.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { OperatorClient } from '../scripts/lib/operator.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
import { publishArchive } from '../scripts/publish-docs.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';
import { DOMAIN, FIXTURE, pct, timeAnswer } from './support.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const args = process.argv.slice(2);
const copiesAt = args.indexOf('--copies');
const SIZES = copiesAt >= 0 ? args[copiesAt + 1].split(',').map(Number) : [40, 1];
const SEARCHES = 200;
const WARM_PASSES = 2;
const QUESTIONS = 50;
// The scale sites exceed the platform-sized upload defaults (5 MiB upload, 9 MiB source), as in
// bench/export.mjs; 40 copies is about 20 MB of source.
const LIMITS = { MAX_UPLOAD_BYTES: String(256 << 20), MAX_SOURCE_BYTES: String(256 << 20) };
// `--cache-bytes N` sets SEARCH_CACHE_BYTES (else the worker's default).
const cacheAt = args.indexOf('--cache-bytes');
const CACHE = cacheAt >= 0 ? { SEARCH_CACHE_BYTES: args[cacheAt + 1] } : {};

/** A deterministic shuffle (so every size asks the same things in the same order). */
function shuffled(items, seed = 7) {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Titles (frontmatter) and `##`/`###` headings of the site's pages under part0/. */
function titlesAndHeadings(dir) {
  const titles = new Set();
  const headings = new Set();
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.mdx?$/.test(name)) {
        const text = readFileSync(full, 'utf8');
        const title = /^---[\s\S]*?^title:\s*["']?(.+?)["']?\s*$/m.exec(text)?.[1];
        if (title) titles.add(title.replace(/\\/g, '').trim());
        for (const m of text.matchAll(/^#{2,3}\s+(.+?)\s*$/gm)) {
          const h = m[1].replace(/[`*_[\]{}<>]/g, '').replace(/\(.*?\)/g, '').trim();
          if (h.length >= 4 && h.length <= 60 && /[a-z]/i.test(h)) headings.add(h);
        }
      }
    }
  };
  walk(join(dir, 'part0'));
  return { titles: [...titles], headings: [...headings] };
}

function workload(dir) {
  const { titles, headings } = titlesAndHeadings(dir);
  const pool = shuffled([...titles, ...headings]);
  const searches = [];
  for (const text of pool) {
    if (searches.length >= SEARCHES) break;
    // Alternate whole titles/headings with their first two or three words, as people type them.
    const words = text.split(/\s+/);
    searches.push(searches.length % 3 === 2 && words.length > 3 ? words.slice(0, 3).join(' ') : text);
  }
  const questions = shuffled(headings, 11).slice(0, QUESTIONS).map((h, i) =>
    [`How do I ${h.charAt(0).toLowerCase()}${h.slice(1)}?`, `What is ${h}?`, `Tell me about ${h}.`][i % 3]);
  return { searches, questions };
}



const highWater = (lines) => Math.max(0, ...lines.map((l) => l.wasmMemoryBytes ?? 0));
const round2 = (v) => Math.round(v * 100) / 100;
const summary = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return { p50: round2(pct(sorted, 0.5)), p99: round2(pct(sorted, 0.99)) };
};

async function phase(state, name, vars, work) {
  const logFile = join(state, `${name}.log`);
  const worker = await startWorker({ persistTo: join(state, 'state'), logFile, vars });
  try {
    const ids = [];
    const result = await work(worker.baseUrl, ids);
    const lines = await settledLog(logFile, ids.filter(Boolean));
    return { ...result, wasmMemoryBytes: highWater(lines), lines };
  } finally {
    await worker.stop();
  }
}

async function measure(copies) {
  const site = writeScaleSite(FIXTURE, copies);
  const state = scratchDir(`docs-edge-scale-bench-${copies}x-`);
  const vars = { ROOT_TOKEN: randomBytes(16).toString('hex'), LINK_SIGNING_KEY: randomBytes(16).toString('hex'), ...LIMITS, ...CACHE };
  try {
    const { searches, questions } = workload(site.dir);
    const archive = packDocsFolder(site.dir);
    let keys;

    const publish = await phase(state, 'publish', vars, async (base, ids) => {
      const op = new OperatorClient(base, vars.ROOT_TOKEN);
      const org = await op.createOrg('bench', 'enterprise');
      await op.addDomain(org.orgId, DOMAIN);
      keys = { admin: (await op.createKey(org.orgId, 'admin')).key, assistant: (await op.createKey(org.orgId, 'assistant')).key };
      const started = performance.now();
      const body = await publishArchive({ baseUrl: base, adminKey: keys.admin, domain: DOMAIN, archive, pollMs: 50 });
      const publishMs = performance.now() - started;
      return { publishMs, pages: body.pageCount, warnings: body.warnings?.length ?? 0 };
    });

    const search = await phase(state, 'search', vars, async (base, ids) => {
      const one = async (query) => {
        const t = performance.now();
        const res = await fetch(`${base}/discovery/v1/search/${DOMAIN}`, {
          method: 'POST', headers: { authorization: `Bearer ${keys.assistant}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        const body = await res.text();
        const elapsed = performance.now() - t;
        if (!res.ok) throw new Error(`search ${JSON.stringify(query)}: ${res.status} ${body.slice(0, 300)}`);
        ids.push(res.headers.get('x-request-id'));
        return { elapsed, hits: JSON.parse(body).length ?? 0 };
      };
      const cold = [];
      let found = 0;
      for (const q of searches) {
        const r = await one(q);
        cold.push(r.elapsed);
        if (r.hits > 0) found++;
      }
      const warm = [];
      for (let pass = 0; pass < WARM_PASSES; pass++) for (const q of searches) warm.push((await one(q)).elapsed);
      // The warm-search target is relative to a request that does nothing, on the same isolate.
      const health = [];
      for (let i = 0; i < searches.length; i++) {
        const t = performance.now();
        await (await fetch(`${base}/health`)).arrayBuffer();
        health.push(performance.now() - t);
      }
      return { cold, warm, found, health };
    });

    const assistant = await phase(state, 'assistant', vars, async (base, ids) => {
      const ask = async (question, client) => {
        const started = performance.now();
        const res = await fetch(`${base}/discovery/v1/assistant/${DOMAIN}/message`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys.assistant}`, 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${client + 1}` },
          body: JSON.stringify({ fp: 'bench', messages: [{ id: 'm1', role: 'user', content: question, parts: [{ type: 'text', text: question }] }] }),
        });
        if (!res.ok) throw new Error(`assistant answered ${res.status}: ${await res.text()}`);
        ids.push(res.headers.get('x-request-id'));
        return timeAnswer(res, started);
      };
      const first = await ask('How do I get started?', 0);
      const answers = [];
      for (let i = 0; i < questions.length; i++) answers.push(await ask(questions[i], i % 50));
      return { first, answers };
    });

    const searchLines = search.lines.filter((l) => l.event === 'request' && l.path?.startsWith('/discovery/'));
    const assistantLines = assistant.lines.filter((l) => l.event === 'request' && l.path?.startsWith('/discovery/'));
    const figures = {
      copies,
      pages: publish.pages,
      publishWarnings: publish.warnings,
      sourcePages: site.pages,
      archiveBytes: archive.length,
      publishMs: Math.round(publish.publishMs),
      searches: searches.length,
      searchesWithHits: search.found,
      searchFirstMs: round2(search.cold[0]),
      searchColdMs: summary(search.cold),
      searchWarmMs: summary(search.warm),
      healthMs: summary(search.health),
      questions: questions.length,
      assistantFirstAnswerFirstByteMs: round2(assistant.first.firstText),
      assistantFirstByteMs: summary(assistant.answers.map((a) => a.firstText)),
      assistantTotalMs: summary(assistant.answers.map((a) => a.total)),
      wasmMemoryBytes: { publish: publish.wasmMemoryBytes, search: search.wasmMemoryBytes, assistant: assistant.wasmMemoryBytes },
      wasmMemoryMiB: {
        publish: round2(publish.wasmMemoryBytes / 1048576),
        search: round2(search.wasmMemoryBytes / 1048576),
        assistant: round2(assistant.wasmMemoryBytes / 1048576),
      },
      searchCacheBytesPeak: {
        search: Math.max(0, ...searchLines.map((l) => l.searchCacheBytes ?? 0)),
        assistant: Math.max(0, ...assistantLines.map((l) => l.searchCacheBytes ?? 0)),
      },
      searchCacheEvictions: {
        search: Math.max(0, ...searchLines.map((l) => l.searchCacheEvictions ?? 0)),
        assistant: Math.max(0, ...assistantLines.map((l) => l.searchCacheEvictions ?? 0)),
      },
    };
    console.log(JSON.stringify(figures));
  } finally {
    rmSync(site.dir, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
}

bootstrap({ quiet: true });
buildWorker();
for (const copies of SIZES) {
  try {
    await measure(copies);
  } catch (err) {
    console.log(JSON.stringify({ copies, error: String(err.message ?? err).slice(0, 2000) }));
    process.exitCode = 1;
  }
}
