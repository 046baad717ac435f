#!/usr/bin/env node
// Static export figures on a docs folder (default: the fixture), through the worker under wrangler dev:
// time from start to completed and to the bundle link, pages per second, bundle size, and what one
// search in the exported site loads (measured in headless Chromium). Prints figures; asserts nothing.
//   node bench/export.mjs [docs folder] [query]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchWorker, docsFolder, DOMAIN } from './support.mjs';
import { launchChromium, serveFolder } from '../tests/support/browser.mjs';

const folder = docsFolder(process.argv[2]);
const QUERY = process.argv[3] ?? 'static export bundle';

async function api(bench, method, path, json) {
  const res = await fetch(`${bench.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.adminKey}`, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Bytes fetched under `_static/search/` while the exported site answers `query` in its search box. */
async function searchBytes(dir, query) {
  const server = await serveFolder(dir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/index.html`);
    let bytes = 0;
    const files = [];
    page.on('response', async (res) => {
      if (!new URL(res.url()).pathname.startsWith('/_static/search/')) return;
      const body = await res.body().catch(() => Buffer.alloc(0));
      bytes += body.length;
      files.push(new URL(res.url()).pathname);
    });
    const box = page.locator('.search-input');
    await page.waitForFunction(() => !document.querySelector('.search-input').disabled);
    await box.fill(query);
    await page.waitForSelector('.search-results a', { timeout: 10_000 });
    await page.waitForTimeout(300);
    return { bytes, files };
  } finally {
    await browser.close();
    await server.close();
  }
}

const bench = await benchWorker();
try {
  console.log(`docs folder: ${folder}`);
  console.log(`published in ${(await bench.publish(folder)).toFixed(0)} ms`);
  const started = performance.now();
  const job = await api(bench, 'POST', '/v1/static-export/jobs', { domain: DOMAIN });
  let status = job;
  while (status.status === 'queued' || status.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    status = await api(bench, 'GET', `/v1/static-export/jobs/${job.jobId}`);
  }
  const completedMs = performance.now() - started;
  if (status.status !== 'completed') throw new Error(`job ${status.status}: ${status.error}`);
  const link = await api(bench, 'POST', `/v1/static-export/jobs/${job.jobId}/bundle`);
  const bundledMs = performance.now() - started;
  const download = Buffer.from(await (await fetch(link.bundleUrl)).arrayBuffer());
  const dir = mkdtempSync(join(tmpdir(), 'docs-edge-export-bench-'));
  writeFileSync(join(dir, '..', `${dir.split('/').pop()}.tar.gz`), download);
  spawnSync('tar', ['-xzf', join(dir, '..', `${dir.split('/').pop()}.tar.gz`), '-C', dir]);
  const files = spawnSync('tar', ['-tzf', join(dir, '..', `${dir.split('/').pop()}.tar.gz`)], { encoding: 'utf8' }).stdout.trim().split('\n');
  console.log(`pages ${status.pageCount}; files in the bundle ${files.length}`);
  console.log(`start -> completed ${(completedMs / 1000).toFixed(2)} s (${(status.pageCount / (completedMs / 1000)).toFixed(0)} pages/s)`);
  console.log(`start -> bundle link ${(bundledMs / 1000).toFixed(2)} s (packing ${((bundledMs - completedMs) / 1000).toFixed(2)} s)`);
  console.log(`bundle ${(link.sizeBytes / 1e6).toFixed(2)} MB (.tar.gz)`);
  const search = await searchBytes(dir, QUERY);
  console.log(`search for "${QUERY}": ${(search.bytes / 1024).toFixed(1)} KiB in ${search.files.length} files (${search.files.join(', ')})`);
  rmSync(dir, { recursive: true, force: true });
} finally {
  await bench.stop();
}
