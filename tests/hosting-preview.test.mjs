// Previews: a publish with a `preview` label (the SDK's `--preview`, file by file) builds a version
// that never goes live: the domain's hosted site, its search and `GET /v1/sites/{domain}` keep the
// live version, while the preview's site is written and served at its own hostname,
// `{label}--{domain, dots as dashes}.{PREVIEW_HOST_SUFFIX}` (the test worker's suffix is
// `preview.test`, scripts/test.mjs), with `X-Robots-Tag: noindex` on every response. A label that
// is no DNS label, or one too long for the hostname, is a 400 naming `preview`, by either publish
// route, and nothing is published.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { assertError, call, tenant, ROOT_TOKEN, BASE_URL } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { waitForJob } from './support/export.mjs';
import { writeSite } from './support/export-pages.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
import { main } from '../sdk-wasm/js/publish/command.js';

const SUFFIX = 'preview.test';
let t;

/** A docs folder whose pages say `word`. */
function site(word) {
  return writeSite('docs-edge-hosting-preview-', {
    'docs.json': JSON.stringify({ name: 'Preview', navigation: { pages: ['index', 'guide'] } }),
    'index.mdx': `---\ntitle: Home\n---\n\nThe ${word} home is here.\n`,
    'guide.mdx': `---\ntitle: Guide\n---\n\nThe guide of ${word} explains ${word} setup.\n`,
  });
}

/** GET `path` of the worker under `host`: `{status, headers, text}`. */
function under(host, path) {
  return new Promise((resolve, reject) => {
    request(new URL(path, BASE_URL), { headers: { host } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    }).on('error', reject).end();
  });
}

async function eventually(check, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The message of a 400 `invalid_request`. */
function refused(res) {
  assertError(res, 400, 'invalid_request');
  return res.body.error;
}

const served = async (host) => JSON.parse((await under(host, '/_docs-edge/manifest.json')).text).publishId;

before(async () => {
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, site('ambervale'))).status, 200);
});

test('a preview label is a DNS label that fits its hostname, on a hosted domain; else 400 naming preview', async () => {
  const commit = (preview) => call('POST', `/v1/sites/${t.domain}/publishes`, { token: t.adminKey, json: { files: { 'docs.json': 'a'.repeat(32) }, preview } });
  // Hosting is off: a preview has no site to be.
  assert.match(refused(await commit('main')), /^preview: previews are served for hosted domains only/);
  const on = await call('PUT', `/v1/admin/orgs/${t.org.orgId}/domains/${t.domain}/hosting`, { token: ROOT_TOKEN, json: { enabled: true } });
  assert.equal(on.status, 200, on.text);
  assert.equal((await waitForJob(t.adminKey, on.body.exportJob.jobId)).job.status, 'completed');
  for (const bad of ['Feature', 'a--b', '-x', 'x_y', 'a'.repeat(64)]) {
    assert.match(refused(await commit(bad)), /^preview: .*(not a preview label|DNS allows 63)/, bad);
  }
  assertError(await commit(7), 400, 'invalid_request');
  // The .tar.gz route's `?preview=`: refused before the upload is read, and the domain is free after.
  const archive = packDocsFolder(site('ambervale'));
  const put = await call('PUT', `/v1/sites/${t.domain}/content?preview=Bad_Label`, { token: t.adminKey, body: archive, headers: { 'content-type': 'application/gzip' } });
  assert.match(refused(put), /^preview: "Bad_Label" is not a preview label/);
  const long = `x${'-y'.repeat(20)}`; // a DNS label, but 41 + 2 + the dashed domain's characters are over 63
  const tooLong = await call('PUT', `/v1/sites/${t.domain}/content?preview=${long}`, { token: t.adminKey, body: archive, headers: { 'content-type': 'application/gzip' } });
  assert.match(refused(tooLong), /DNS allows 63/);
});

test('a preview is served at its own hostname with noindex; the live site, search and the site API keep the live version', async () => {
  const host = await eventually(async () => (await under(t.domain, '/')).status === 200 && t.domain, 60_000);
  assert.ok(host, 'the live site is served');
  const live = await served(t.domain);
  const liveSite = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });

  const out = { stdout: '', stderr: '' };
  const stream = (name) => ({ isTTY: false, write: (s) => { out[name] += s; } });
  const status = await main(
    [site('zephyrine'), '--domain', t.domain, '--url', BASE_URL, '--key', t.adminKey, '--json', '--no-cache', '--preview', 'feature-x'],
    { env: {}, stdout: stream('stdout'), stderr: stream('stderr') },
  );
  assert.equal(status, 0, out.stderr);
  const result = JSON.parse(out.stdout);
  const previewHost = `feature-x--${t.domain.replaceAll('.', '-')}.${SUFFIX}`;
  assert.equal(result.site.previewUrl, `https://${previewHost}/`);
  assert.match(out.stderr, /preview feature-x is built \(the live version is unchanged/);

  // The preview's site, once its export is written: its pages, its assets, its 404, all noindex.
  const page = await eventually(async () => {
    const res = await under(previewHost, '/');
    return res.status === 200 && res.text.includes('zephyrine') && res;
  }, 180_000);
  assert.ok(page, 'the preview is served at its hostname');
  assert.equal(page.headers['x-robots-tag'], 'noindex');
  const guide = await under(previewHost, '/guide');
  assert.equal(guide.status, 200);
  assert.equal(guide.headers['x-robots-tag'], 'noindex');
  assert.equal((await under(previewHost, '/_static/site.css')).headers['x-robots-tag'], 'noindex');
  const missing = await under(previewHost, '/no/such/page');
  assert.equal(missing.status, 404);
  assert.equal(missing.headers['x-robots-tag'], 'noindex');
  assert.notEqual(await served(previewHost), live);

  // The live site: the previous version, indexable.
  const home = await under(t.domain, '/');
  assert.equal(home.status, 200);
  assert.match(home.text, /ambervale/);
  assert.doesNotMatch(home.text, /zephyrine/);
  assert.equal(home.headers['x-robots-tag'], undefined);
  assert.equal(await served(t.domain), live, 'no export of the preview replaced the live site');
  // Search and the site API read the live version.
  const search = async (query) => call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query } });
  const ambervale = await search('ambervale setup');
  assert.equal(ambervale.status, 200, ambervale.text);
  assert.ok(ambervale.body.length > 0, 'the live version is searched');
  const zephyrine = await search('zephyrine setup');
  assert.equal(zephyrine.status, 200, zephyrine.text);
  assert.ok(zephyrine.body.every((hit) => !JSON.stringify(hit).includes('zephyrine')), JSON.stringify(zephyrine.body));
  const after = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });
  assert.equal(after.body.publishedAt, liveSite.body.publishedAt);
  assert.equal(after.body.previewUrl, undefined);
});
