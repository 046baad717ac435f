// Exports of small sites and of the real fixtures (published once a run: fixture-site.mjs), opened in
// Chromium the way a reader opens a bundle: only its own host reachable, script errors caught,
// axe-core run in light and dark. Shared by the browser tests of the export's look (export-chrome,
// export-layout, export-api).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tenant } from './api.mjs';
import { publishFolder } from './docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles } from './export.mjs';
import { serveFolder } from './browser.mjs';
import { FIXTURES, fixtureSite } from './fixture-site.mjs';
import { axeViolations } from './widget.mjs';
import { scratchDir } from '../../scripts/lib/scratch.mjs';

export { FIXTURES };

/** Publishes `folder` to a new tenant and exports `paths` (all pages when absent); the unpacked bundle, served. */
export async function exportFolder(folder, paths) {
  const t = await tenant();
  const published = await publishFolder(t.domain, t.adminKey, folder);
  assert.equal(published.status, 200, published.text);
  return { ...(await exportPublished(t, paths ? { paths } : {})), warnings: published.body.warnings };
}

/** Exports what tenant `t` published, with `request`'s fields beside its domain; the unpacked bundle, served. */
export async function exportPublished(t, request = {}) {
  const start = await startExport(t.adminKey, { domain: t.domain, ...request });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const link = await requestBundle(t.adminKey, job.jobId);
  const { dir } = await downloadBundle(link.body.bundleUrl);
  return { dir, files: listFiles(dir), server: await serveFolder(dir) };
}

/** Exports `paths` (all pages when null) of each fixture of `wanted` (`{'dify-docs': [...]}`) that is present, from the
 * run's shared site, into `into` under its short name (`dify`). */
export async function exportFixtures(into, wanted) {
  for (const [fixture, paths] of Object.entries(wanted)) {
    if (existsSync(join(FIXTURES, fixture))) into[fixture.replace(/-docs$/, '')] = await exportPublished((await fixtureSite(fixture)).t, paths ? { paths } : {});
  }
}

/** Stops the servers of `exports` and removes their folders. */
export async function closeExports(exports) {
  for (const { server, dir } of Object.values(exports)) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `files` (path -> text) written to a scratch folder named after `prefix`. */
export function writeSite(prefix, files) {
  const dir = scratchDir(prefix);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** `path` of the export served at `server` in `browser`, light or dark, with every other host blocked and script errors caught;
 * `width` and `javaScriptEnabled` as the test needs. */
export async function openPage(browser, server, path, scheme = 'light', expectStatus = 200, { width = 1280, javaScriptEnabled = true } = {}) {
  const context = await browser.newContext({ colorScheme: scheme, javaScriptEnabled, viewport: { width, height: 900 } });
  const own = new URL(server.url).host;
  const outside = [];
  await context.route('**/*', (route) => {
    if (new URL(route.request().url()).host === own) return route.continue();
    outside.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const res = await page.goto(`${server.url}/${path}`);
  assert.equal(res.status(), expectStatus, `${path} answered ${res.status()}`);
  await page.waitForLoadState('load');
  return { page, context, errors, outside };
}

/** axe-core finds nothing on `path` in light and in dark; a screenshot of each at `shot`-<scheme>.png. */
export async function accessibleInBothThemes(browser, server, path, shot, expectStatus = 200) {
  for (const scheme of ['light', 'dark']) {
    const { page, context, errors, outside } = await openPage(browser, server, path, scheme, expectStatus);
    await page.screenshot({ path: `${shot}-${scheme}.png` });
    assert.deepEqual(await axeViolations(page), [], `${path} (${scheme})`);
    assert.deepEqual(errors, [], `script errors on ${path}`);
    assert.deepEqual(outside, [], `requests outside the bundle from ${path}`);
    await context.close();
  }
}
