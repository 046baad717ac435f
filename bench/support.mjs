// What every bench needs: the worker built and running under wrangler dev with a throwaway state
// folder, an enterprise organization with both key kinds, and a docs folder published to it.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { root } from '../scripts/lib/env.mjs';
import { bootstrap } from '../scripts/lib/bootstrap.mjs';
import { buildWorker } from '../scripts/build-worker.mjs';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { OperatorClient } from '../scripts/lib/operator.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
import { publishArchive } from '../scripts/publish-docs.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';

export const FIXTURE = join(root, '..', 'shared', 'fixtures', 'mintlify-docs');
export const DOMAIN = 'bench.example.com';

/** The value at quantile `p` of an ascending array. */
export const pct = (sorted, p) => sorted[Math.round((sorted.length - 1) * p)];

export const ms = (v) => `${v.toFixed(2)} ms`;

/** `folder` as given on the command line, else the fixture. */
export function docsFolder(arg) {
  return resolve(arg ?? FIXTURE);
}

/** Starts a bench worker; `publish` times the upload of `folder` and returns the milliseconds;
 * `restart` starts a new worker process on the same state, so what follows runs in fresh isolates
 * (wasm memory only grows, so a phase's high-water is its own only in an isolate of its own), its
 * output appended to `logFile` when given. */
export async function benchWorker({ vars = {} } = {}) {
  bootstrap({ quiet: true });
  buildWorker();
  const state = scratchDir('docs-edge-bench-');
  const rootToken = randomBytes(16).toString('hex');
  const allVars = { ROOT_TOKEN: rootToken, LINK_SIGNING_KEY: randomBytes(16).toString('hex'), ...vars };
  let worker = await startWorker({ persistTo: state, vars: allVars });
  const op = new OperatorClient(worker.baseUrl, rootToken);
  const org = await op.createOrg('bench', 'enterprise');
  await op.addDomain(org.orgId, DOMAIN);
  const adminKey = (await op.createKey(org.orgId, 'admin')).key;
  const assistantKey = (await op.createKey(org.orgId, 'assistant')).key;
  return {
    get baseUrl() {
      return worker.baseUrl;
    },
    get inspectorPort() {
      return worker.inspectorPort;
    },
    async restart({ logFile } = {}) {
      await worker.stop();
      worker = await startWorker({ persistTo: state, vars: allVars, logFile });
    },
    adminKey,
    assistantKey,
    rootToken,
    orgId: org.orgId,
    async publish(folder) {
      const archive = packDocsFolder(folder);
      const started = performance.now();
      await publishArchive({ baseUrl: worker.baseUrl, adminKey, domain: DOMAIN, archive, pollMs: 50 });
      return performance.now() - started;
    },
    /** /health round trips, sorted ascending. */
    async healthTimes(count) {
      const times = [];
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        await (await fetch(`${worker.baseUrl}/health`)).arrayBuffer();
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b);
    },
    async stop() {
      await worker.stop();
      rmSync(state, { recursive: true, force: true });
    },
  };
}

/** A JSON request to the bench worker with its admin key; the parsed answer, or an error naming the
 * status. */
export async function adminApi(bench, method, path, json) {
  const res = await fetch(`${bench.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.adminKey}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Reads a v1 answer's body to its end: ms from `started` to the first text part (`0:`), and in all. */
export async function timeAnswer(res, started) {
  const decoder = new TextDecoder();
  let seen = '';
  let firstText;
  for await (const chunk of res.body) {
    if (firstText === undefined) {
      seen += decoder.decode(chunk, { stream: true });
      if (/(^|\n)0:/.test(seen)) firstText = performance.now() - started;
    }
  }
  return { firstText: firstText ?? Number.NaN, total: performance.now() - started };
}

/** Measures each scale site of `copiesList` (N copies of the fixture's English pages), removed after. */
export async function eachScaleSite(copiesList, measureSite) {
  for (const copies of copiesList) {
    const site = writeScaleSite(FIXTURE, copies);
    try {
      await measureSite(`${copies} copies`, site.dir);
    } finally {
      rmSync(site.dir, { recursive: true, force: true });
    }
  }
}
