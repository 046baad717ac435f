// Exports for the browser tests of the static export: a folder published to a new tenant and
// exported, the bundle unpacked and served; and the real repositories of ../shared/fixtures copied
// as their text files only (pages, config, specs), since their media would only slow a publish.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tenant } from './api.mjs';
import { publishFolder } from './docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles } from './export.mjs';
import { serveFolder } from './browser.mjs';
import { scratchDir } from '../../scripts/lib/scratch.mjs';

export const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
const TEXT = /\.(mdx?|json|ya?ml)$/;

/** Publishes `folder` to a new tenant and exports `paths` (all pages when absent); the unpacked bundle. */
export async function exportFolder(folder, paths) {
  const t = await tenant();
  const published = await publishFolder(t.domain, t.adminKey, folder);
  assert.equal(published.status, 200, published.text);
  const start = await startExport(t.adminKey, { domain: t.domain, ...(paths ? { paths } : {}) });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const link = await requestBundle(t.adminKey, job.jobId);
  const { dir } = await downloadBundle(link.body.bundleUrl);
  return { dir, files: listFiles(dir), server: await serveFolder(dir) };
}

/** The fixture's text files (pages, config, specs) in a scratch folder. */
export function textCopy(name) {
  const from = join(FIXTURES, name);
  const to = scratchDir(`docs-edge-fixture-${name}-`);
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.') || entry === 'node_modules') continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (TEXT.test(entry) && !entry.startsWith('package')) {
        mkdirSync(dirname(join(to, relative(from, path))), { recursive: true });
        cpSync(path, join(to, relative(from, path)));
      }
    }
  };
  walk(from);
  return to;
}
