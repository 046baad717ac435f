// A hosted site across publishes: a publish made file by file (the SDK's publish command) starts the
// site's export, and the command waits until the site serves it and prints its URL; every page
// response while the site switches comes wholly from one version, and the previous version's assets
// stay readable after the switch; the operator's rollback restores the previous version (and a
// second one switches forth again). On a worker whose publishes answer 202 at once, a publish that
// goes live starts the site's export though nobody reads its status, and the storage sweep deletes the files of an export that is
// neither live, nor the previous one, nor switched away from within the kept time (1 ms there),
// nor the base the kept ones were written over (docs/export/hosting.mdx); the export's own parts
// outlive the export retention while its site serves it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertError, call, tenant, ROOT_TOKEN, BASE_URL } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { requestBundle, startExport, waitForJob } from './support/export.mjs';
import { writeSite } from './support/export-pages.mjs';
import { main } from '../sdk-wasm/js/publish/command.js';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { runSweep } from './support/sweep.mjs';
import { eventually, servedManifest, siteProxy, underHost } from './support/hosting.mjs';

// A 1×1 PNG: the first version's image, which the second version does not have.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
  '1f15c4890000000d49444154789c6360f8cfc000000301010018dd8db40000000049454e44ae426082', 'hex');

let t;
let proxy;
const cleanup = [];

/** A docs folder whose home page says `words`; `withImage`: it shows images/one.png too. */
function site(words, withImage) {
  const files = {
    'docs.json': JSON.stringify({ name: 'Live', navigation: { pages: ['index', 'guide'] } }),
    'index.mdx': `---\ntitle: Home\n---\n\n${words} is here.${withImage ? '\n\n![One](/images/one.png)\n' : ''}\n`,
    'guide.mdx': `---\ntitle: Guide\n---\n\nThe guide of ${words}.\n`,
  };
  const dir = writeSite('docs-edge-hosting-live-', files);
  if (withImage) {
    mkdirSync(join(dir, 'images'));
    writeFileSync(join(dir, 'images', 'one.png'), PNG);
  }
  return dir;
}

const under = (host, path, base = BASE_URL) => underHost(base, host, path);
const served = async (host, base = BASE_URL) => (await servedManifest(base, host))?.publishId;
/** Polls `check` for up to 8 s, or `ms`. */
const soon = (check, ms = 8000) => eventually(check, { ms });

before(async () => {
  t = await tenant();
});

after(async () => {
  await proxy?.close();
  for (const step of cleanup.reverse()) await step();
});

test('file by file, the publish command waits for the site; a switch serves whole versions and keeps the old assets; rollback', async () => {
  const one = site('Version one', true);
  assert.equal((await publishFolder(t.domain, t.adminKey, one)).status, 200);
  const on = await call('PUT', `/v1/admin/orgs/${t.org.orgId}/domains/${t.domain}/hosting`, { token: ROOT_TOKEN, json: { enabled: true } });
  assert.equal(on.status, 200, on.text);
  assert.equal((await waitForJob(t.adminKey, on.body.exportJob.jobId)).job.status, 'completed');
  const home = await soon(async () => {
    const res = await under(t.domain, '/');
    return res.status === 200 && res;
  });
  assert.ok(home, 'the site is served');
  assert.match(home.body.toString(), /Version one/);
  const image = await under(t.domain, '/images/one.png');
  assert.equal(image.status, 200);
  assert.ok(image.body.equals(PNG), 'the image as published');
  const first = await served(t.domain);
  assert.match(first, /^pub_/);

  // The second version, published file by file by the SDK's command, which waits for the site.
  proxy = await siteProxy(BASE_URL, t.domain);
  const two = site('Version two', false);
  const out = { stdout: '', stderr: '' };
  const stream = (name) => ({ isTTY: false, write: (s) => { out[name] += s; } });
  const seen = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const res = await under(t.domain, '/');
      seen.push({ status: res.status, text: res.body.toString() });
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  let status;
  try {
    status = await main(
      [two, '--domain', t.domain, '--url', BASE_URL, '--key', t.adminKey, '--json', '--no-cache', '--wait-site', '--site-url', proxy.url, '--site-timeout', '240'],
      { env: {}, stdout: stream('stdout'), stderr: stream('stderr') },
    );
  } finally {
    polling = false;
    await poller;
  }
  assert.equal(status, 0, out.stderr);
  const result = JSON.parse(out.stdout);
  assert.equal(result.siteUrl, `${proxy.url}/`);
  assert.match(out.stderr, new RegExp(`the site is live at ${proxy.url}/`));
  const second = await served(t.domain);
  assert.ok(second !== first, 'the site serves the new publish once the command returns');
  assert.match((await under(t.domain, '/')).body.toString(), /Version two/);

  // Each response during the switch was one version's page, whole.
  assert.ok(seen.length > 0);
  for (const { status: code, text } of seen) {
    assert.equal(code, 200);
    const versions = ['Version one', 'Version two'].filter((w) => text.includes(w));
    assert.equal(versions.length, 1, text.slice(0, 400));
    assert.match(text, /<\/html>\s*$/, 'the page whole');
  }
  // A page of the first version, loaded before the switch, still finds its image.
  const kept = await under(t.domain, '/images/one.png');
  assert.equal(kept.status, 200);
  assert.ok(kept.body.equals(PNG));

  // Rollback: the operator's, back to the first version; a second one goes forth again.
  const rollback = `/v1/admin/orgs/${t.org.orgId}/domains/${t.domain}/hosting/rollback`;
  assertError(await call('POST', rollback, { token: t.adminKey }), 401, 'unauthorized');
  const back = await call('POST', rollback, { token: ROOT_TOKEN });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.body.domain, t.domain);
  assert.equal(back.body.live.publishId, first);
  assert.equal(back.body.previous.publishId, second);
  assert.ok(await soon(async () => (await served(t.domain)) === first), 'the first version is served again');
  assert.match((await under(t.domain, '/')).body.toString(), /Version one/);
  assert.equal((await under(t.domain, '/guide')).status, 200);
  const forth = await call('POST', rollback, { token: ROOT_TOKEN });
  assert.equal(forth.status, 200, forth.text);
  assert.equal(forth.body.live.publishId, second);
  assert.ok(await soon(async () => (await served(t.domain)) === second));

  // Nothing to roll back to: a domain whose site is not live.
  const other = await tenant();
  assertError(await call('POST', `/v1/admin/orgs/${other.org.orgId}/domains/${other.domain}/hosting/rollback`, { token: ROOT_TOKEN }), 409, 'no_previous_export');
});

test('publishes that answer 202 start the site\'s export when they go live, their status never read; the sweep takes exports neither live, previous, just switched from nor their base', async () => {
  const state = scratchDir('docs-edge-hosting-202-');
  // Publishes answer 202 at once; the sweep keeps an export switched away from for 1 ms, not ten minutes.
  const worker = await startWorker({ persistTo: state, vars: { ROOT_TOKEN, PUBLISH_WAIT_MS: '0', TEST_HOSTED_KEEP_RETIRED_MS: '1' }, testScheduled: true });
  cleanup.push(async () => {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
  });
  const base = worker.baseUrl;
  const own = await tenant({ base });
  const on = await call('PUT', `/v1/admin/orgs/${own.org.orgId}/domains/${own.domain}/hosting`, { token: ROOT_TOKEN, json: { enabled: true }, base });
  assert.equal(on.status, 200, on.text);
  assert.equal(on.body.exportJob, null, 'nothing published yet');

  /** Publishes the version saying `words` (202) and, never reading its status, waits for the site
   * to serve it: the builder starts the site's export as the publish goes live. */
  async function publishLive(words) {
    const started = await publishFolder(own.domain, own.adminKey, site(words, false), { base, wait: false });
    assert.equal(started.status, 202, started.text);
    const page = await soon(async () => {
      const res = await under(own.domain, '/', base);
      return res.status === 200 && res.body.toString().includes(words) && res;
    }, 180_000);
    assert.ok(page, `the site serves ${words}, its publish's status never read`);
    assert.equal(await served(own.domain, base), started.body.publishId);
    return started.body.publishId;
  }
  // Alpha is written whole; each later export writes its changes over alpha, its base.
  await publishLive('Version alpha');
  await publishLive('Version beta');
  assert.equal(await runSweep(worker, 'sweep-after-two'), 0, 'the live export and the previous one stay');
  const third = await publishLive('Version gamma');
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(await runSweep(worker, 'sweep-after-three'), 0, 'alpha, switched away from, is the base of both kept exports');
  await publishLive('Version delta');
  await new Promise((r) => setTimeout(r, 10));
  const deleted = await runSweep(worker, 'sweep-after-four');
  assert.ok(deleted > 5, `beta's files are swept (${deleted} objects)`);
  // The previous export stays whole, with its base: rolled back to, it is served.
  const back = await call('POST', `/v1/admin/orgs/${own.org.orgId}/domains/${own.domain}/hosting/rollback`, { token: ROOT_TOKEN, base });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.body.live.publishId, third);
  const page = await soon(async () => {
    const res = await under(own.domain, '/guide', base);
    return res.status === 200 && res.body.toString().includes('Version gamma') && res;
  });
  assert.ok(page, 'the previous version, whole');
  assert.equal((await under(own.domain, '/_static/site.css', base)).status, 200);
});

test('the export a hosted site serves outlives the export retention: swept at 0 days, its bundle still mints and the next export takes its unchanged pages', async () => {
  const state = scratchDir('docs-edge-hosting-kept-');
  // Every export file is past its retention at once; a batch is one page, so an edit of one of the
  // two pages renders one batch when the other is taken from the live export's parts.
  const worker = await startWorker({ persistTo: state, vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'kept-export-link-key', EXPORT_RETENTION_DAYS: '0', EXPORT_BATCH_PAGES: '1' }, testScheduled: true });
  cleanup.push(async () => {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
  });
  const base = worker.baseUrl;
  const own = await tenant({ base });
  const twoPages = (home) => writeSite('docs-edge-hosting-kept-', {
    'docs.json': JSON.stringify({ name: 'Kept', navigation: { pages: ['index', 'guide'] } }),
    'index.mdx': `---\ntitle: Home\n---\n\n${home} is here.\n`,
    'guide.mdx': '---\ntitle: Guide\n---\n\nThe guide stays as it is.\n',
  });
  assert.equal((await publishFolder(own.domain, own.adminKey, twoPages('Version alpha'), { base })).status, 200);
  const on = await call('PUT', `/v1/admin/orgs/${own.org.orgId}/domains/${own.domain}/hosting`, { token: ROOT_TOKEN, json: { enabled: true }, base });
  assert.equal(on.status, 200, on.text);
  const first = (await waitForJob(own.adminKey, on.body.exportJob.jobId, { base })).job;
  assert.equal(first.status, 'completed', first.error);
  assert.equal(first.pagesRendered, 2);

  // An export no site serves is swept at 0 days: the control that the sweep ran over export files.
  const plain = await startExport(own.adminKey, { domain: own.domain }, base);
  assert.equal(plain.status, 202, plain.text);
  assert.equal((await waitForJob(own.adminKey, plain.body.jobId, { base })).job.status, 'completed');
  assert.ok(await runSweep(worker, 'sweep-served-export') > 0, 'the unserved export\'s files are swept');
  assertError(await requestBundle(own.adminKey, plain.body.jobId, base), 409, 'bundle_expired');

  const minted = await requestBundle(own.adminKey, first.jobId, base);
  assert.equal(minted.status, 200, `the served export's bundle: ${minted.text}`);
  assert.equal((await publishFolder(own.domain, own.adminKey, twoPages('Version beta'), { base })).status, 200);
  const next = await eventually(async () => {
    const manifest = await servedManifest(base, own.domain);
    return manifest && manifest.jobId !== first.jobId && manifest;
  });
  assert.ok(next, 'the site serves the next export');
  const job = (await waitForJob(own.adminKey, next.jobId, { base })).job;
  assert.equal(job.status, 'completed', job.error);
  assert.equal(job.pagesRendered, 1, 'the unchanged page is taken from the served export\'s parts');
  const home = await under(own.domain, '/', base);
  assert.ok(home.body.toString().includes('Version beta'));
});
