// This project's own documentation (docs/) as a docs-edge site: published through the worker with no
// warning, every navigation page live (the API reference tab generated from docs/openapi.json, one
// page per operation), every internal link of every published page leading to a published page, and
// its static export with every internal href and src of every HTML file resolving to a file of the
// bundle. Published and exported once; the tests share both.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tenant, call } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles } from './support/export.mjs';

const DOCS = fileURLToPath(new URL('../docs', import.meta.url));
const config = JSON.parse(readFileSync(join(DOCS, 'docs.json'), 'utf8'));

/** Every page the navigation lists by path (generated API pages aside). */
function navigationPages(node, out = []) {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) node.forEach((n) => navigationPages(n, out));
  else if (node && typeof node === 'object') {
    for (const key of ['tabs', 'groups', 'pages']) if (node[key]) navigationPages(node[key], out);
  }
  return out;
}

/** The operations of the API reference: one generated page each. */
function operationCount() {
  const doc = JSON.parse(readFileSync(join(DOCS, 'openapi.json'), 'utf8'));
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);
  return Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).filter((m) => methods.has(m)).length, 0);
}

let t;
let site;
let pages; // published page path -> its Markdown
let bundleDir;

before(async () => {
  t = await tenant();
  site = await publishFolder(t.domain, t.adminKey, DOCS);
  assert.equal(site.status, 200, site.text);
  const llms = await call('GET', `/discovery/v1/llms/${t.domain}/llms.txt`, { token: t.assistantKey });
  assert.equal(llms.status, 200, llms.text);
  const prefix = `https://${t.domain}/`;
  const paths = [...llms.text.matchAll(/\]\((https:\/\/[^)\s]+)\)/g)]
    .map((m) => m[1]).filter((u) => u.startsWith(prefix)).map((u) => u.slice(prefix.length) || 'index');
  pages = new Map();
  for (const url of new Set(paths)) {
    // A folder's index page is linked as the folder (`/publish` for `publish/index`).
    let res;
    for (const path of [url, `${url}/index`]) {
      res = await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path, format: 'markdown' } });
      if (res.status !== 404) break;
    }
    assert.equal(res.status, 200, `${url}: ${res.text}`);
    pages.set(res.body.path, res.body.content);
  }
  const started = await startExport(t.adminKey, { domain: t.domain });
  assert.equal(started.status, 202, started.text);
  const { job } = await waitForJob(t.adminKey, started.body.jobId);
  assert.equal(job.status, 'completed', JSON.stringify(job));
  const bundle = await requestBundle(t.adminKey, job.jobId);
  assert.equal(bundle.status, 200, bundle.text);
  bundleDir = (await downloadBundle(bundle.body.bundleUrl)).dir;
});

test('no prose line of docs/ starts with import or export, which MDX reads as ESM and drops silently', () => {
  const pagesOf = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pagesOf(join(dir, e.name)) : e.name.endsWith('.mdx') ? [join(dir, e.name)] : []);
  const found = [];
  for (const file of pagesOf(DOCS)) {
    let fenced = false;
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (line.startsWith('```')) fenced = !fenced;
      else if (!fenced && /^(?:import|export)\b/.test(line)) found.push(`${file.slice(DOCS.length + 1)}:${i + 1}`);
    });
  }
  assert.deepEqual(found, []);
});

test('docs/ publishes without a warning', () => {
  assert.deepEqual(site.body.warnings, []);
});

test('every navigation page is published, and the API reference has a page per operation', () => {
  const listed = navigationPages(config.navigation);
  assert.ok(listed.length >= 20, `only ${listed.length} pages listed`);
  const missing = listed.filter((p) => !pages.has(p));
  assert.deepEqual(missing, [], 'navigation pages missing from the published site');
  const generated = pages.size - listed.length;
  assert.ok(generated >= operationCount(), `${generated} generated API pages for ${operationCount()} operations`);
});

test('every internal link of a published page leads to a published page', () => {
  const broken = [];
  for (const [path, markdown] of pages) {
    for (const [, url] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
      let target;
      if (url.startsWith(`https://${t.domain}/`)) target = url.slice(`https://${t.domain}/`.length);
      else if (url.startsWith('/')) target = url.slice(1);
      else continue;
      target = target.split('#')[0].split('?')[0].replace(/\/$/, '') || 'index';
      if (!pages.has(target) && !pages.has(`${target}/index`)) broken.push(`${path}: ${url}`);
    }
  }
  assert.deepEqual(broken, []);
});

/** A relative URL of an exported file resolves to a file of the bundle, as a static host serves it. */
function resolves(from, url) {
  const path = decodeURIComponent(url.split('#')[0].split('?')[0]);
  if (path === '') return true;
  const target = normalize(join(dirname(join(bundleDir, from)), path));
  if (!target.startsWith(bundleDir)) return false;
  const isFile = (p) => existsSync(p) && statSync(p).isFile();
  return isFile(target) || isFile(`${target}.html`) || isFile(join(target, 'index.html'));
}

test('the export has every page, and every internal href and src of its HTML resolves to a file', () => {
  const files = listFiles(bundleDir);
  const html = files.filter((f) => f.endsWith('.html'));
  for (const page of navigationPages(config.navigation)) assert.ok(files.includes(`${page}.html`), `${page}.html missing from the bundle`);
  const broken = [];
  let checked = 0;
  for (const file of html) {
    const text = readFileSync(join(bundleDir, file), 'utf8');
    // Attributes of tags only: a page's text (code showing HTML) has its `<` escaped.
    for (const [tag] of text.matchAll(/<[a-zA-Z][^<>]*>/g)) {
      for (const [, , url] of tag.matchAll(/\s(href|src)="([^"]*)"/g)) {
        if (/^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(url)) continue; // another site, a fragment of this page
        checked++;
        if (!resolves(file, url.replaceAll('&amp;', '&'))) broken.push(`${file}: ${url}`);
      }
    }
  }
  assert.ok(checked > html.length, `only ${checked} internal links in ${html.length} HTML files`);
  assert.deepEqual(broken, []);
});
