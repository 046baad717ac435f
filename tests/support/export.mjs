// Static export helpers for the tests: start a job, poll it to the end (checking that progress never
// goes back and pageCount grows), fetch its bundle, and unpack it with the system tar.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { call } from './api.mjs';
import { scratchDir } from '../../scripts/lib/scratch.mjs';

export function startExport(adminKey, json, base) {
  return call('POST', '/v1/static-export/jobs', { token: adminKey, json, base });
}

/** Polls until the job leaves queued/running; returns the final job and every status seen. */
export async function waitForJob(adminKey, jobId, { base, intervalMs = 150, timeoutMs = 240_000, onStatus } = {}) {
  const seen = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', `/v1/static-export/jobs/${jobId}`, { token: adminKey, base });
    assert.equal(res.status, 200, res.text);
    const job = res.body;
    const last = seen.at(-1);
    if (last) {
      assert.ok(job.progress >= last.progress, `progress went back: ${last.progress} -> ${job.progress}`);
      assert.ok(job.pageCount >= last.pageCount, `pageCount went back: ${last.pageCount} -> ${job.pageCount}`);
    }
    seen.push(job);
    await onStatus?.(job);
    if (['completed', 'failed', 'cancelled'].includes(job.status)) return { job, seen };
    assert.ok(Date.now() < deadline, `job ${jobId} still ${job.status} at ${job.progress}%`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function requestBundle(adminKey, jobId, base) {
  return call('POST', `/v1/static-export/jobs/${jobId}/bundle`, { token: adminKey, base });
}

/** Exports what tenant `who` published (`options` beside its domain) to the end: the job and its
 * bundle link (`{bundleUrl, sha256, …}`). */
export async function exportLink(who, options = {}, base = undefined) {
  const start = await startExport(who.adminKey, { domain: who.domain, ...options }, base);
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(who.adminKey, start.body.jobId, { base });
  assert.equal(job.status, 'completed', job.error);
  const link = await requestBundle(who.adminKey, job.jobId, base);
  assert.equal(link.status, 200, link.text);
  return { job, link: link.body };
}

/** Downloads `url` and unpacks it; returns the folder, the archive bytes and the response. */
export async function downloadBundle(url) {
  const res = await fetch(url);
  assert.equal(res.status, 200, `download answered ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  const dir = scratchDir('docs-edge-bundle-');
  const archive = join(scratchDir('docs-edge-archive-'), 'bundle.tar.gz');
  writeFileSync(archive, bytes);
  const tar = spawnSync('tar', ['-xzf', archive, '-C', dir], { encoding: 'utf8' });
  assert.equal(tar.status, 0, `tar could not unpack the bundle: ${tar.stderr}`);
  return { dir, bytes, res, archive };
}

/** Every file under `dir`, as sorted paths relative to it. */
export function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

export const readFile = (dir, path) => readFileSync(join(dir, path));
