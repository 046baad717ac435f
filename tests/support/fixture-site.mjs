// The repositories of ../shared/fixtures, each published once per `npm test` run and shared by the
// test files that read it (issue: several files published the same 37 and 49 MB repositories again,
// minutes each). The first file to ask publishes it, as its owner's CI would (the publish command's
// code, remote files left out), and writes the site's keys and the publish's answer to the run's
// throwaway state folder; later files, other processes, read that record back. No file changes these
// sites after publishing: one that must (re-publish, settings, domains) publishes its own.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_URL, call, tenant } from './api.mjs';
import { publishFolder } from '../../sdk-wasm/js/publish/index.js';
import { withLockAsync } from '../../scripts/lib/build-cache.mjs';

export const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));

/**
 * Fixture `name` published on the worker at `baseUrl`: `{t: {orgId, domain, adminKey, assistantKey},
 * result: {site, warnings, durationMs}, reused}`, `result` the publish command's answer (the first
 * publish's when reused). Shared only on the run's own worker (BASE_URL, with TEST_STATE_DIR set by
 * scripts/test.mjs): a file that starts its own worker, or runs alone, publishes as before.
 */
export async function fixtureSite(name, baseUrl = BASE_URL) {
  const dir = process.env.TEST_STATE_DIR;
  if (!dir || baseUrl !== BASE_URL) return publishFixture(name, baseUrl);
  const file = join(dir, 'fixture-sites', `${name}@${new URL(baseUrl).host}.json`);
  // Files run side by side: the first to ask publishes, the others wait for its record.
  return withLockAsync(`${file}.lock`, () => sharedSite(name, baseUrl, dir, file));
}

async function sharedSite(name, baseUrl, dir, file) {
  if (existsSync(file)) {
    const record = JSON.parse(readFileSync(file, 'utf8'));
    // The version published is still the live one (the worker's state could have been swept or the
    // site replaced): else publish again.
    const live = await call('GET', `/v1/sites/${record.t.domain}`, { token: record.t.adminKey, base: baseUrl });
    if (live.status === 200 && live.body.publishedAt === record.result.site.publishedAt) return { ...record, reused: true };
    console.log(`${name}: the shared site ${record.t.domain} is gone (${live.status}); publishing again`);
  }
  const record = await publishFixture(name, baseUrl);
  mkdirSync(join(dir, 'fixture-sites'), { recursive: true });
  // Keys in the record: the state folder is the run's own and removed with it.
  writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  return record;
}

async function publishFixture(name, baseUrl) {
  const { org, domain, adminKey, assistantKey } = await tenant({ base: baseUrl });
  // No network in CI: remote images and specs are left out, each a client warning.
  const { site, warnings, durationMs } = await publishFolder({ folder: join(FIXTURES, name), baseUrl, adminKey, domain, noFetch: true, pollMs: 100 });
  assert.ok(site?.publishedAt, `${name}: the publish answered no live site`);
  return { t: { orgId: org.orgId, domain, adminKey, assistantKey }, result: { site, warnings, durationMs }, reused: false };
}
