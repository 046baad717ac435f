// A site published by an earlier release (its live version has only the stored upload: no split search
// index, no source layout, no documents for agents, no `layout` in its record) keeps working after an
// upgrade: the first request that meets it republishes the stored upload through the publish pipeline
// and answers 503 site_upgrading; once rebuilt, it answers as any site. Such versions are written
// here straight into the worker's local R2, as the earlier release left them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, nodeBin, toolEnv } from '../scripts/lib/env.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { BASE_URL, assertError, call, tenant } from './support/api.mjs';
import { publishFolder } from '../sdk-wasm/js/publish/index.js';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { DEMO_DOCS } from './support/docs.mjs';

const scratch = scratchDir('docs-edge-site-upgrade-');
const LEGACY_PUBLISHED_AT = '2026-06-01T00:00:00.000Z';

function r2Put(key, bytes) {
  const file = join(scratch, 'object');
  writeFileSync(file, bytes);
  // wrangler's own local runtime shares the state folder with the running `wrangler dev`; under load
  // its connection to that runtime is sometimes lost before the write ("Network connection lost"),
  // which a second run of the same write does not meet.
  let result;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    result = spawnSync(join(nodeBin, 'wrangler'), [
      'r2', 'object', 'put', `docs-edge/${key}`, '--file', file, '--local', '--persist-to', process.env.TEST_STATE_DIR,
    ], { cwd: root, env: toolEnv({ CI: '1', FORCE_COLOR: '0' }), encoding: 'utf8' });
    if (result.status === 0 || !/Network connection lost/.test(`${result.stdout}${result.stderr}`)) break;
  }
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
}

/** A live version as the release before the publish pipeline stored it: the upload and the pointer
 * (with `layout`, as a later release that wrote objects of an older format). */
function legacySite(domain, publishId, upload, layout) {
  if (upload) r2Put(`sites/${domain}/${publishId}/source.tar.gz`, upload);
  r2Put(`sites/${domain}/current.json`, JSON.stringify({
    publishId,
    publishedAt: LEGACY_PUBLISHED_AT,
    pageCount: 6,
    languages: [],
    versions: [],
    warnings: [],
    sourceBytes: upload?.length ?? 0,
    indexBytes: 0,
    ...(layout === undefined ? {} : { layout }),
  }));
}

const search = (t, query) => call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query } });

async function until(what, probe, done) {
  for (let i = 0; i < 240; i++) {
    const res = await probe();
    if (done(res)) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`${what} did not happen`);
}

test('a version from an earlier release is rebuilt from its stored upload on first use, then served as usual', async () => {
  const t = await tenant();
  legacySite(t.domain, 'pub_legacy0001', packDocsFolder(DEMO_DOCS));

  const first = await search(t, 'rate limits');
  assertError(first, 503, 'site_upgrading');
  assert.ok(Number(first.headers.get('retry-after')) >= 1, 'Retry-After');
  const live = await until('the rebuild', () => search(t, 'rate limits'), (res) => res.status !== 503);
  assert.equal(live.status, 200, live.text);
  assert.ok(live.body.length > 0, 'the rebuilt site answers searches');

  const site = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });
  assert.equal(site.status, 200, site.text);
  assert.notEqual(site.body.publishedAt, LEGACY_PUBLISHED_AT, 'the rebuilt version is live');
  assert.equal(site.body.pageCount, 6);
  const llms = await call('GET', `/discovery/v1/llms/${t.domain}/llms.txt`, { token: t.assistantKey });
  assert.equal(llms.status, 200, llms.text);
  const page = await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path: 'index' } });
  assert.equal(page.status, 200, page.text);
});

test('a version of an earlier layout (its outline in an older format) is rebuilt too', async () => {
  const t = await tenant();
  // Layout 2 wrote outline format 2, which today's readers refuse; its other objects are not needed.
  legacySite(t.domain, 'pub_layout2001', packDocsFolder(DEMO_DOCS), 2);
  assertError(await search(t, 'rate limits'), 503, 'site_upgrading');
  const live = await until('the rebuild', () => search(t, 'rate limits'), (res) => res.status !== 503);
  assert.equal(live.status, 200, live.text);
  const site = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });
  assert.notEqual(site.body.publishedAt, LEGACY_PUBLISHED_AT, 'the rebuilt version is live');
});

test('a version of an earlier layout published file by file is rebuilt from its manifest over the site\'s stored files', async () => {
  const t = await tenant();
  await publishFolder({ folder: DEMO_DOCS, baseUrl: BASE_URL, adminKey: t.adminKey, domain: t.domain, noFetch: true, pollMs: 100 });
  const liveIds = () => logLines(process.env.WORKER_LOG).filter((l) => l.event === 'publish_live' && l.domain === t.domain).map((l) => l.publishId);
  const [publishId] = liveIds();
  assert.match(publishId ?? '', /^pub_/);
  // Its pointer as the release of layout 2 left it: the manifest and the files stay where they are.
  legacySite(t.domain, publishId, null, 2);
  await until('the rebuild to start', () => search(t, 'rate limits'), (res) => res.status === 503);
  const live = await until('the rebuild', () => search(t, 'rate limits'), (res) => res.status !== 503);
  assert.equal(live.status, 200, live.text);
  assert.ok(live.body.length > 0, 'the rebuilt site answers searches');
  const rebuilt = liveIds();
  assert.equal(rebuilt.length, 2, 'the rebuild went live');
  assert.notEqual(rebuilt[1], publishId);
  const site = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });
  assert.notEqual(site.body.publishedAt, LEGACY_PUBLISHED_AT);
  assert.equal(site.body.pageCount, 6);
});

test('a rebuild that fails, or a version whose upload is gone, is 409 republish_required with the reason', async () => {
  const broken = await tenant();
  legacySite(broken.domain, 'pub_legacy0002', Buffer.from('not a gzip archive'));
  assertError(await search(broken, 'anything'), 503, 'site_upgrading');
  const failed = await until('the failed rebuild', () => search(broken, 'anything'), (res) => res.status !== 503);
  assertError(failed, 409, 'republish_required');
  assert.match(failed.body.error, /could not be rebuilt/);

  const gone = await tenant();
  legacySite(gone.domain, 'pub_legacy0003', null);
  const res = await search(gone, 'anything');
  assertError(res, 409, 'republish_required');
  assert.match(res.body.error, /neither its stored upload nor its manifest is stored/);
  // Publishing again is the way out.
  const again = await call('PUT', `/v1/sites/${gone.domain}/content`, {
    token: gone.adminKey, body: packDocsFolder(DEMO_DOCS), headers: { 'content-type': 'application/gzip' },
  });
  assert.equal(again.status, 200, again.text);
  assert.equal((await search(gone, 'rate limits')).status, 200);
});
