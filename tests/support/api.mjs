// HTTP helpers shared by the integration tests: the running worker's URL, the operator token, and
// small builders for organizations, domains and keys. Every response `call` returns has been checked
// against the API reference (docs/openapi.json).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { assertConforms } from '../contract/conformance.mjs';

export const BASE_URL = process.env.BASE_URL;
export const ROOT_TOKEN = process.env.ROOT_TOKEN;
assert.ok(BASE_URL, 'BASE_URL must point at the running worker (run through npm test)');

/** A request; `json` is sent as a JSON body, `body` as is. Returns status, headers and the parsed body. */
export async function call(method, path, { token, json, body, headers = {}, base = BASE_URL } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers['content-type'] ??= 'application/json';
  } else if (body !== undefined) {
    init.body = body;
  }
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  assertConforms({ method, url: path, status: res.status, contentType: res.headers.get('content-type'), text });
  return { status: res.status, headers: res.headers, body: data, text };
}

/**
 * A question to the v1 assistant (AI SDK v4 data stream) over node:http, which hands the body over
 * chunk by chunk as it arrives (`onChunk` sees the text so far): `{status, headers, chunks, text}`,
 * the whole response checked against the API reference once it ends.
 */
export function streamQuestion({ base = BASE_URL, domain, key, question, headers = {}, onChunk }) {
  const body = JSON.stringify({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: question, parts: [{ type: 'text', text: question }] }] });
  return new Promise((resolve, reject) => {
    const req = request(`${base}/discovery/v1/assistant/${domain}/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => {
        chunks.push(c.toString('utf8'));
        onChunk?.(chunks.join(''));
      });
      res.on('end', () => {
        const text = chunks.join('');
        try {
          assertConforms({ method: 'POST', url: req.path, status: res.statusCode, contentType: res.headers['content-type'], text });
        } catch (err) {
          reject(err);
          return;
        }
        resolve({ status: res.statusCode, headers: res.headers, chunks, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Asserts an error response: status, `{error, code}` shape, and the code. */
export function assertError(res, status, code) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.equal(typeof res.body?.error, 'string', `error body must have a message: ${res.text}`);
  assert.ok(res.body.error.length > 0);
  if (code) assert.equal(res.body.code, code, `expected code ${code}: ${res.text}`);
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export async function createOrg({ plan = 'enterprise', name = `Test org ${unique()}`, base } = {}) {
  const res = await call('POST', '/v1/admin/orgs', { token: ROOT_TOKEN, json: { name, plan }, base });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function addDomain(orgId, domain = `docs-${unique()}.example.com`, base) {
  const res = await call('POST', `/v1/admin/orgs/${orgId}/domains`, { token: ROOT_TOKEN, json: { domain }, base });
  assert.equal(res.status, 201, res.text);
  return domain;
}

export async function createKey(orgId, kind, name, base) {
  const res = await call('POST', `/v1/admin/orgs/${orgId}/keys`, { token: ROOT_TOKEN, json: { kind, name }, base });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** An organization with one domain (`domain`, else a new one) and one key of each kind. */
export async function tenant({ plan = 'enterprise', base, domain: wanted } = {}) {
  const org = await createOrg({ plan, base });
  const domain = await addDomain(org.orgId, wanted, base);
  const assistant = await createKey(org.orgId, 'assistant', 'browser', base);
  const admin = await createKey(org.orgId, 'admin', 'server', base);
  return { org, domain, assistantKey: assistant.key, adminKey: admin.key, assistant, admin };
}
