// Static export over HTTP on the published fixture: the whole flow (start, poll, bundle, download,
// unpack), every error case with its status and code, signed links (tampered, expired, ranges,
// conditional requests), the per-domain and per-organization rules, and docs-edge-serve answering the
// discovery API from the bundle's search packs as the worker does.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, assertError, tenant, addDomain } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles, readFile } from './support/export.mjs';
import { startServe } from './support/serve.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

let t; // enterprise tenant with the fixture published
let published; // what the publish answered
let completed; // { job, bundle, dir, files } of the full run, shared by later tests

before(async () => {
  t = await tenant();
  const res = await publishFolder(t.domain, t.adminKey, FIXTURE_DOCS);
  assert.equal(res.status, 200, res.text);
  published = res.body;
});

test('the whole flow: start, poll to completed, bundle, download; the archive has every page as .html', async () => {
  const start = await startExport(t.adminKey, { domain: t.domain });
  assert.equal(start.status, 202, start.text);
  const job = start.body;
  assert.match(job.jobId, /^se_[0-9a-f]{16}$/);
  assert.ok(['queued', 'running'].includes(job.status));
  assert.equal(job.progress, 0);
  assert.equal(job.pageCount, 0);
  assert.ok(!Number.isNaN(Date.parse(job.createdAt)) && !Number.isNaN(Date.parse(job.updatedAt)));

  const { job: done, seen } = await waitForJob(t.adminKey, job.jobId);
  assert.equal(done.status, 'completed', done.error);
  assert.equal(done.progress, 100);
  assert.equal(done.pageCount, published.pageCount, 'every page of the (only) version was exported');
  assert.ok(new Set(seen.map((s) => s.pageCount)).size > 2, 'pageCount grew in steps while the job ran');
  assert.equal(done.error, undefined);

  const bundle = await requestBundle(t.adminKey, job.jobId);
  assert.equal(bundle.status, 200, bundle.text);
  assert.equal(bundle.body.jobId, job.jobId);
  assert.ok(bundle.body.sizeBytes > 100_000);
  const expires = Date.parse(bundle.body.expiresAt);
  assert.ok(expires > Date.now() + 50 * 60_000 && expires <= Date.now() + 61 * 60_000, 'the link lives one hour by default');

  const { dir, bytes, res } = await downloadBundle(bundle.body.bundleUrl);
  assert.equal(res.headers.get('content-type'), 'application/gzip');
  assert.equal(Number(res.headers.get('content-length')), bundle.body.sizeBytes);
  assert.equal(bytes.length, bundle.body.sizeBytes);
  assert.equal(createHash('sha256').update(bytes).digest('hex'), bundle.body.sha256);
  assert.match(res.headers.get('content-disposition'), new RegExp(`^attachment; filename="${t.domain.replaceAll('.', '\\.')}-export-\\d{4}-\\d{2}-\\d{2}\\.tar\\.gz"$`));
  assert.ok(res.headers.get('etag'));
  const files = listFiles(dir);
  const pages = files.filter((f) => f.endsWith('.html') && f !== '404.html');
  assert.equal(pages.length, published.pageCount, 'one .html per page');
  for (const page of ['index.html', 'quickstart.html', 'api/static-export/overview.html', 'fr/index.html', 'zh/quickstart.html']) {
    assert.ok(files.includes(page), `${page} is in the bundle`);
  }
  for (const extra of ['404.html', 'robots.txt', 'sitemap.xml']) assert.ok(files.includes(extra), `${extra} is in the bundle`);
  assert.ok(!files.some((f) => f.endsWith('.mdx')), 'no source files');
  const manifest = JSON.parse(readFile(dir, '_docs-edge/manifest.json'));
  assert.deepEqual(
    { domain: manifest.domain, jobId: manifest.jobId, createdAt: manifest.createdAt, pageCount: manifest.pageCount },
    { domain: t.domain, jobId: job.jobId, createdAt: done.createdAt, pageCount: published.pageCount },
  );
  assert.match(manifest.publishId, /\S/);
  // The deployment has analytics on, but the start request did not ask for the beacon: none.
  assert.equal(manifest.beaconEndpoint, undefined);
  assert.ok(!readFile(dir, '_static/site.js').toString().includes('sendBeacon'), 'no beacon code');
  assert.equal(manifest.features.search, true, 'the default (cloud) deployment exports with search');
  // The search index as the split packs, copied from the version in pieces of at most 4 MiB (the text
  // pack of this fixture is larger, so it went into the bundle as several members).
  assert.equal(manifest.searchIndex, 'packs');
  assert.ok(!files.includes('_docs-edge/search-index.bin'), 'no whole index');
  for (const [name, kind] of [['meta', 'M'], ['terms', 'T'], ['text', 'X']]) {
    const pack = readFile(dir, `_docs-edge/search/${name}.bin`);
    // Format 2: postings by page and place in the page (core/src/search/shard, SHARD_FORMAT_VERSION).
    assert.deepEqual([pack[0], String.fromCharCode(pack[1])], [2, kind], `${name}.bin starts with its format and kind`);
  }
  assert.ok(readFile(dir, '_docs-edge/search/text.bin').length > 4 << 20, 'the text pack spans pieces');
  const overview = readFile(dir, 'api/static-export/overview.html').toString();
  assert.match(overview, /<html/);
  assert.match(overview, /Static export/i);
  completed = { job: done, bundle: bundle.body, dir, files };
});

test('docs-edge-serve answers search and pages from the bundle\'s packs exactly as the worker', async () => {
  assert.ok(completed, 'needs the full flow');
  const keyHash = createHash('sha256').update(t.assistantKey).digest('hex');
  const serve = await startServe({
    config: {
      static_export: { enabled: true, bundle_url: completed.bundle.bundleUrl, sha256: completed.bundle.sha256 },
      assistant: { enabled: true, key_sha256: [keyHash], search_cache_bytes: 262144 },
    },
  });
  try {
    await serve.waitFor((h) => h.jobId === completed.job.jobId, 'the fixture bundle');
    const both = async (path, json) => {
      const ours = await call('POST', `${path}/${t.domain}`, { base: serve.url, token: t.assistantKey, json });
      const worker = await call('POST', `${path}/${t.domain}`, { token: t.assistantKey, json });
      assert.equal(ours.status, worker.status, `${path} ${JSON.stringify(json)}: ${ours.text}`);
      assert.deepEqual(ours.body, worker.body, `${path} ${JSON.stringify(json)}`);
      return ours;
    };
    for (const query of ['custom domain', 'static export bundle', 'api key rate limits', '自定义域名', 'domaine personnalisé']) {
      assert.ok((await both('/discovery/v1/search', { query, pageSize: 10 })).body.length > 0, query);
    }
    // Pages spread over the site, so their text blocks come from every piece of the text pack.
    const pages = completed.files.filter((f) => f.endsWith('.md') && completed.files.includes(f.replace(/\.md$/, '.html'))).map((f) => f.replace(/\.md$/, '')).sort();
    assert.ok(pages.length > 100);
    const spread = pages.filter((_, i) => i % Math.ceil(pages.length / 40) === 0).concat(pages.at(-1));
    for (const path of spread) assert.equal((await both('/discovery/v1/page', { path })).status, 200, path);
    const { search } = await serve.health();
    assert.ok(search.cacheEntries > 0 && search.cacheBytes <= 262144, JSON.stringify(search));
  } finally {
    await serve.remove();
  }
});

test('a second bundle call reuses the archive with a fresh link', async () => {
  assert.ok(completed, 'needs the full flow');
  const again = await requestBundle(t.adminKey, completed.job.jobId);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.sizeBytes, completed.bundle.sizeBytes);
  const first = await fetch(completed.bundle.bundleUrl, { method: 'HEAD' });
  const second = await fetch(again.body.bundleUrl, { method: 'HEAD' });
  assert.equal(second.headers.get('etag'), first.headers.get('etag'), 'the same archive');
});

test('agents: page.md beside every page.html; llms.txt parses as the format and its links resolve in the bundle', async () => {
  assert.ok(completed, 'needs the full flow');
  const { dir, files } = completed;
  const present = new Set(files);
  const pages = files.filter((f) => f.endsWith('.html') && f !== '404.html');
  assert.deepEqual(pages.filter((f) => !present.has(f.replace(/\.html$/, '.md'))), [], 'every page has its .md');
  const llms = readFile(dir, 'llms.txt').toString();
  const [title, blank, summary] = llms.split('\n');
  assert.match(title, /^# \S/);
  assert.equal(blank, '');
  assert.match(summary, /^> \S/);
  const sections = llms.split(/^## /m).slice(1);
  assert.ok(sections.length > 5, `${sections.length} sections`);
  const links = [];
  for (const section of sections) {
    const [heading, ...body] = section.split('\n');
    assert.ok(heading.trim(), 'a section has a name');
    for (const line of body.filter((l) => l.trim())) {
      const m = /^- \[(.+?)\]\(([^)\s]+)\)(?:: (.+))?$/.exec(line);
      assert.ok(m, `a section holds only links: ${line}`);
      links.push(m[2]);
    }
  }
  assert.ok(links.length > 100, `${links.length} links`);
  assert.deepEqual(links.filter((l) => !present.has(l)), [], 'every llms.txt link is a file of the bundle');
  assert.ok(links.includes('api/static-export/overview.md'));
  const overview = readFile(dir, 'api/static-export/overview.md').toString();
  assert.ok(overview.startsWith('# Static export\n'), overview.slice(0, 100));
  assert.match(overview, /\[Start static export job\]\(start-job\.md\)/, 'links between pages are relative .md files');
  assert.ok(readFile(dir, 'llms-full.txt').toString().includes(overview), 'llms-full.txt holds the pages');
});

test('bundle links: tampered and expired links are 403; ranges and conditional requests work', async () => {
  assert.ok(completed, 'needs the full flow');
  const url = new URL(completed.bundle.bundleUrl);
  const sig = url.searchParams.get('sig');
  const tampered = new URL(url);
  tampered.searchParams.set('sig', sig.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')));
  assertError(await call('GET', tampered.pathname + tampered.search), 403, 'link_invalid');
  const longer = new URL(url);
  longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
  assertError(await call('GET', longer.pathname + longer.search), 403, 'link_invalid');
  const otherJob = url.pathname.replace(/se_[0-9a-f]{16}/, 'se_0000000000000000') + url.search;
  assertError(await call('GET', otherJob), 403, 'link_invalid');
  assertError(await call('GET', url.pathname), 403, 'link_invalid');

  // A link signed with the real secret but already expired.
  const secret = process.env.LINK_SIGNING_KEY;
  assert.ok(secret, 'the test runner passes LINK_SIGNING_KEY');
  const past = Math.floor(Date.now() / 1000) - 10;
  const expiredSig = createHmac('sha256', secret).update(`bundle\n${completed.job.jobId}\n${past}`).digest('hex');
  assertError(await call('GET', `${url.pathname}?expires=${past}&sig=${expiredSig}`), 403, 'link_expired');

  const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
  const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), `bytes 100-199/${whole.length}`);
  assert.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(100, 200));
  const tail = await fetch(url, { headers: { range: 'bytes=-16' } });
  assert.equal(tail.status, 206);
  assert.deepEqual(Buffer.from(await tail.arrayBuffer()), whole.subarray(whole.length - 16));
  const beyond = await call('GET', url.pathname + url.search, { headers: { range: `bytes=${whole.length}-` } });
  assertError(beyond, 416, 'range_not_satisfiable');
  assert.equal(beyond.headers.get('content-range'), `bytes */${whole.length}`);
  const etag = part.headers.get('etag');
  const notModified = await fetch(url, { headers: { 'if-none-match': etag } });
  assert.equal(notModified.status, 304);
});

test('start: admin key of an enterprise organization only', async () => {
  assertError(await call('POST', '/v1/static-export/jobs', { json: { domain: t.domain } }), 401, 'unauthorized');
  assertError(await startExport(t.assistantKey, { domain: t.domain }), 403, 'wrong_key_kind');
  const pro = await tenant({ plan: 'pro' });
  assertError(await startExport(pro.adminKey, { domain: pro.domain }), 403, 'plan_required');
  assertError(await call('GET', '/v1/static-export/jobs/se_0000000000000000', { token: pro.adminKey }), 403, 'plan_required');
});

test('start: the domain is a hostname, owned and published; version and paths must exist', async () => {
  for (const [domain, why] of [
    [`https://${t.domain}`, 'scheme'], [`${t.domain}/docs`, 'path'], [`${t.domain}/`, 'slash'], ['', 'empty'],
  ]) {
    const res = await startExport(t.adminKey, { domain });
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.error, /^domain: /, why);
  }
  assertError(await startExport(t.adminKey, {}), 400, 'invalid_request');
  assertError(await startExport(t.adminKey, { domain: 'someone-else.example.com' }), 404, 'not_found');
  const stranger = await tenant();
  assertError(await startExport(t.adminKey, { domain: stranger.domain }), 404, 'not_found');
  const unpublished = await addDomain(t.org.orgId);
  assertError(await startExport(t.adminKey, { domain: unpublished }), 404, 'not_found');
  const badVersion = await startExport(t.adminKey, { domain: t.domain, version: 'v9' });
  assertError(badVersion, 400, 'invalid_request');
  assert.match(badVersion.body.error, /v9/);
  const badPaths = await startExport(t.adminKey, { domain: t.domain, paths: ['quickstart', 'no/such/page'] });
  assertError(badPaths, 400, 'invalid_request');
  assert.match(badPaths.body.error, /no\/such\/page/);
  const badPathType = await startExport(t.adminKey, { domain: t.domain, paths: ['quickstart', 7] });
  assertError(badPathType, 400, 'invalid_request');
  assert.match(badPathType.body.error, /^paths\[1\]: /);
});

test('markdown "llms-full": no .md files; llms.txt links the .html pages, llms-full.txt holds the Markdown', async () => {
  const bad = await startExport(t.adminKey, { domain: t.domain, markdown: 'all' });
  assertError(bad, 400, 'invalid_request');
  assert.match(bad.body.error, /^markdown: /);
  const start = await startExport(t.adminKey, { domain: t.domain, paths: ['index', 'quickstart', 'api/static-export/overview'], markdown: 'llms-full' });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const bundle = await requestBundle(t.adminKey, job.jobId);
  const { dir } = await downloadBundle(bundle.body.bundleUrl);
  try {
    const files = listFiles(dir);
    assert.deepEqual(files.filter((f) => f.endsWith('.md') && f !== 'skill.md' && !f.startsWith('.well-known/')), [], 'no page has a .md');
    assert.ok(files.includes('skill.md'), 'the repository\'s own skill.md sits at the bundle root');
    assert.ok(files.includes('.well-known/agent-skills/mintlify/SKILL.md'), 'and is the skills index\'s first skill');
    const links = [...readFile(dir, 'llms.txt').toString().matchAll(/^- \[.+?\]\(([^)\s]+)\)/gm)].map((m) => m[1]);
    assert.deepEqual(links.sort(), ['api/static-export/overview.html', 'index.html', 'quickstart.html']);
    assert.ok(readFile(dir, 'llms-full.txt').toString().includes('# Static export\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('one active job per domain: a second start is 409 job_active naming it; bundle before completion is 409', async () => {
  const first = await startExport(t.adminKey, { domain: t.domain, paths: ['index', 'quickstart'] });
  assert.equal(first.status, 202, first.text);
  const second = await startExport(t.adminKey, { domain: t.domain });
  if (second.status === 409) {
    assertError(second, 409, 'job_active');
    assert.equal(second.body.jobId, first.body.jobId);
    const early = await requestBundle(t.adminKey, first.body.jobId);
    if (early.status !== 200) assertError(early, 409, 'job_not_completed');
  } else {
    // The two-page job finished before the second start arrived; then a start is allowed.
    assert.equal(second.status, 202, second.text);
  }
  const { job } = await waitForJob(t.adminKey, first.body.jobId);
  assert.equal(job.status, 'completed');
  assert.equal(job.pageCount, 2, 'paths limit the pages');
});

test('jobs: unknown ids and other organizations read as 404', async () => {
  assertError(await call('GET', '/v1/static-export/jobs/se_0000000000000000', { token: t.adminKey }), 404, 'not_found');
  assertError(await call('GET', '/v1/static-export/jobs/not-a-job', { token: t.adminKey }), 404, 'not_found');
  assertError(await requestBundle(t.adminKey, 'se_0000000000000000'), 404, 'not_found');
  assert.ok(completed, 'needs the full flow');
  const stranger = await tenant();
  assertError(await call('GET', `/v1/static-export/jobs/${completed.job.jobId}`, { token: stranger.adminKey }), 404, 'not_found');
  assertError(await requestBundle(stranger.adminKey, completed.job.jobId), 404, 'not_found');
});

test('at most 10 starts per organization per hour, then 429 with Retry-After', async () => {
  const org = await tenant();
  const domains = [org.domain];
  for (let i = 0; i < 10; i++) domains.push(await addDomain(org.org.orgId));
  for (const domain of domains) assert.equal((await publishFolder(domain, org.adminKey)).status, 200);
  for (const domain of domains.slice(0, 10)) {
    const res = await startExport(org.adminKey, { domain });
    assert.equal(res.status, 202, res.text);
  }
  const refused = await startExport(org.adminKey, { domain: domains[10] });
  assertError(refused, 429, 'rate_limited');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
});

test('hostile docs: the bundle carries only passive upload files and no link that runs script', async () => {
  const org = await tenant();
  const src = scratchDir('hostile-docs-');
  mkdirSync(join(src, 'images'));
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
  writeFileSync(join(src, 'docs.json'), JSON.stringify({ name: 'Evil', logo: '/images/evil.svg', navigation: { pages: ['index', 'guide'] } }));
  writeFileSync(join(src, 'index.mdx'), 'Home');
  writeFileSync(join(src, 'guide.mdx'), '[a](./javascript:alert(1)) [b](javascript:alert(1)) [c](/evil.html) [d](/evil.js)\n\n'
    + '![p](/images/pic.png) ![s](/images/evil.svg)\n\n<a href="javascript:alert(1)" onclick="alert(1)">x</a>\n');
  writeFileSync(join(src, 'evil.html'), '<script>alert(document.domain)</script>');
  writeFileSync(join(src, 'evil.js'), 'alert(document.domain)');
  writeFileSync(join(src, 'images', 'evil.svg'), svg);
  writeFileSync(join(src, 'images', 'pic.png'), 'png');
  assert.equal((await publishFolder(org.domain, org.adminKey, src)).status, 200);
  rmSync(src, { recursive: true, force: true });
  const start = await startExport(org.adminKey, { domain: org.domain });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(org.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const { dir } = await downloadBundle((await requestBundle(org.adminKey, job.jobId)).body.bundleUrl);
  try {
    const files = listFiles(dir);
    assert.ok(files.includes('images/pic.png'));
    for (const active of ['evil.html', 'evil.js']) assert.ok(!files.includes(active), `${active} was copied`);
    // The logo, in every page, is a file rewritten through the SVG allow-list: its script is gone.
    assert.equal(readFile(dir, 'images/evil.svg').toString().trim(), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    for (const file of files.filter((f) => /\.(html|md|txt|json)$/.test(f))) {
      const text = readFile(dir, file).toString();
      assert.doesNotMatch(text, /(href|src)\s*=\s*["']?\s*(javascript|vbscript|data:text)/i, file);
      assert.doesNotMatch(text, /\]\((javascript|data):/i, file);
      assert.doesNotMatch(text, /<a [^>]*\bon\w+=/i, file);
    }
    assert.match(readFile(dir, 'guide.html').toString(), /src="data:image\/svg\+xml;base64,/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cleanup', () => {
  if (completed) rmSync(completed.dir, { recursive: true, force: true });
});
