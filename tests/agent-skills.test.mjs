// The skills a site offers agents (tests/fixtures/agent-skills-docs: a root skill.md, two skills in
// .mintlify/skills/ — one a symbolic link to a folder outside it — one restricted to a group and one
// without a description): both discovery indexes and each SKILL.md through the discovery API, the
// skills as resources of the MCP server (the official client), the same files in the export bundle,
// and none of them a page or a search hit; docs-edge-serve serving that bundle answers each file as the
// API does and sends docs.json's support link with its answers.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BASE_URL, call, assertError, streamQuestion, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { contractFetch } from './contract/conformance.mjs';
import { closeExports, exportPublished } from './support/export-pages.mjs';
import { exportLink } from './support/export.mjs';
import { startServe } from './support/serve.mjs';
import { DISCOVERY_FILES, assertServedAsTheApi } from './support/skills.mjs';

const DOCS = fileURLToPath(new URL('./fixtures/agent-skills-docs', import.meta.url));
const source = (path) => readFileSync(join(DOCS, path), 'utf8');
const ROOT = source('skill.md');
const PAYMENTS = source('.mintlify/skills/payments/SKILL.md');
const ANALYTICS = source('plugins/analytics/SKILL.md');
const sha256 = (text) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

let t;
let site;
const llms = (path) => `/discovery/v1/llms/${t.domain}/${path}`;
const get = (path) => call('GET', llms(path), { token: t.assistantKey });

before(async () => {
  t = await tenant();
  const res = await publishFolder(t.domain, t.adminKey, DOCS);
  assert.equal(res.status, 200, res.text);
  site = res.body;
});

test('skills are no pages; a malformed one is a warning with file and line, a group-gated one is left out quietly', async () => {
  assert.equal(site.pageCount, 1, JSON.stringify(site));
  assert.ok(site.warnings.includes('.mintlify/skills/broken/SKILL.md:1: skill not served: its frontmatter has no `description`'), JSON.stringify(site.warnings));
  assert.ok(!site.warnings.some((w) => w.includes('admin')), JSON.stringify(site.warnings));
  const search = await call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query: 'billing plan invoices pull counts' } });
  assert.equal(search.status, 200, search.text);
  assert.ok(search.body.every((hit) => hit.path === 'index'), JSON.stringify(search.body));
});

test('the agent-skills index lists the root skill first, then each folder\'s, with digests of the served bytes', async () => {
  const res = await get('.well-known/agent-skills/index.json');
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type'), /^application\/json/);
  assert.equal(res.body.$schema, 'https://schemas.agentskills.io/discovery/0.2.0/schema.json');
  assert.deepEqual(res.body.skills.map((s) => s.name), ['quay-cli', 'analytics', 'payments']);
  for (const [skill, text] of [[res.body.skills[0], ROOT], [res.body.skills[1], ANALYTICS], [res.body.skills[2], PAYMENTS]]) {
    assert.equal(skill.type, 'skill-md');
    assert.equal(skill.url, `/.well-known/agent-skills/${skill.name}/SKILL.md`);
    assert.equal(skill.digest, sha256(text), skill.name);
    const file = await get(skill.url.slice(1));
    assert.equal(file.status, 200, file.text);
    assert.match(file.headers.get('content-type'), /^text\/markdown/);
    assert.equal(file.text, text, 'served as written');
    assert.equal(sha256(file.text), skill.digest);
  }
  assert.equal(res.body.skills[2].description, 'Pay for registry storage, read invoices and change the billing plan of an organization.');
});

test('the skills index names each skill\'s files, served under both formats', async () => {
  const res = await get('.well-known/skills/index.json');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { skills: [
    { name: 'quay-cli', description: 'Push, pull and sign container images with the quay command line.', files: ['SKILL.md'] },
    { name: 'analytics', description: 'Read pull counts and storage use per repository.', files: ['SKILL.md'] },
    { name: 'payments', description: 'Pay for registry storage, read invoices and change the billing plan of an organization.', files: ['SKILL.md'] },
  ] });
  assert.equal((await get('.well-known/skills/payments/SKILL.md')).text, PAYMENTS);
  assert.equal((await get('.well-known/skills/payments/skill.md')).text, PAYMENTS, 'the lower-case name the format\'s pages also write');
  for (const missing of ['.well-known/skills/admin-tools/SKILL.md', '.well-known/skills/broken/SKILL.md', '.well-known/other/index.json', '.well-known/skills/payments/notes.md', '.well-known/agent-skills/Payments/SKILL.md']) {
    assertError(await get(missing), 404, 'not_found');
  }
  assertError(await call('GET', llms('.well-known/skills/index.json')), 401, 'unauthorized');
});

test('the MCP server lists skill.md and each other skill as a resource and reads them', async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE_URL}/discovery/v1/mcp/${t.domain}`), {
    requestInit: { headers: { Authorization: `Bearer ${t.assistantKey}` } },
    fetch: (url, init) => contractFetch(String(url), init),
  });
  const client = new Client({ name: 'docs-edge-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), [
      `https://${t.domain}/llms.txt`,
      `https://${t.domain}/skill.md`,
      `https://${t.domain}/.well-known/agent-skills/analytics/SKILL.md`,
      `https://${t.domain}/.well-known/agent-skills/payments/SKILL.md`,
    ]);
    assert.equal(resources[3].description, 'Pay for registry storage, read invoices and change the billing plan of an organization.');
    const read = await client.readResource({ uri: resources[3].uri });
    assert.equal(read.contents[0].text, PAYMENTS);
    assert.equal(read.contents[0].mimeType, 'text/markdown');
    await assert.rejects(client.readResource({ uri: `https://${t.domain}/.well-known/agent-skills/admin-tools/SKILL.md` }), /-32002|not found/i);
  } finally {
    await client.close();
  }
});

test('the export bundle serves the same discovery files, and no .mintlify file', async () => {
  const exported = await exportPublished(t);
  const { dir, files } = exported;
  assert.deepEqual(files.filter((f) => f.startsWith('.well-known/')), [
    '.well-known/agent-skills/analytics/SKILL.md',
    '.well-known/agent-skills/index.json',
    '.well-known/agent-skills/payments/SKILL.md',
    '.well-known/agent-skills/quay-cli/SKILL.md',
    '.well-known/skills/analytics/SKILL.md',
    '.well-known/skills/index.json',
    '.well-known/skills/payments/SKILL.md',
    '.well-known/skills/quay-cli/SKILL.md',
  ]);
  assert.deepEqual(files.filter((f) => /mintlify|plugins|admin|broken/.test(f)), []);
  for (const index of ['agent-skills', 'skills']) {
    const served = await get(`.well-known/${index}/index.json`);
    assert.equal(readFileSync(join(dir, `.well-known/${index}/index.json`), 'utf8'), served.text, `${index}: the bundle's index is the API's`);
  }
  assert.equal(readFileSync(join(dir, '.well-known/skills/payments/SKILL.md'), 'utf8'), PAYMENTS);
  assert.equal(readFileSync(join(dir, 'skill.md'), 'utf8'), ROOT);
  assert.ok(!existsSync(join(dir, '.mintlify')));
  await closeExports({ exported });
});

test('docs-edge-serve serves the bundle\'s discovery files as the API does, and sends docs.json\'s support link with its answers', async () => {
  const { job, link } = await exportLink(t);
  const keyHash = createHash('sha256').update(t.assistantKey).digest('hex');
  const serve = await startServe({ config: {
    static_export: { enabled: true, bundle_url: link.bundleUrl, sha256: link.sha256 },
    assistant: { enabled: true, key_sha256: [keyHash] },
  } });
  try {
    await serve.waitFor((h) => h.jobId === job.jobId, 'the bundle');
    for (const path of DISCOVERY_FILES) {
      const res = await fetch(`${serve.url}/${path}`);
      await assertServedAsTheApi({ status: res.status, contentType: res.headers.get('content-type'), text: await res.text() }, path, get);
    }
    for (const question of ['How do I push an image?', 'Can penguins teleport quantum marmalade?']) {
      const res = await streamQuestion({ base: serve.url, domain: t.domain, key: t.assistantKey, question });
      assert.equal(res.status, 200, res.text);
      const metadata = res.text.split('\n').filter((l) => l.startsWith('2:')).flatMap((l) => JSON.parse(l.slice(2))).find((d) => d.threadId);
      assert.equal(metadata?.support, 'mailto:help@quay.example', `${question}: ${res.text}`);
    }
  } finally {
    await serve.remove();
  }
});
