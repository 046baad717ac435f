// Real docs repositories publish whole, as their owners keep them (issue 28): the two kept in
// ../shared/fixtures (agentops-docs: legacy mint.json, versions, 37 MB; dify-docs: docs.json, three
// languages, products, OpenAPI groups, 49 MB) go through the publish command's code with the
// default limits, into a fresh worker (its own builder isolate, so the memory read from its log is
// these publishes' own: not the run's sites that support/fixture-site.mjs shares). Every page their
// navigation names is there (the navigation walked here, independently of the service), endpoint
// pages generated from OpenAPI included; their warnings are counted; the builder stays within 64 MiB
// of wasm memory. dify-docs' export opens at its root and keeps its old URLs. A mint.json and a
// docs.json describing the same site publish to the same outline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';
import { ROOT_TOKEN, call, tenant } from './support/api.mjs';
import { publishFolder, walkDocsFolder } from '../sdk-wasm/js/publish/index.js';
import { FIXTURES, fixtureSite } from './support/fixture-site.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles, readFile } from './support/export.mjs';
import { launchChromium, serveFolder } from './support/browser.mjs';

const BUILDER_BUDGET_BYTES = 64 * 1024 * 1024;
const ENDPOINT = /^(?:\S+\s+)?(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE)\s+\//i;

const state = scratchDir('docs-edge-real-repos-');
const logFile = join(state, 'worker.log');
let worker;
const published = {};

before(async () => {
  // TEST_FETCH_LOOPBACK_HTTP: the remote-spec test serves its spec over plain http from loopback.
  worker = await startWorker({ persistTo: join(state, 'state'), logFile, vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', TEST_FETCH_LOOPBACK_HTTP: '1' } });
  for (const name of ['agentops-docs', 'dify-docs']) {
    const folder = join(FIXTURES, name);
    if (!existsSync(folder)) continue;
    // Not the run's worker: published here, never a shared record.
    const { t, result } = await fixtureSite(name, worker.baseUrl);
    published[name] = { t, folder, result };
  }
});

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

/** The page paths a navigation node names (strings among `pages`, groups' `root`), endpoint entries
 * apart, at any depth and under any key: languages, products, versions, tabs, anchors, dropdowns. */
function navigationEntries(node, out = { pages: new Set(), endpoints: new Set() }) {
  if (Array.isArray(node)) {
    for (const item of node) navigationEntries(item, out);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pages' && Array.isArray(value)) {
        for (const entry of value) {
          if (typeof entry !== 'string') navigationEntries(entry, out);
          else if (ENDPOINT.test(entry)) out.endpoints.add(entry);
          else out.pages.add(entry.replace(/^\//, '').replace(/\.mdx?$/, ''));
        }
      } else if (key === 'root' && typeof value === 'string') {
        out.pages.add(value.replace(/^\//, ''));
      } else if (key !== 'global') {
        navigationEntries(value, out);
      }
    }
  }
  return out;
}

/** The navigation's pages that have a file among those the publish command sends. */
function listedPages(name) {
  const { folder } = published[name];
  const config = JSON.parse(readFileSync(join(folder, existsSync(join(folder, 'docs.json')) ? 'docs.json' : 'mint.json'), 'utf8'));
  const entries = navigationEntries(config.navigation);
  const sent = new Set(walkDocsFolder(folder).files.map((f) => f.path));
  const hasFile = (page) => ['.mdx', '.md', '/index.mdx', '/index.md'].some((ext) => sent.has(`${page}${ext}`));
  return { ...entries, present: [...entries.pages].filter(hasFile), absent: [...entries.pages].filter((p) => !hasFile(p)) };
}

async function pageExists(t, path) {
  const res = await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path }, base: worker.baseUrl });
  return res.status === 200;
}

async function assertEveryListedPage(name) {
  const { t } = published[name];
  const { present } = listedPages(name);
  const missing = [];
  for (let i = 0; i < present.length; i += 16) {
    const batch = present.slice(i, i + 16);
    const found = await Promise.all(batch.map((path) => pageExists(t, path)));
    missing.push(...batch.filter((_, j) => !found[j]));
  }
  assert.deepEqual(missing, [], `${name}: pages its navigation names that the site lacks`);
  return present.length;
}

test('agentops-docs (legacy mint.json, three versions) publishes every page its navigation names', { skip: !existsSync(join(FIXTURES, 'agentops-docs')) }, async () => {
  const { result } = published['agentops-docs'];
  const { absent } = listedPages('agentops-docs');
  // The repository's one authoring mistake: a navigation entry without its page.
  assert.deepEqual(absent, ['v1/integrations/agents_sdk']);
  const listed = await assertEveryListedPage('agentops-docs');
  assert.ok(listed >= 80, `${listed} pages listed`);
  assert.deepEqual(result.site.versions, ['v2', 'v1', 'v0']);
  // Four warnings, each the repository's: the missing page (with its line in mint.json), two
  // frontmatter descriptions whose quoted text breaks YAML's indentation rule, and the pages no
  // navigation lists.
  const warnings = result.site.warnings;
  assert.equal(warnings.length, 4, JSON.stringify(warnings, null, 1));
  assert.ok(warnings.some((w) => /^mint\.json:\d+: navigation entry `v1\/integrations\/agents_sdk` has no page file$/.test(w)), warnings.join('\n'));
  assert.equal(warnings.filter((w) => w.includes('invalid frontmatter YAML')).length, 2);
  assert.ok(warnings.some((w) => /^\d+ pages not in navigation/.test(w)));
});

test('dify-docs (three languages, products, OpenAPI groups) publishes every page and every endpoint page its navigation names', { skip: !existsSync(join(FIXTURES, 'dify-docs')) }, async () => {
  const { t, result } = published['dify-docs'];
  const { absent, endpoints } = listedPages('dify-docs');
  assert.deepEqual(absent, []);
  const listed = await assertEveryListedPage('dify-docs');
  assert.ok(listed >= 800, `${listed} pages listed`);
  assert.deepEqual(result.site.languages.slice().sort(), ['en', 'ja', 'zh']);
  // Each endpoint entry is a page generated from its OpenAPI operation: the site has them besides
  // the listed pages, and search finds one by its operation's words.
  assert.ok(endpoints.size >= 50, `${endpoints.size} endpoint entries`);
  assert.ok(result.site.pageCount >= listed + endpoints.size, `${result.site.pageCount} pages for ${listed} listed and ${endpoints.size} endpoint entries`);
  const search = await call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query: 'send chat message' }, base: worker.baseUrl });
  assert.equal(search.status, 200, search.text);
  assert.ok(search.body.some((hit) => /api-reference\//.test(hit.path)), search.text);
  // One warning: the pages its navigation does not list (its .mintignore and the format's default
  // ignores leave out the repository's own notes).
  assert.equal(result.site.warnings.length, 1, JSON.stringify(result.site.warnings, null, 1));
  assert.match(result.site.warnings[0], /^\d+ pages not in navigation/);
  // The client's warnings: remote images it was told not to fetch, each naming its file and line.
  const remote = result.warnings.filter((w) => w.includes('not fetched (--no-fetch)'));
  assert.ok(remote.length > 100 && remote.every((w) => /^[^:]+:\d+: remote /.test(w)), remote.slice(0, 3).join('\n'));
});

test('the builder publishes both repositories within 64 MiB of wasm memory', { skip: !existsSync(join(FIXTURES, 'dify-docs')) }, async () => {
  const steps = logLines(logFile).filter((l) => l.event === 'publish_step' && Number.isInteger(l.wasmMemoryBytes));
  assert.ok(steps.length >= Object.keys(published).length, 'each publish logs its steps');
  const highWater = Math.max(...steps.map((l) => l.wasmMemoryBytes));
  console.log(`builder wasmMemoryBytes high-water over ${Object.keys(published).join(', ')}: ${(highWater / 1048576).toFixed(1)} MiB`);
  assert.ok(highWater <= BUILDER_BUDGET_BYTES, `${(highWater / 1048576).toFixed(1)} MiB`);
});

test('a dify-docs export opens at its root (its navigation starts at en/…) and keeps its old URLs', { skip: !existsSync(join(FIXTURES, 'dify-docs')), timeout: 240_000 }, async () => {
  const { t } = published['dify-docs'];
  const first = 'en/cloud/use-dify/getting-started/introduction';
  // A few pages keep the export short; the root page and the redirects are the same for any choice.
  const paths = [first, 'en/home', 'en/cloud/use-dify/nodes/output', 'zh/home'];
  const start = await startExport(t.adminKey, { domain: t.domain, paths }, worker.baseUrl);
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId, { base: worker.baseUrl });
  assert.equal(job.status, 'completed', job.error);
  const link = await requestBundle(t.adminKey, job.jobId, worker.baseUrl);
  const { dir } = await downloadBundle(link.body.bundleUrl);
  const server = await serveFolder(dir);
  const browser = await launchChromium();
  try {
    // docs.json sends `/` to `/en/home`; the root page does too.
    const root = readFile(dir, 'index.html').toString();
    assert.match(root, /<meta http-equiv="refresh" content="0; url=en\/home\.html">/);
    assert.match(root, /<link rel="canonical" href="en\/home\.html">/);
    assert.match(root, /<a href="zh\/home\.html">/, 'the other languages\' homes are listed');
    // The redirects: a stub where the old URL's file would be, and every rule in `_redirects`.
    const rules = readFile(dir, '_redirects').toString();
    assert.match(rules, /^\/en\/use-dify\/nodes\/end \/en\/cloud\/use-dify\/nodes\/output 308$/m);
    assert.match(rules, /^\/en\/guides\/workflow\/node\/\* \/en\/cloud\/use-dify\/nodes\/:splat 308$/m);
    assert.ok(listFiles(dir).includes('en/use-dify/nodes/end.html'));

    // A reader opening the bundle's root lands on the home page, one following an old link on its page.
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/en/home.html`);
    assert.match(await page.title(), /^Dify Documentation/);
    await page.goto(`${server.url}/en/use-dify/nodes/end.html`);
    await page.waitForURL(`${server.url}/en/cloud/use-dify/nodes/output.html`);
    assert.ok((await page.locator('main').innerText()).length > 100, 'the page the old URL names');
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a mint.json and a docs.json describing the same site publish to the same outline', async () => {
  const dir = scratchDir('docs-edge-same-site-');
  const pages = {
    'index.mdx': '---\ntitle: Home\n---\nWelcome.',
    'guides/start.mdx': '---\ntitle: Start\n---\nStart here.',
    'guides/deploy.mdx': '---\ntitle: Deploy\n---\nDeploy it.',
    'api/overview.mdx': '---\ntitle: API overview\n---\nThe API.',
  };
  const mint = {
    name: 'Same', colors: { primary: '#0D9373' },
    tabs: [{ name: 'API', url: 'api' }],
    navigation: [
      { group: 'Get started', pages: ['index', 'guides/start'] },
      { group: 'Guides', pages: ['guides/deploy'] },
      { group: 'Reference', pages: ['api/overview'] },
    ],
  };
  const docs = {
    name: 'Same', theme: 'mint', colors: { primary: '#0D9373' },
    navigation: {
      tabs: [
        { tab: 'Documentation', groups: [{ group: 'Get started', pages: ['index', 'guides/start'] }, { group: 'Guides', pages: ['guides/deploy'] }] },
        { tab: 'API', groups: [{ group: 'Reference', pages: ['api/overview'] }] },
      ],
    },
  };
  const outline = async (configName, config) => {
    const folder = join(dir, configName);
    for (const [path, text] of Object.entries(pages)) {
      mkdirSync(join(folder, path, '..'), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
    writeFileSync(join(folder, configName), JSON.stringify(config));
    const t = await tenant({ base: worker.baseUrl });
    const { site } = await publishFolder({ folder, baseUrl: worker.baseUrl, adminKey: t.adminKey, domain: t.domain, noFetch: true, pollMs: 100 });
    const llms = await fetch(`${worker.baseUrl}/discovery/v1/llms/${t.domain}/llms.txt`, { headers: { authorization: `Bearer ${t.assistantKey}` } });
    assert.equal(llms.status, 200);
    return { site, llms: (await llms.text()).replaceAll(t.domain, 'DOMAIN') };
  };
  const fromMint = await outline('mint.json', mint);
  const fromDocs = await outline('docs.json', docs);
  assert.equal(fromMint.site.pageCount, 4);
  assert.deepEqual(fromMint.site.warnings, fromDocs.site.warnings);
  assert.equal(fromMint.llms, fromDocs.llms);
  assert.match(fromMint.llms, /API overview/);
});

test('a remote OpenAPI spec the upload lacks is fetched once at publish time, kept with the version, and warned about', async () => {
  const spec = {
    openapi: '3.0.0', info: { title: 'Zoo', version: '1' },
    paths: { '/animals': { get: { summary: 'List the okapis', tags: ['Animals'], responses: { 200: { description: 'The okapis of the zoo' } } } } },
  };
  let served = 0;
  const server = createServer((req, res) => {
    served++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(spec));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}/zoo.json`;
    const folder = join(scratchDir('docs-edge-remote-spec-'), 'docs');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.mdx'), '---\ntitle: Home\n---\nWelcome.');
    writeFileSync(join(folder, 'docs.json'), JSON.stringify({
      name: 'Zoo',
      navigation: { tabs: [
        { tab: 'Docs', pages: ['index'] },
        { tab: 'API', openapi: url, pages: [] },
        { tab: 'Private', openapi: 'https://10.0.0.1/private.json', pages: [] },
      ] },
    }));
    const t = await tenant({ base: worker.baseUrl });
    const { site, warnings } = await publishFolder({ folder, baseUrl: worker.baseUrl, adminKey: t.adminKey, domain: t.domain, noFetch: true, pollMs: 100 });
    assert.ok(warnings.some((w) => w.includes(url) && w.includes('--no-fetch')), warnings.join('\n'));
    assert.equal(served, 1, 'fetched once, by the builder');
    assert.ok(site.warnings.includes(`docs.json: openapi spec ${url} was not in the upload; fetched at publish time and kept with this version`), site.warnings.join('\n'));
    assert.ok(site.warnings.some((w) => w.startsWith('docs.json: openapi spec https://10.0.0.1/private.json was not in the upload and could not be fetched (host `10.0.0.1` is not a public address)')), site.warnings.join('\n'));
    assert.equal(site.pageCount, 2, 'the home page and the generated endpoint page');
    const search = await call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query: 'okapis' }, base: worker.baseUrl });
    assert.equal(search.status, 200, search.text);
    assert.ok(search.body.length > 0 && search.body[0].metadata.title === 'List the okapis', search.text);
    assert.equal(search.body[0].path, 'api-reference/animals/list-the-okapis');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
