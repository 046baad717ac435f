// The publish command's client side (sdk-wasm/js/publish), against a node:http stub of the upload
// contract: no worker needed, so `node --test tests/publish-client.test.mjs` runs it alone (npm test
// runs it too). The stub keeps a content-addressed store per site and counts the bytes it receives.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { publishFolder, walkDocsFolder } from '../sdk-wasm/js/publish/index.js';
import { main } from '../sdk-wasm/js/publish/command.js';
import { imageUrls } from '../sdk-wasm/js/publish/remote.js';
import { groupWarnings, progressLine } from '../sdk-wasm/js/publish/report.js';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
import { bundleCli } from '../scripts/build-sdk.mjs';
import { writableCopy } from './support/writable-copy.mjs';

const FIXTURE = fileURLToPath(new URL('../../shared/fixtures/mintlify-docs', import.meta.url));
const KEY = 'svc_test_admin';
const DOMAIN = 'docs.example.com';
const hashOf = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

let scratch;
before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'docs-edge-publish-client-'));
  // The command's file-hash caches (and the bundled bin's) stay in the scratch folder.
  process.env.XDG_CACHE_HOME = join(scratch, 'xdg-cache');
});
after(() => rmSync(scratch, { recursive: true, force: true }));

let dirs = 0;
/** A docs folder from `{path: content}`; `docs.json` is added unless a config is given. */
function site(files) {
  const dir = join(scratch, `site-${++dirs}`);
  const all = 'docs.json' in files || 'mint.json' in files ? files : { 'docs.json': '{"name":"Test","navigation":[]}', ...files };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/**
 * The upload contract of issue 28, as the server will answer it. `async`: commits answer 202 and
 * go live on the second poll; `failUploads`: that many uploads answer 503 first.
 */
async function stub({ async = false, failUploads = 0, warnings = [] } = {}) {
  const store = new Map();
  const requests = [];
  let live = null;
  const polls = new Map();
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const raw = Buffer.concat(chunks);
    const path = new URL(req.url, 'http://stub').pathname;
    requests.push({ method: req.method, path, bytes: raw.length, encoding: req.headers['content-encoding'], type: req.headers['content-type'] });
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const error = (status, code) => send(status, { error: `stub: ${code}`, code });
    if (req.headers.authorization !== `Bearer ${KEY}`) return error(401, 'unauthorized');
    const body = () => JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'));
    const base = `/v1/sites/${DOMAIN}`;
    if (req.method === 'POST' && path === `${base}/files/missing`) {
      return send(200, { missing: body().hashes.filter((h) => !store.has(h)) });
    }
    const file = path.startsWith(`${base}/files/`) && path.slice(`${base}/files/`.length);
    if (req.method === 'PUT' && file) {
      if (failUploads > 0) {
        failUploads--;
        return error(503, 'unavailable');
      }
      if (raw.length > 25 * 1024 * 1024) return error(413, 'too_large');
      if (hashOf(raw) !== file) return error(400, 'hash_mismatch');
      store.set(file, raw);
      return send(200, { hash: file, size: raw.length });
    }
    if (req.method === 'POST' && path === `${base}/publishes`) {
      assert.equal(req.headers['content-encoding'], 'gzip', 'a commit is always gzipped');
      const { files } = body();
      const missing = Object.entries(files).filter(([, h]) => !store.has(h)).map(([p]) => p);
      if (missing.length > 0) return send(400, { error: `${missing.length} files are not held`, code: 'missing_files', missing });
      const site = {
        domain: DOMAIN,
        publishedAt: new Date().toISOString(),
        pageCount: Object.keys(files).filter((p) => /\.mdx?$/.test(p)).length,
        languages: ['en'],
        versions: [],
        warnings,
      };
      if (!async) {
        live = { site, files };
        return send(200, site);
      }
      const id = `pub_${polls.size + 1}`;
      polls.set(id, { left: 2, site, files });
      return send(202, { publishId: id, status: 'queued', progress: 0, pageCount: 0 }, { location: `${base}/publishes/${id}` });
    }
    const poll = req.method === 'GET' && path.startsWith(`${base}/publishes/`) && polls.get(path.split('/').pop());
    if (poll) {
      poll.left--;
      const { pageCount } = poll.site;
      if (poll.left > 0) return send(200, { publishId: 'x', status: 'running', progress: 0.5, pageCount, pagesParsed: pageCount - 1 });
      live = poll;
      return send(200, { publishId: 'x', status: 'live', progress: 1, pageCount, pagesParsed: pageCount });
    }
    if (req.method === 'GET' && path === base) return live ? send(200, live.site) : error(404, 'not_found');
    if (req.method === 'GET' && path === `${base}/manifest`) return live ? send(200, { publishId: 'x', files: live.files }) : error(404, 'not_found');
    return error(404, 'route_not_found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    store,
    requests,
    live: () => live,
    forget: () => store.clear(),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const publish = (server, folder, options = {}) => publishFolder({
  folder, baseUrl: server.url, adminKey: KEY, domain: DOMAIN, retryDelayMs: 1, pollMs: 1, hashCacheDir: join(scratch, 'hash-cache'), ...options,
});

test('the first publish uploads every distinct file and commits the whole folder', async () => {
  const server = await stub();
  try {
    const dir = site({ 'index.mdx': '# Home\n', 'guide/a.mdx': '# A\n', 'guide/b.mdx': '# A\n', 'logo.svg': '<svg/>' });
    const result = await publish(server, dir);
    assert.deepEqual(Object.keys(server.live().files), ['docs.json', 'guide/a.mdx', 'guide/b.mdx', 'index.mdx', 'logo.svg']);
    assert.equal(result.filesTotal, 5);
    assert.equal(result.filesUploaded, 4, 'two files with the same bytes are uploaded once');
    assert.equal(server.store.size, 4);
    assert.equal(result.site.pageCount, 3);
    const sent = server.requests.reduce((n, r) => n + r.bytes, 0);
    assert.equal(result.bytesSent, sent, 'bytesSent is what the server received');
    const missing = server.requests.filter((r) => r.path.endsWith('/files/missing'));
    assert.equal(missing.length, 1, 'one missing-files question');
    assert.equal(missing[0].encoding, 'gzip');
    for (const upload of server.requests.filter((r) => r.method === 'PUT')) assert.equal(upload.type, 'application/octet-stream');
  } finally {
    await server.close();
  }
});

test('a re-publish of the real fixture after touching one page uploads that page and < 40 bytes per other file', async () => {
  const server = await stub();
  const dir = join(scratch, 'fixture-copy');
  writableCopy(FIXTURE, dir);
  try {
    const first = await publish(server, dir, { noFetch: true });
    assert.ok(first.filesTotal > 1000, `${first.filesTotal} files`);
    assert.equal(first.filesUploaded, server.store.size);

    const page = join(dir, 'quickstart.mdx');
    appendFileSync(page, '\nA sentence added for the re-publish.\n');
    const requestsBefore = server.requests.length;
    const again = await publish(server, dir, { noFetch: true });
    assert.equal(again.filesUploaded, 1);
    const uploads = server.requests.slice(requestsBefore).filter((r) => r.method === 'PUT');
    assert.equal(uploads.length, 1);
    const perFile = (again.bytesSent - uploads[0].bytes) / (again.filesTotal - 1);
    assert.ok(perFile < 40, `${perFile.toFixed(1)} bytes per unchanged file`);
    console.log(`re-publish of ${again.filesTotal} files: ${perFile.toFixed(1)} bytes per unchanged file`);
  } finally {
    await server.close();
  }
});

test('file hashes are kept outside the folder between publishes; a file whose size or time changed is read again', async () => {
  const server = await stub();
  const cacheDir = join(scratch, 'own-hash-cache');
  try {
    const dir = site({ 'index.mdx': '# Home\n![shot](https://img.example/a.png)\n', 'a.mdx': '# A\n', 'fresh.mdx': '# F\n' });
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const name of ['docs.json', 'index.mdx', 'a.mdx']) utimesSync(join(dir, name), hourAgo, hourAgo);
    const first = await publish(server, dir, { hashCacheDir: cacheDir, noFetch: true });
    assert.equal(first.filesUploaded, 4);
    const [cacheFile, ...others] = readdirSync(cacheDir);
    assert.equal(others.length, 0, 'one cache file per folder');
    const cached = JSON.parse(readFileSync(join(cacheDir, cacheFile), 'utf8'));
    // A file modified just before the walk could be modified again within the clock's tick: not kept.
    assert.deepEqual(Object.keys(cached.files).sort(), ['a.mdx', 'docs.json', 'index.mdx']);

    // Same size, another time: read again, and the new bytes are what is sent.
    writeFileSync(join(dir, 'a.mdx'), '# B\n');
    const earlier = new Date(Date.now() - 7200_000);
    utimesSync(join(dir, 'a.mdx'), earlier, earlier);
    const again = await publish(server, dir, { hashCacheDir: cacheDir, noFetch: true });
    assert.equal(again.filesUploaded, 1);
    assert.ok(server.store.has(hashOf(Buffer.from('# B\n'))));
    // The remote image of a page taken from the cache is still found.
    assert.ok(again.warnings.some((w) => w.startsWith('index.mdx:2: remote image not fetched')), again.warnings.join('\n'));
  } finally {
    await server.close();
  }
});

test('a site that lost files its live manifest names is sent them when the commit names them', async () => {
  const server = await stub();
  try {
    const dir = site({ 'index.mdx': '# Home\n', 'a.mdx': '# A\n' });
    await publish(server, dir);
    server.forget();
    const result = await publish(server, dir);
    assert.equal(result.filesUploaded, 3);
    assert.equal(server.requests.filter((r) => r.path.endsWith('/publishes')).length, 3, 'the refused commit is repeated once');
  } finally {
    await server.close();
  }
});

test('uploads are retried after a 503, and a 202 is followed until live with progress', async () => {
  const server = await stub({ async: true, failUploads: 2 });
  try {
    const events = [];
    const dir = site({ 'index.mdx': '# Home\n' });
    const result = await publish(server, dir, { onEvent: (e) => events.push(e) });
    assert.equal(result.filesUploaded, 2);
    assert.equal(server.requests.filter((r) => r.method === 'PUT').length, 4);
    assert.equal(result.site.domain, DOMAIN);
    const phases = events.map((e) => e.phase);
    assert.ok(phases.includes('hash') && phases.includes('upload'));
    const published = events.filter((e) => e.phase === 'publish');
    assert.deepEqual(published.map((e) => e.status.status), ['queued', 'running', 'live']);
    assert.deepEqual(published.map(progressLine), ['publish queued 0%', 'publish running 50%, parsed 0 of 1 pages', 'publish live 100%, parsed 1 of 1 pages']);
  } finally {
    await server.close();
  }
});

test('.mintignore and the default ignores leave files out', () => {
  const dir = site({
    '.mintignore': '# drafts\ndrafts/\n*.draft.mdx\n!keep.draft.mdx\n/private.mdx\n',
    'index.mdx': '', 'drafts/x.mdx': '', 'a.draft.mdx': '', 'keep.draft.mdx': '', 'private.mdx': '', 'sub/private.mdx': '',
    'README.md': '', 'node_modules/x/index.js': '', '.github/workflows/ci.yml': '', '.git/HEAD': '', '.docs-edge/remote.json': '{}',
    'build/out.js': '', 'guide/build/page.mdx': '', 'guide/node_modules/x.js': '',
  });
  const paths = walkDocsFolder(dir).files.map((f) => f.path);
  assert.deepEqual(paths, ['.mintignore', 'docs.json', 'guide/build/page.mdx', 'index.mdx', 'keep.draft.mdx', 'sub/private.mdx']);
});

test('links inside the folder are followed once, links outside are never read', async () => {
  const outside = join(scratch, 'secret.txt');
  writeFileSync(outside, 'outside secret');
  const dir = site({ 'AGENTS.md': 'agents', 'shared/a.mdx': '# Shared\n' });
  symlinkSync('AGENTS.md', join(dir, 'CLAUDE.md'));
  symlinkSync('shared', join(dir, 'linked'));
  symlinkSync('..', join(dir, 'shared', 'loop'));
  symlinkSync(outside, join(dir, 'leak.md'));
  symlinkSync('nowhere.mdx', join(dir, 'dangling.mdx'));
  const walked = walkDocsFolder(dir);
  assert.deepEqual(walked.files.map((f) => f.path), ['AGENTS.md', 'CLAUDE.md', 'docs.json', 'linked/a.mdx', 'shared/a.mdx']);
  assert.equal(walked.warnings.length, 4, walked.warnings.join('\n'));
  assert.match(walked.warnings.find((w) => w.startsWith('leak.md:')), /outside the docs folder/);
  assert.match(walked.warnings.find((w) => w.startsWith('dangling.mdx:')), /missing target/);
  assert.equal(walked.warnings.filter((w) => /a cycle/.test(w)).length, 2, 'shared/loop and linked/loop');

  const server = await stub();
  try {
    const result = await publish(server, dir);
    assert.equal(server.live().files['CLAUDE.md'], server.live().files['AGENTS.md']);
    assert.ok([...server.store.values()].every((b) => !b.toString().includes('outside secret')));
    assert.ok(result.warnings.some((w) => w.startsWith('leak.md:')));
  } finally {
    await server.close();
  }
});

test('a file over 25 MiB is refused by name; a folder without a config is refused', () => {
  const dir = site({ 'index.mdx': '', 'media/big.mp4': '' });
  truncateSync(join(dir, 'media/big.mp4'), 25 * 1024 * 1024 + 1);
  assert.throws(() => walkDocsFolder(dir), /media\/big\.mp4 \(25\.0 MiB\)/);
  const bare = site({ 'mint.json': '{}' });
  rmSync(join(bare, 'mint.json'));
  assert.throws(() => walkDocsFolder(bare), /has no docs\.json or mint\.json/);
});

test('the .tar.gz packer takes mint.json, honours .mintignore and follows inside links', () => {
  const dir = site({ 'mint.json': '{"name":"Legacy"}', '.mintignore': 'internal/\n', 'index.mdx': '', 'internal/x.mdx': '', 'AGENTS.md': 'a' });
  symlinkSync('AGENTS.md', join(dir, 'CLAUDE.md'));
  const listing = spawnSync('tar', ['-tvzf', '-'], { input: packDocsFolder(dir), encoding: 'utf8' });
  const lines = listing.stdout.trim().split('\n');
  assert.deepEqual(lines.map((l) => l.split(/\s+/).pop()), ['./.mintignore', './AGENTS.md', './CLAUDE.md', './index.mdx', './mint.json']);
  assert.ok(lines.every((l) => l.startsWith('-')), 'links are stored as the files they point at');
});

const SPEC = JSON.stringify({ openapi: '3.0.0', info: { title: 'Remote', version: '1' }, paths: {} });
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const remoteSite = () => site({
  'docs.json': JSON.stringify({
    name: 'Remote',
    openapi: 'https://specs.example/top.json',
    api: { openapi: ['https://specs.example/top.json', 'local.yaml'] },
    navigation: {
      tabs: [{ tab: 'API', openapi: { source: 'https://specs.example/tab.yaml', directory: 'api' }, groups: [{ group: 'G', openapi: 'http://plain.example/spec.json', pages: [] }] }],
      languages: [{ language: 'fr', $ref: './fr.json' }],
    },
  }, null, 2),
  'fr.json': JSON.stringify({ groups: [{ group: 'F', openapi: ['https://specs.example/fr.json'], pages: [] }] }),
  'index.mdx': [
    '# Home', '![logo](https://img.example/logo.png)', '',
    '<Frame>', '  <img', '    src="https://img.example/shot"', '  />', '</Frame>',
    '```md', '![not fetched](https://img.example/in-code.png)', '```',
    '<img src={"https://img.example/missing.png"} />',
  ].join('\n'),
});

function fakeFetch(seen) {
  const bodies = {
    'https://specs.example/top.json': [SPEC, 'application/json'],
    'https://specs.example/tab.yaml': ['openapi: 3.0.0\n', 'application/yaml'],
    'https://specs.example/fr.json': [SPEC, 'application/json'],
    'https://img.example/logo.png': [PNG, 'image/png'],
    'https://img.example/shot': [PNG, 'image/png'],
  };
  return async (url) => {
    seen.push(url);
    const [body, type] = bodies[url] ?? ['not here', 'text/plain'];
    return new Response(body, { status: bodies[url] ? 200 : 404, headers: { 'content-type': type } });
  };
}

test('remote OpenAPI documents and images are fetched into .docs-edge/remote with a map', async () => {
  const server = await stub();
  try {
    const seen = [];
    const result = await publish(server, remoteSite(), { remoteFetch: fakeFetch(seen) });
    assert.deepEqual(seen.sort(), [
      'https://img.example/logo.png', 'https://img.example/missing.png', 'https://img.example/shot',
      'https://specs.example/fr.json', 'https://specs.example/tab.yaml', 'https://specs.example/top.json',
    ]);
    const files = server.live().files;
    const map = JSON.parse(server.store.get(files['.docs-edge/remote.json']).toString());
    assert.deepEqual(Object.keys(map), [
      'https://img.example/logo.png', 'https://img.example/shot', 'https://specs.example/fr.json',
      'https://specs.example/tab.yaml', 'https://specs.example/top.json',
    ]);
    assert.equal(map['https://specs.example/top.json'], `.docs-edge/remote/${hashOf(SPEC)}.json`);
    assert.equal(map['https://img.example/shot'], `.docs-edge/remote/${hashOf(PNG)}.png`, 'the type names the extension');
    assert.equal(map['https://specs.example/fr.json'], map['https://specs.example/top.json'], 'same bytes, one file');
    for (const path of Object.values(map)) assert.ok(files[path], path);
    assert.deepEqual(result.warnings.sort(), [
      'docs.json:21: remote OpenAPI document not fetched (only https addresses are fetched): http://plain.example/spec.json',
      'index.mdx:12: remote image not fetched (HTTP 404): https://img.example/missing.png',
    ]);
  } finally {
    await server.close();
  }
});

test('--no-fetch fetches nothing and warns once per address', async () => {
  const server = await stub();
  try {
    const seen = [];
    const result = await publish(server, remoteSite(), { noFetch: true, remoteFetch: fakeFetch(seen) });
    assert.deepEqual(seen, []);
    assert.ok(!Object.keys(server.live().files).some((p) => p.startsWith('.docs-edge/')));
    const noFetch = result.warnings.filter((w) => w.includes('(--no-fetch)'));
    assert.equal(noFetch.length, 7);
    assert.ok(noFetch.includes('docs.json:3: remote OpenAPI document not fetched (--no-fetch): https://specs.example/top.json'));
    assert.ok(noFetch.includes('fr.json:1: remote OpenAPI document not fetched (--no-fetch): https://specs.example/fr.json'));
    assert.ok(noFetch.includes('index.mdx:5: remote image not fetched (--no-fetch): https://img.example/shot'));
  } finally {
    await server.close();
  }
});

test('remote images are found in Markdown, <img> and <Frame>, never in code blocks', () => {
  const found = imageUrls('![a](https://x.example/a.png "t")\n~~~\n<img src="https://x.example/no.png">\n~~~\n<img alt="b" src=\'https://x.example/b.png\'/>');
  assert.deepEqual(found, [{ url: 'https://x.example/a.png', line: 1 }, { url: 'https://x.example/b.png', line: 5 }]);
});

/** Runs the publish command with captured output. */
async function run(argv, env = {}) {
  const out = { stdout: '', stderr: '' };
  const stream = (name) => ({ isTTY: false, write: (s) => { out[name] += s; } });
  const status = await main(argv, { env, stdout: stream('stdout'), stderr: stream('stderr') });
  return { status, ...out };
}

test('--json prints one JSON object on stdout, progress and grouped warnings go to stderr', async () => {
  const server = await stub({ warnings: ['a.mdx:3: navigation entry "x" names a missing page', 'b.mdx:9: navigation entry "y" names a missing page'] });
  try {
    const dir = site({ 'index.mdx': '# Home\n![r](https://img.example/r.png)\n' });
    const { status, stdout, stderr } = await run(
      [dir, '--domain', DOMAIN, '--json', '--no-fetch'],
      { DOCS_EDGE_URL: server.url, DOCS_EDGE_ADMIN_KEY: KEY },
    );
    assert.equal(status, 0, stderr);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const result = JSON.parse(lines[0]);
    assert.deepEqual(Object.keys(result), ['site', 'warnings', 'bytesSent', 'filesUploaded', 'filesTotal', 'durationMs']);
    assert.equal(result.site.domain, DOMAIN);
    assert.equal(result.filesTotal, 2);
    assert.equal(result.filesUploaded, 2);
    assert.equal(result.warnings.length, 3);
    assert.ok(Number.isInteger(result.bytesSent) && result.bytesSent > 0);
    assert.match(stderr, /hashed 2\/2 files/);
    assert.match(stderr, /uploaded 2\/2 files/);
    assert.match(stderr, /3 warnings:\n {2}2 × navigation entry "…" names a missing page\n {6}a\.mdx:3 {2}"x"\n {6}b\.mdx:9 {2}"y"\n {2}1 × remote image not fetched \(--no-fetch\): …/);
  } finally {
    await server.close();
  }
});

test('the command refuses missing arguments (2) and reports a failed publish (1) as JSON', async () => {
  const usage = await run(['--domain', DOMAIN]);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /name one docs folder\n--url \(or DOCS_EDGE_URL\) is required\n--key/);
  assert.equal(usage.stdout, '');
  const server = await stub();
  try {
    const dir = site({ 'index.mdx': '' });
    const failed = await run([dir, '--domain', DOMAIN, '--url', server.url, '--key', 'svc_wrong', '--json']);
    assert.equal(failed.status, 1);
    assert.deepEqual(JSON.parse(failed.stdout), { error: 'stub: unauthorized', code: 'unauthorized', status: 401 });
  } finally {
    await server.close();
  }
});

test('warnings of one kind are grouped, largest group first', () => {
  const groups = groupWarnings([
    'docs.json: unknown key `foo` ignored',
    'a.mdx:1: file ends inside a code fence',
    'docs.json: unknown key `bar` ignored',
    'b.mdx:20: file ends inside a code fence',
    'c.mdx:4: file ends inside a code fence',
  ]);
  assert.deepEqual(groups.map((g) => [g.kind, g.count]), [['file ends inside a code fence', 3], ['unknown key `…` ignored', 2]]);
  assert.deepEqual(groups[1].items, [{ location: 'docs.json', detail: '`foo`' }, { location: 'docs.json', detail: '`bar`' }]);
});

test('the bundled docs-edge bin publishes with --json', async () => {
  const dir = join(scratch, 'bin');
  await bundleCli(join(dir, 'cli.js'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  const server = await stub();
  try {
    const folder = site({ 'index.mdx': '# Home\n' });
    const child = spawn(process.execPath, [join(dir, 'cli.js'), 'publish', folder, '--domain', DOMAIN, '--json'], {
      env: { ...process.env, DOCS_EDGE_URL: server.url, DOCS_EDGE_ADMIN_KEY: KEY },
    });
    let stdout = '';
    child.stdout.on('data', (c) => { stdout += c; });
    const status = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(status, 0);
    assert.equal(JSON.parse(stdout).filesUploaded, 2);
    assert.ok(existsSync(join(dir, 'cli.js')));
  } finally {
    await server.close();
  }
});
