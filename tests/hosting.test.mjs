// Hosting, per domain: the operator turns a domain's site on, its export is written to R2 one
// object per file with the live pointer last, and the request-serving script answers that domain's
// `Host` from R2: pages at extensionless URLs, Markdown by `.md` or `Accept`, assets, the 404 page
// with status 404, validators (304), the export's policy and security headers; the API under the
// same host comes first, and another host keeps the API's 404; the skills' discovery files
// (tests/fixtures/agent-skills-docs) answer under the site's host as the discovery API does.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { call, assertError, tenant, ROOT_TOKEN, BASE_URL } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { fileURLToPath } from 'node:url';
import { waitForJob } from './support/export.mjs';
import { DISCOVERY_FILES, assertServedAsTheApi } from './support/skills.mjs';

let t;
let settingsPath;

/** A request to the worker under another `Host` (fetch cannot set it); the body as text. */
function site(host, path, { method = 'GET', headers = {} } = {}) {
  const url = new URL(path, BASE_URL);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { host, ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey)).status, 200);
  settingsPath = `/v1/admin/orgs/${t.org.orgId}/domains/${t.domain}/hosting`;
});

test('the setting is the operator\'s, validated, and reads back off by default', async () => {
  assertError(await call('GET', settingsPath, { token: t.adminKey }), 401, 'unauthorized');
  const off = await call('GET', settingsPath, { token: ROOT_TOKEN });
  assert.equal(off.status, 200, off.text);
  assert.deepEqual(off.body.hosting, { enabled: false, analytics: false });
  assertError(await call('PUT', settingsPath, { token: ROOT_TOKEN, json: { enabled: true, paths: ['index'] } }), 400, 'invalid_request');
  assertError(await call('PUT', settingsPath, { token: ROOT_TOKEN, json: { enabled: true, pathPrefix: '/v1' } }), 400, 'invalid_request');
  assertError(await call('PUT', `/v1/admin/orgs/${t.org.orgId}/domains/other.example.com/hosting`, { token: ROOT_TOKEN, json: { enabled: true } }), 404, 'not_found');
});

test('turned on, the site is served under its Host straight from its export, API routes first', async () => {
  // Before: the host serves no site, and a site path is the API's 404.
  const before = await site(t.domain, '/quickstart');
  assert.equal(before.status, 404);
  assert.equal(JSON.parse(before.text).code, 'route_not_found');

  const on = await call('PUT', settingsPath, { token: ROOT_TOKEN, json: { enabled: true, markdown: 'pages' } });
  assert.equal(on.status, 200, on.text);
  assert.equal(on.body.hosting.enabled, true);
  assert.match(on.body.exportJob.jobId, /^se_/);
  const { job } = await waitForJob(t.adminKey, on.body.exportJob.jobId);
  assert.equal(job.status, 'completed', job.error);
  assert.equal((await call('GET', settingsPath, { token: ROOT_TOKEN })).body.hosting.markdown, 'pages');

  // An isolate trusts what it read of a host's pointer (here: none, above) for five seconds.
  let home = await site(t.domain, '/');
  for (let tries = 0; home.status !== 200 && tries < 40; tries += 1) {
    await new Promise((r) => setTimeout(r, 250));
    home = await site(t.domain, '/');
  }
  assert.equal(home.status, 200, home.text.slice(0, 300));
  assert.match(home.headers['content-type'], /^text\/html/);
  assert.match(home.text, /<html/);
  for (const [name, value] of [['x-content-type-options', 'nosniff'], ['x-frame-options', 'SAMEORIGIN'], ['referrer-policy', 'strict-origin-when-cross-origin']]) {
    assert.equal(home.headers[name], value, name);
  }
  assert.match(home.headers['content-security-policy'], /default-src 'self'/);
  assert.equal(home.headers['cache-control'], 'no-cache');
  assert.equal(home.headers['x-robots-tag'], undefined, 'the site\'s own hostname is indexed');

  const page = await site(t.domain, '/quickstart');
  assert.equal(page.status, 200);
  assert.match(page.text, /Quickstart|quickstart/);
  assert.match(page.headers.vary, /Accept/);
  assert.ok(page.headers.etag, 'a validator');
  const again = await site(t.domain, '/quickstart', { headers: { 'if-none-match': page.headers.etag } });
  assert.equal(again.status, 304);
  assert.equal(again.text, '');
  const nested = await site(t.domain, '/assistant/overview');
  assert.equal(nested.status, 200);

  const markdown = await site(t.domain, '/quickstart', { headers: { accept: 'text/markdown' } });
  assert.equal(markdown.status, 200);
  assert.match(markdown.headers['content-type'], /^text\/markdown/);
  assert.notEqual(markdown.headers.etag, page.headers.etag, 'each representation has its own validator');
  assert.ok(!markdown.text.includes('<html'));
  const md = await site(t.domain, '/quickstart.md');
  assert.equal(md.status, 200);
  assert.equal(md.text, markdown.text);

  const css = await site(t.domain, '/_static/site.css');
  assert.equal(css.status, 200);
  assert.match(css.headers['content-type'], /^text\/css/);
  const head = await site(t.domain, '/_static/site.css', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], String(Buffer.byteLength(css.text)));

  const missing = await site(t.domain, '/no/such/page');
  assert.equal(missing.status, 404);
  assert.match(missing.headers['content-type'], /^text\/html/);
  assert.match(missing.text, /<base href="\/">/);
  assert.match(missing.headers['content-security-policy'], /default-src 'self'/);
  for (const path of ['/../secret', '/_redirects']) assert.equal((await site(t.domain, path)).status, 404, path);

  // The API under the site's host is never shadowed.
  const health = await site(t.domain, '/health');
  assert.equal(health.status, 200);
  assert.match(health.headers['content-type'], /^application\/json/);
  const api = await site(t.domain, '/openapi.json');
  assert.equal(JSON.parse(api.text).openapi, '3.1.0');

  // Another host is not this site: the API's 404 as before.
  const elsewhere = await site('unknown.example.com', '/quickstart');
  assert.equal(elsewhere.status, 404);
  assert.equal(JSON.parse(elsewhere.text).code, 'route_not_found');
});

test('a hosted site answers the skills\' discovery files at its root as the discovery API does', async () => {
  const own = await tenant();
  const published = await publishFolder(own.domain, own.adminKey, fileURLToPath(new URL('./fixtures/agent-skills-docs', import.meta.url)));
  assert.equal(published.status, 200, published.text);
  const on = await call('PUT', `/v1/admin/orgs/${own.org.orgId}/domains/${own.domain}/hosting`, { token: ROOT_TOKEN, json: { enabled: true } });
  assert.equal(on.status, 200, on.text);
  const { job } = await waitForJob(own.adminKey, on.body.exportJob.jobId);
  assert.equal(job.status, 'completed', job.error);
  let home = await site(own.domain, '/');
  for (let tries = 0; home.status !== 200 && tries < 40; tries += 1) {
    await new Promise((r) => setTimeout(r, 250));
    home = await site(own.domain, '/');
  }
  assert.equal(home.status, 200, home.text.slice(0, 300));
  const api = (path) => call('GET', `/discovery/v1/llms/${own.domain}/${path}`, { token: own.assistantKey });
  for (const path of DISCOVERY_FILES) {
    const res = await site(own.domain, `/${path}`);
    await assertServedAsTheApi({ status: res.status, contentType: res.headers['content-type'], text: res.text }, path, api);
  }
});

test('turned off, the site is no longer served', async () => {
  const off = await call('PUT', settingsPath, { token: ROOT_TOKEN, json: { enabled: false } });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.body.exportJob, null);
  const gone = await site(t.domain, '/quickstart');
  assert.equal(gone.status, 404);
  assert.equal(JSON.parse(gone.text).code, 'route_not_found');
});
