// The foundation: health, the error shapes of the HTTP layer, request ids, and `.dev.vars` handling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { call, assertError, ROOT_TOKEN, BASE_URL } from './support/api.mjs';
import { ensureDevVars } from '../scripts/lib/dev-vars.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const crateVersion = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(new URL('../Cargo.toml', import.meta.url), 'utf8'))[1];

test('health answers ok with the crate version', async () => {
  const res = await call('GET', '/health');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ok', version: crateVersion });
  assert.match(res.headers.get('content-type'), /^application\/json/);
});

test('unknown route is a 404 with code route_not_found', async () => {
  assertError(await call('GET', '/no/such/route'), 404, 'route_not_found');
});

test('wrong method is a 405 listing the allowed methods', async () => {
  const res = await call('DELETE', '/health');
  assertError(res, 405, 'method_not_allowed');
  assert.equal(res.headers.get('allow'), 'GET, HEAD');
});

test('non-JSON body on a JSON endpoint is a 415', async () => {
  const res = await call('POST', '/v1/admin/orgs', {
    token: ROOT_TOKEN,
    body: 'name=x',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assertError(res, 415, 'unsupported_media_type');
  assert.match(res.body.error, /application\/json/);
});

test('malformed JSON is a 400 that says where', async () => {
  const res = await call('POST', '/v1/admin/orgs', {
    token: ROOT_TOKEN,
    body: '{"name": "x",\n "plan": }',
    headers: { 'content-type': 'application/json' },
  });
  assertError(res, 400, 'invalid_json');
  assert.match(res.body.error, /line 2 column \d+/);
});

test('a body over the limit is a 413', async () => {
  const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), plan: 'free' });
  const res = await call('POST', '/v1/admin/orgs', { token: ROOT_TOKEN, body: big, headers: { 'content-type': 'application/json' } });
  assertError(res, 413, 'payload_too_large');
});

// The body is never finished: a worker that read it whole before checking would never answer.
test('a chunked body with no Content-Length is refused at the limit, not read whole', { timeout: 30_000 }, async () => {
  const { status, text } = await new Promise((resolve, reject) => {
    const req = httpRequest(`${BASE_URL}/v1/admin/orgs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ROOT_TOKEN}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let data = '';
      res.on('data', (d) => (data += d));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode, text: data });
      });
    });
    req.on('error', reject);
    req.write(Buffer.alloc(2 * 1024 * 1024 + 1, 0x20));
  });
  assert.equal(status, 413, text);
  assert.equal(JSON.parse(text).code, 'payload_too_large');
});

test('every response carries a distinct x-request-id', async () => {
  const responses = [await call('GET', '/health'), await call('GET', '/nope'), await call('DELETE', '/health')];
  const ids = responses.map((r) => r.headers.get('x-request-id'));
  for (const id of ids) assert.match(id, /^req_[0-9a-f]{16}$/);
  assert.equal(new Set(ids).size, ids.length);
});

test('one structured log line per request, without secrets', async () => {
  const res = await call('GET', '/health');
  const id = res.headers.get('x-request-id');
  const log = await waitForLog(id);
  const line = log.split('\n').find((l) => l.includes(id));
  const entry = JSON.parse(line.slice(line.indexOf('{')));
  assert.equal(entry.method, 'GET');
  assert.equal(entry.path, '/health');
  assert.equal(entry.status, 200);
  assert.equal(typeof entry.durationMs, 'number');
});

test('.dev.vars is created once with random secrets and kept on the next start', () => {
  const dir = scratchDir('devvars-');
  const path = join(dir, '.dev.vars');
  const first = ensureDevVars(path);
  assert.equal(first.created, true);
  assert.match(first.vars.ROOT_TOKEN, /^[0-9a-f]{64}$/);
  assert.match(first.vars.LINK_SIGNING_KEY, /^[0-9a-f]{64}$/);
  assert.notEqual(first.vars.ROOT_TOKEN, first.vars.LINK_SIGNING_KEY);
  const text = readFileSync(path, 'utf8');
  const second = ensureDevVars(path);
  assert.equal(second.created, false);
  assert.deepEqual(second.vars, first.vars);
  assert.equal(readFileSync(path, 'utf8'), text);
  const other = ensureDevVars(join(scratchDir('devvars-'), '.dev.vars'));
  assert.notEqual(other.vars.ROOT_TOKEN, first.vars.ROOT_TOKEN);
});

export async function waitForLog(needle, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const log = readFileSync(process.env.WORKER_LOG, 'utf8');
    if (log.includes(needle)) return log;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`log never showed ${needle}`);
}
