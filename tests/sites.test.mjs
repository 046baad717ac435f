// Docs sites: publishing the real fixture, search and page endpoints, unsafe archives, atomic republish.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { call, assertError, tenant } from './support/api.mjs';
import { publish, publishFolder, DEMO_DOCS, FIXTURE_DOCS } from './support/docs.mjs';
import { removeScratch, scratchDir } from '../scripts/lib/scratch.mjs';

let fx; // tenant with the fixture published
let published;

before(async () => {
  fx = await tenant();
  const res = await publishFolder(fx.domain, fx.adminKey, FIXTURE_DOCS);
  assert.equal(res.status, 200, res.text);
  published = res.body;
});

const search = (json, who = fx) => call('POST', `/discovery/v1/search/${who.domain}`, { token: who.assistantKey, json });
const page = (path, who = fx) => call('POST', `/discovery/v1/page/${who.domain}`, { token: who.assistantKey, json: { path } });

test('publishing the whole fixture reports its pages, languages and warnings', async () => {
  assert.equal(published.domain, fx.domain);
  // The fixture holds 1,053 page files outside snippets/ (SOURCE.md's "about 1,130" counts snippets too).
  assert.ok(published.pageCount >= 1050, `pageCount ${published.pageCount}`);
  assert.deepEqual([...published.languages].sort(), ['en', 'es', 'fr', 'zh']);
  assert.equal(published.languages[0], 'en');
  assert.ok(Array.isArray(published.versions));
  assert.ok(Array.isArray(published.warnings));
  assert.ok(!Number.isNaN(Date.parse(published.publishedAt)));
  const info = await call('GET', `/v1/sites/${fx.domain}`, { token: fx.adminKey });
  assert.equal(info.status, 200);
  assert.deepEqual(info.body, published);
});

test('search ranks a static export page first for "static export bundle"', async () => {
  const res = await search({ query: 'static export bundle' });
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body.length > 0);
  assert.match(res.body[0].path, /^api\/static-export\//);
  for (const r of res.body) {
    assert.equal(typeof r.content, 'string');
    assert.equal(typeof r.metadata.title, 'string');
    assert.ok(r.metadata.score >= 0 && r.metadata.score <= 1);
  }
});

test('the language filter returns only French pages', async () => {
  const res = await search({ query: 'domaine personnalisé', filter: { language: 'fr' }, pageSize: 20 });
  assert.equal(res.status, 200);
  assert.ok(res.body.length > 0);
  for (const r of res.body) {
    assert.equal(r.metadata.language, 'fr');
    assert.match(r.path, /^fr\//);
  }
});

test('pageSize and scoreThreshold are obeyed', async () => {
  const three = await search({ query: 'api key', pageSize: 3 });
  assert.equal(three.body.length, 3);
  const all = await search({ query: 'api key', pageSize: 50 });
  const threshold = all.body[Math.floor(all.body.length / 2)].metadata.score;
  const above = await search({ query: 'api key', pageSize: 50, scoreThreshold: threshold });
  assert.ok(above.body.length < all.body.length);
  assert.ok(above.body.every((r) => r.metadata.score >= threshold));
  const none = await search({ query: 'api key', scoreThreshold: 1 });
  assert.ok(none.body.every((r) => r.metadata.score >= 1));
});

test('search validation names the field', async () => {
  for (const [body, pattern] of [
    [{}, /^query: is required/],
    [{ query: '' }, /^query: must not be empty/],
    [{ query: 'x', pageSize: 0 }, /^pageSize: /],
    [{ query: 'x', pageSize: 51 }, /^pageSize: /],
    [{ query: 'x', scoreThreshold: 1.5 }, /^scoreThreshold: /],
    [{ query: 'x', filter: { groups: 'a' } }, /^filter\.groups: /],
  ]) {
    const res = await search(body);
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.error, pattern);
  }
});

test('the page endpoint returns a page text; an unknown page is 404', async () => {
  const res = await page('api/static-export/overview');
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.path, 'api/static-export/overview');
  assert.ok(res.body.content.length > 200);
  assert.ok(!res.body.content.includes('<Card'), 'no JSX in page text');
  assertError(await page('no/such/page'), 404, 'not_found');
});

function tarGz(build) {
  const dir = scratchDir('archive-');
  build(dir);
  const out = spawnSync('tar', ['-czf', '-', '-C', dir, '.'], { maxBuffer: 1 << 28 });
  removeScratch(dir);
  return out.stdout;
}

function rawTarGz(entries) {
  // Hand-written ustar headers: GNU tar refuses to write the names we need to test.
  const blocks = [];
  for (const { name, type = '0', data = '', linkname = '' } of entries) {
    const header = Buffer.alloc(512);
    header.write(name, 0, 100);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(Buffer.byteLength(data).toString(8).padStart(11, '0') + '\0', 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write(type, 156);
    header.write(linkname, 157, 100);
    header.write('ustar\x0000', 257);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(header);
    const body = Buffer.from(data);
    blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  const tar = Buffer.concat(blocks);
  const res = spawnSync('gzip', ['-c'], { input: tar });
  return res.stdout;
}

const DOCS_JSON = JSON.stringify({ name: 'Evil', navigation: { pages: ['index'] } });

/** Publishes the demo docs to a new tenant, then each `[name, archive, pattern]` of `cases`: every one
 * is 400 `invalid_archive` with an error matching `pattern`, and the demo site stays live unchanged. */
async function assertRefusedKeepingTheSite(cases) {
  const t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS)).status, 200);
  const before = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });
  for (const [name, archive, pattern] of cases) {
    const res = await publish(t.domain, t.adminKey, archive);
    assertError(res, 400, 'invalid_archive');
    assert.match(res.body.error, pattern, `${name}: ${res.body.error}`);
  }
  const after = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });
  assert.deepEqual(after.body, before.body);
  assert.equal((await search({ query: 'rate limits' }, t)).body[0].path, 'assistant/rate-limits');
}

test('unsafe archives are rejected with 400 and the site is unchanged', async () => {
  const cases = [
    ['path traversal', rawTarGz([{ name: 'docs.json', data: DOCS_JSON }, { name: '../escape.mdx', data: 'x' }]), /\.\./],
    ['absolute path', rawTarGz([{ name: 'docs.json', data: DOCS_JSON }, { name: '/etc/passwd', data: 'x' }]), /absolute/i],
    ['device', rawTarGz([{ name: 'docs.json', data: DOCS_JSON }, { name: 'dev', type: '3' }]), /device|special|unsupported/i],
    ['no docs.json', tarGz((d) => writeFileSync(join(d, 'index.mdx'), '# hi')), /docs\.json/],
    ['unparseable docs.json', tarGz((d) => writeFileSync(join(d, 'docs.json'), '{ nope')), /docs\.json/],
    ['not gzip', Buffer.from('this is not an archive'), /gzip|archive/i],
    // ~100 KB on the wire; the tar crate alone would read the 100 MB name whole, past every limit.
    ['100 MB GNU long name', rawTarGz([{ name: '././@LongLink', type: 'L', data: 'a'.repeat(100 << 20) }, { name: 'docs.json', data: DOCS_JSON }]), /long-name or PAX header record is larger than 65536 bytes/],
    ['1 MB PAX record', rawTarGz([{ name: 'PaxHeaders/x', type: 'x', data: `1048576 comment=${'a'.repeat((1 << 20) - 17)}\n` }, { name: 'docs.json', data: DOCS_JSON }]), /PAX/],
    ['2 KB path', rawTarGz([{ name: '././@LongLink', type: 'L', data: `${'a/'.repeat(1024)}x.mdx` }, { name: 'x.mdx', data: 'x' }, { name: 'docs.json', data: DOCS_JSON }]), /longer than 1024 bytes/],
  ];
  await assertRefusedKeepingTheSite(cases);
});

/** Nine levels of nine YAML aliases: 9^9 nodes once expanded, from under a kilobyte. */
function billionLaughs() {
  const names = 'abcdefghi'.split('');
  let yaml = `a: &a [${Array(9).fill('"lol"').join(',')}]\n`;
  for (let i = 1; i < names.length; i++) {
    yaml += `${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]\n`;
  }
  return yaml;
}

test('a link out of the docs folder is never read: a warning names it, and the page it stood for is missing', async () => {
  const t = await tenant();
  const docs = JSON.stringify({ name: 'Links', navigation: { pages: ['index', 'secret', 'alias'] } });
  const archive = rawTarGz([
    { name: 'docs.json', data: docs },
    { name: 'index.mdx', data: '# Home\n\nThe home page.' },
    { name: 'secret.mdx', type: '2', linkname: '/etc/passwd' },
    { name: 'alias.mdx', type: '2', linkname: 'index.mdx' },
  ]);
  const res = await publish(t.domain, t.adminKey, archive);
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body.warnings.includes('secret.mdx: symbolic link points outside the docs folder; not read'), res.text);
  assert.ok(res.body.warnings.includes('docs.json:1: navigation entry `secret` has no page file'), res.text);
  assert.equal(res.body.pageCount, 2, 'the link inside the folder is a page of its own');
  const page = await call('POST', `/discovery/v1/page/${t.domain}`, { token: t.assistantKey, json: { path: 'alias' } });
  assert.equal(page.status, 200, page.text);
  assert.match(JSON.stringify(page.body), /The home page/);
});

test("search prefers the version docs.json marks default, even declared after another, unless asked for one", async () => {
  const t = await tenant();
  const docs = JSON.stringify({
    name: 'Versions',
    navigation: {
      versions: [
        { version: 'v1', pages: ['v1/keys'] },
        { version: 'v2', default: true, pages: ['v2/keys'] },
      ],
    },
  });
  // Near copies, as versions keep them: v2's says a little more, so on words alone v1's is the
  // (slightly) stronger match.
  const shared = 'Each organization holds its own keys, and every request names one in its header. '.repeat(4);
  const older = `Rotate an API key from the dashboard. Keys expire after a year. ${shared}`;
  const archive = rawTarGz([
    { name: 'docs.json', data: docs },
    { name: 'v1/keys.mdx', data: `---\ntitle: Keys\n---\n\n${older}\n` },
    { name: 'v2/keys.mdx', data: `---\ntitle: Keys\n---\n\n${older} Settings.\n` },
  ]);
  const res = await publish(t.domain, t.adminKey, archive);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.versions, ['v1', 'v2']);
  const first = async (json) => {
    const found = await search(json, t);
    assert.equal(found.status, 200, found.text);
    return found.body[0]?.path ?? JSON.stringify(found.body);
  };
  assert.match(await first({ query: 'rotate api key' }), /v2\/keys/);
  assert.match(await first({ query: 'rotate api key in v1' }), /v1\/keys/);
  assert.match(await first({ query: 'rotate api key', filter: { version: 'v1' } }), /v1\/keys/);
});

test('hostile docs are refused with 400 naming the file or field and the rule; the live site stays', async () => {
  const evilPage = 'javascript:alert(document.domain)';
  const listed = JSON.stringify({ name: 'Evil', navigation: { tabs: [{ tab: 'T', pages: ['index', evilPage] }] } });
  const fanOut = (level) => JSON.stringify({ group: 'g', pages: Array(30).fill({ $ref: `l${level + 1}.json` }) });
  const refs = [{ name: 'docs.json', data: JSON.stringify({ navigation: { groups: Array(30).fill({ $ref: 'l1.json' }) } }) }];
  for (let level = 1; level < 8; level++) refs.push({ name: `l${level}.json`, data: fanOut(level) });
  refs.push({ name: 'l8.json', data: JSON.stringify({ group: 'leaf', pages: ['index'] }) }, { name: 'index.mdx', data: 'x' });
  const cases = [
    ['a listed page path with a scheme', [{ name: 'docs.json', data: listed }, { name: 'index.mdx', data: 'x' }, { name: `${evilPage}.mdx`, data: 'x' }],
      /docs\.json navigation\.tabs\[0\]\.pages\[1\]: .*URL scheme/],
    ['a page path naming a host', [{ name: 'docs.json', data: JSON.stringify({ navigation: { pages: ['//evil.example/x'] } }) }], /pages\[0\].*host/],
    ['an unlisted page file with a scheme', [{ name: 'docs.json', data: DOCS_JSON }, { name: 'index.mdx', data: 'x' }, { name: 'data:text.mdx', data: 'x' }],
      /page file "data:text\.mdx".*URL scheme/],
    ['$ref fan-out', refs, /\$ref expansion exceeds/],
    ['YAML aliases in frontmatter', [{ name: 'docs.json', data: DOCS_JSON }, { name: 'index.mdx', data: `---\n${billionLaughs()}---\nx` }],
      /index\.mdx: YAML aliases expand/],
    ['YAML aliases in an OpenAPI file', [{ name: 'docs.json', data: DOCS_JSON }, { name: 'index.mdx', data: 'x' }, { name: 'api/openapi.yaml', data: billionLaughs() }],
      /api\/openapi\.yaml: YAML aliases expand/],
  ];
  const archives = cases.map(([name, entries, pattern]) => [name, rawTarGz(entries), pattern]);
  for (const [name, archive] of archives) assert.ok(archive.length < 16 * 1024, `${name}: ${archive.length} bytes`);
  await assertRefusedKeepingTheSite(archives);
});

test('too many files and too many bytes are rejected before anything is stored', async (t2) => {
  // Limits lowered for this test would need their own worker; the defaults are exercised with a bomb.
  const t = await tenant();
  const bomb = tarGz((d) => {
    writeFileSync(join(d, 'docs.json'), DOCS_JSON);
    writeFileSync(join(d, 'big.txt'), Buffer.alloc(110 * 1024 * 1024, 0x61));
  });
  assert.ok(bomb.length < 1024 * 1024, 'compresses to under a megabyte');
  const res = await publish(t.domain, t.adminKey, bomb);
  assertError(res, 400, 'invalid_archive');
  assert.match(res.body.error, /bytes|large|limit/i);
  const many = tarGz((d) => {
    writeFileSync(join(d, 'docs.json'), DOCS_JSON);
    mkdirSync(join(d, 'p'));
    // MAX_SOURCE_FILES: 50,000 by default.
    for (let i = 0; i < 50_001; i++) writeFileSync(join(d, 'p', `${i}.md`), '');
  });
  const res2 = await publish(t.domain, t.adminKey, many);
  assertError(res2, 400, 'invalid_archive');
  assert.match(res2.body.error, /files|limit/i);
  assertError(await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey }), 404, 'not_found');
});

test('the publish endpoint wants a gzip body and an admin key of the owner', async () => {
  const res = await call('PUT', `/v1/sites/${fx.domain}/content`, { token: fx.adminKey, json: { a: 1 } });
  assertError(res, 415, 'unsupported_media_type');
  assertError(await publishFolder(fx.domain, fx.assistantKey, DEMO_DOCS), 403, 'wrong_key_kind');
  const other = await tenant();
  assertError(await publishFolder(fx.domain, other.adminKey, DEMO_DOCS), 404, 'not_found');
});

test('a republish replaces the site in one step', async () => {
  const t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey, DEMO_DOCS)).status, 200);
  const first = await call('GET', `/v1/sites/${t.domain}`, { token: t.adminKey });
  assert.equal(first.body.pageCount, 6);
  const dir = scratchDir('v2-');
  writeFileSync(join(dir, 'docs.json'), JSON.stringify({ name: 'V2', navigation: { pages: ['index', 'zebra'] } }));
  writeFileSync(join(dir, 'index.mdx'), '---\ntitle: Home v2\n---\nWelcome to version two.');
  writeFileSync(join(dir, 'zebra.mdx'), '---\ntitle: Zebra crossings\n---\nStripes everywhere.');
  const second = await publishFolder(t.domain, t.adminKey, dir);
  assert.equal(second.status, 200);
  assert.equal(second.body.pageCount, 2);
  assert.equal((await search({ query: 'zebra stripes' }, t)).body[0].path, 'zebra');
  assert.equal((await search({ query: 'rate limits' }, t)).body.length, 0);
  assertError(await page('assistant/rate-limits', t), 404, 'not_found');
});
