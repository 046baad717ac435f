// A hosted site's next export renders and writes what changed (docs/export/hosting.mdx, "Writes
// proportional to the change"): the fixture's site is live, one page is edited and published, and
// the export that follows renders only the batch of pages holding it (the others are taken from
// the live export, with the products its finishing step folds in instead of reading the pages
// again), writes the files whose bytes differ (that page, and the finishing files that
// carry its text) and the new objects of its delta listing, and nothing else; the site then serves
// the new page, and every other file of the export as its listing says, byte for byte, most of
// them from the export before (the same objects, so the same ETags); and its pages are those a
// fresh export of the same version renders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, tenant, ROOT_TOKEN, BASE_URL } from './support/api.mjs';
import { publishFolder, FIXTURE_DOCS } from './support/docs.mjs';
import { downloadBundle, exportLink, listFiles, readFile, requestBundle, waitForJob } from './support/export.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { eventually, underHost } from './support/hosting.mjs';

const under = (host, path) => underHost(BASE_URL, host, path);

const INDEX = '_docs-edge/delta/index.txt';
const object = (sha) => `_docs-edge/delta/objects/${sha}.bin`;

/** The live export's files by path (`{sha256, size, chunks}`), from its delta listing. */
async function listing(host) {
  const index = await under(host, `/${INDEX}`);
  assert.equal(index.status, 200);
  const [head, ...parts] = index.body.toString().trim().split('\n');
  const files = new Map();
  for (const line of parts) {
    const part = await under(host, `/${object(line.split(' ')[0])}`);
    assert.equal(part.status, 200);
    for (const entry of part.body.toString().trim().split('\n')) {
      const [sha256, size, chunks, ...path] = entry.split(' ');
      files.set(path.join(' '), { sha256, size: Number(size), chunks });
    }
  }
  return { exportId: head.split(' ')[2], files };
}

test('one changed page: the next export writes that page, the files that carry it and its listing\'s new objects; every file is served', async () => {
  const t = await tenant();
  const dir = join(scratchDir('docs-edge-incremental-'), 'docs');
  cpSync(FIXTURE_DOCS, dir, { recursive: true });
  assert.equal((await publishFolder(t.domain, t.adminKey, dir)).status, 200);
  const on = await call('PUT', `/v1/admin/orgs/${t.org.orgId}/domains/${t.domain}/hosting`, { token: ROOT_TOKEN, json: { enabled: true, markdown: 'pages' } });
  assert.equal(on.status, 200, on.text);
  const whole = (await waitForJob(t.adminKey, on.body.exportJob.jobId)).job;
  assert.equal(whole.status, 'completed', whole.error);
  const before = await listing(t.domain);
  assert.equal(before.exportId, whole.jobId);
  // Written whole: every file of the export at least, and the pointer.
  assert.ok(whole.siteWrites > before.files.size, `${whole.siteWrites} objects for ${before.files.size} files`);
  assert.equal(whole.pagesRendered, whole.pageCount, 'the first export renders every page');
  const firstPublish = JSON.parse((await under(t.domain, '/_docs-edge/manifest.json')).body.toString()).publishId;
  const home = await under(t.domain, '/');
  assert.equal(home.status, 200);

  // A bundle minted from the live export keeps its parts: the next export still takes its
  // unchanged batches from them (asserted below by the pages it renders).
  const minted = await requestBundle(t.adminKey, whole.jobId);
  assert.equal(minted.status, 200, minted.text);

  // One page edited, published: the publish starts the site's next export as it goes live.
  const page = join(dir, 'quickstart.mdx');
  writeFileSync(page, `${readFileSync(page, 'utf8')}\n\nThis sentence is new in the second version.\n`);
  const published = await publishFolder(t.domain, t.adminKey, dir);
  assert.equal(published.status, 200, published.text);
  const live = await eventually(async () => {
    const res = await under(t.domain, '/_docs-edge/manifest.json');
    const manifest = res.status === 200 && JSON.parse(res.body.toString());
    return manifest && manifest.jobId !== whole.jobId && manifest;
  });
  assert.ok(live, 'the site serves the next export');
  assert.notEqual(live.publishId, firstPublish, 'of the new version');
  const job = (await waitForJob(t.adminKey, live.jobId)).job;
  assert.equal(job.status, 'completed', job.error);
  const after = await listing(t.domain);
  assert.equal(after.exportId, job.jobId);
  // One batch of pages rendered (EXPORT_BATCH_PAGES, 100 here), the one holding the edited page,
  // though the live export's bundle was minted.
  assert.ok(job.pagesRendered > 0 && job.pagesRendered <= 100, `${job.pagesRendered} of ${job.pageCount} pages rendered`);
  // The finishing step read no page again: every batch handed it the products stored beside its
  // part (taken with the part from the live export, or made where it was rendered); and the
  // site's files were written without reading the parts taken unchanged, but the one rendered.
  const log = logLines(process.env.WORKER_LOG);
  const finishing = log.filter((l) => l.event === 'export_finishing' && l.jobId === job.jobId);
  assert.equal(finishing.length, 1, 'one finishing step');
  const batches = Math.ceil(job.pageCount / 100);
  assert.deepEqual([finishing[0].batches, finishing[0].pagesRead], [batches, 0], 'the finishing step\'s batches and pages read again');
  const wholeFinishing = log.find((l) => l.event === 'export_finishing' && l.jobId === whole.jobId);
  assert.equal(wholeFinishing?.pagesRead, 0, 'the first export\'s finishing step read no page again either');
  // Each batch's own files read once: to key it, and the one rendered from what keyed it.
  assert.equal(finishing[0].batchesRead, batches, 'batches whose own files were read');
  // Its steps before the site's files: the batches it takes (several at once) and the one it
  // renders in two at most. The search packs' files are written from the version's packs; their
  // pieces are compressed into the parts only after the switch (the bundle below holds them).
  const steps = log.filter((l) => l.event === 'export_step' && l.jobId === job.jobId);
  const stepsOf = (kind) => steps.filter((l) => l.kind === kind).length;
  assert.ok(stepsOf('pages-taken') + stepsOf('pages-rendered') <= 2, `${stepsOf('pages-taken')} + ${stepsOf('pages-rendered')} steps of pages`);
  assert.equal(stepsOf('search'), 0, 'no step compresses the search packs before the switch');
  assert.ok(stepsOf('after-live') >= 1, 'the steps after the switch');
  const siteLive = log.find((l) => l.event === 'site_live' && l.jobId === job.jobId);
  assert.equal(siteLive?.partsUnread, batches - 1, 'parts of unchanged batches not read');
  // The batches taken from the live export were named where it stored them until the switch, and
  // copied into the job's own parts after it (the bundle below is packed from them).
  assert.equal(siteLive?.partsTakenUncopied, batches - 1, 'parts taken, copied after the switch');

  // The files whose bytes differ: the page (HTML and Markdown), the files that carry every page's
  // text (llms-full.txt, the search packs), the offline search's term files of the words the edit
  // added (`_static/search/{lang}/t/…`) and the manifest, which names the export.
  const differ = [...after.files].filter(([path, f]) => before.files.get(path)?.sha256 !== f.sha256).map(([path]) => path).sort();
  const carriers = /^(quickstart\.(html|md)|llms-full\.txt|_docs-edge\/manifest\.json|_docs-edge\/search\/[a-z]+\.bin|_static\/search\/en\/t\/[a-z]+\.json)$/;
  assert.deepEqual(differ.filter((path) => !carriers.test(path)), [], `only the page and the files carrying it differ: ${differ}`);
  assert.ok(differ.includes('quickstart.html'));
  assert.equal(after.files.size, before.files.size, 'no file added or removed');
  // Its writes: those files; of the listing, its index, the parts holding their lines, and for a
  // file listed in chunks its new list, the groups it changed and a few chunks around the edit
  // (bounded here by 8 objects a file); and the pointer. Not the site's other files.
  const chunkedDiffer = differ.filter((path) => after.files.get(path).chunks !== '-').length;
  const bound = differ.length + 1 + differ.length + chunkedDiffer * 8 + 1;
  assert.ok(job.siteWrites <= bound, `${job.siteWrites} objects written, at most ${bound} (${differ.length} files differ)`);
  assert.ok(job.siteWrites < before.files.size / 20, `${job.siteWrites} objects against ${before.files.size} files`);

  // Served: the new page; and every page (its HTML), every file that changed and every tenth other
  // file the site serves by its own name, as the new listing says, byte for byte.
  const changed = await under(t.domain, '/quickstart');
  assert.equal(changed.status, 200);
  assert.match(changed.body.toString(), /This sentence is new in the second version\./);
  let served = 0;
  let other = 0;
  for (const [path, file] of after.files) {
    if (file.chunks !== '-' || !/\.(html|md|css|js|svg|png|json|txt)$/.test(path)) continue;
    if (!path.endsWith('.html') && !differ.includes(path) && other++ % 10 !== 0) continue;
    const res = await under(t.domain, `/${path}`);
    assert.equal(res.status, 200, path);
    assert.equal(createHash('sha256').update(res.body).digest('hex'), file.sha256, path);
    served += 1;
  }
  assert.ok(served > 1000, `${served} files compared`);
  // The large files (llms-full.txt, the search packs) are stored as segments, the groups of their
  // chunks (docs/export/hosting.mdx), and served whole from them, byte for byte.
  const large = [...after.files].filter(([path, f]) => f.chunks !== '-' && f.size >= 1 << 20 && !path.startsWith('_redirects'));
  assert.ok(large.some(([path]) => path === 'llms-full.txt'), `llms-full.txt is over 1 MiB: ${large.map(([p]) => p)}`);
  for (const [path, file] of large) {
    const res = await under(t.domain, `/${path}`);
    assert.equal(res.status, 200, path);
    assert.equal(Number(res.headers['content-length']), file.size, path);
    assert.equal(createHash('sha256').update(res.body).digest('hex'), file.sha256, path);
    const list = await under(t.domain, `/${object(file.chunks)}`);
    const groups = list.body.toString().trim().split('\n').map((line) => line.split(' ')[0]);
    const whole = createHash('sha256');
    for (const group of groups) {
      const segment = await under(t.domain, `/_docs-edge/delta/segments/${group}.bin`);
      assert.equal(segment.status, 200, `${path}: segment ${group}`);
      whole.update(segment.body);
    }
    assert.equal(whole.digest('hex'), file.sha256, `${path}: its segments are its bytes`);
  }
  // An unchanged page is the same object as before the switch: its validator did not change.
  const again = await under(t.domain, '/');
  assert.equal(again.headers.etag, home.headers.etag);

  // Its pages are what a fresh export of the version renders, every one of them.
  const { link } = await exportLink(t, { markdown: 'pages' });
  const { dir: fresh } = await downloadBundle(link.bundleUrl);
  const pages = listFiles(fresh).filter((path) => /\.(html|md)$/.test(path));
  assert.ok(pages.length > 500, `${pages.length} pages`);
  for (const path of pages) {
    const sha256 = createHash('sha256').update(readFile(fresh, path)).digest('hex');
    assert.equal(after.files.get(path)?.sha256, sha256, `${path}: the hosted export's is not the fresh export's`);
  }
  // A bundle minted from the live export holds those pages too (its taken parts copied in).
  const mintedNext = await requestBundle(t.adminKey, job.jobId);
  assert.equal(mintedNext.status, 200, mintedNext.text);
  const { dir: liveBundle } = await downloadBundle(mintedNext.body.bundleUrl);
  assert.deepEqual(listFiles(liveBundle).filter((path) => /\.(html|md)$/.test(path)), pages, 'the live bundle\'s pages');
  for (const path of pages) {
    assert.ok(readFile(liveBundle, path).equals(readFile(fresh, path)), `${path}: the live bundle's is not the fresh export's`);
  }
  // Its search packs, whose pieces the parts got after the switch, are the fresh export's, and the
  // files the site serves.
  for (const path of ['meta', 'terms', 'text'].map((pack) => `_docs-edge/search/${pack}.bin`)) {
    const bytes = readFile(liveBundle, path);
    assert.ok(bytes.equals(readFile(fresh, path)), `${path}: the live bundle's is not the fresh export's`);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), after.files.get(path)?.sha256, `${path}: the live bundle's is not the site's`);
  }
});
