// Organizations, domains, keys (operator API), the key matrix on both sides, keys limited to their
// sites' origins, CORS, and secrets in logs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { call, assertError, ROOT_TOKEN, createOrg, addDomain, createKey, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';

const admin = (method, path, json) => call(method, path, { token: ROOT_TOKEN, json });
const secretsSeen = [ROOT_TOKEN];

let home; // an organization with a published demo site
let other; // a second organization

before(async () => {
  home = await tenant();
  other = await tenant();
  secretsSeen.push(home.assistantKey, home.adminKey, other.assistantKey, other.adminKey);
  const published = await publishFolder(home.domain, home.adminKey);
  assert.equal(published.status, 200, published.text);
});

const search = (token, domain = home.domain) =>
  call('POST', `/discovery/v1/search/${domain}`, { token, json: { query: 'rate limits' } });
const siteInfo = (token, domain = home.domain) => call('GET', `/v1/sites/${domain}`, { token });

test('create organization returns its id, name, plan and creation time', async () => {
  const res = await admin('POST', '/v1/admin/orgs', { name: 'Acme', plan: 'pro' });
  assert.equal(res.status, 201);
  assert.match(res.body.orgId, /^org_[0-9a-f]{16}$/);
  assert.equal(res.body.name, 'Acme');
  assert.equal(res.body.plan, 'pro');
  assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
});

test('organization validation names the field and rule', async () => {
  const badPlan = await admin('POST', '/v1/admin/orgs', { name: 'Acme', plan: 'gold' });
  assertError(badPlan, 400, 'invalid_request');
  assert.match(badPlan.body.error, /^plan: must be one of free, pro, enterprise/);
  const noName = await admin('POST', '/v1/admin/orgs', { plan: 'free' });
  assertError(noName, 400, 'invalid_request');
  assert.match(noName.body.error, /^name: is required/);
  const wrongType = await admin('POST', '/v1/admin/orgs', { name: 5, plan: 'free' });
  assert.match(wrongType.body.error, /^name: must be a string/);
});

test('patch changes name and plan; unknown organization is 404', async () => {
  const org = await createOrg({ plan: 'free' });
  const res = await admin('PATCH', `/v1/admin/orgs/${org.orgId}`, { plan: 'enterprise', name: 'Renamed' });
  assert.equal(res.status, 200);
  assert.equal(res.body.plan, 'enterprise');
  assert.equal(res.body.name, 'Renamed');
  assertError(await admin('PATCH', '/v1/admin/orgs/org_0000000000000000', { plan: 'pro' }), 404, 'not_found');
  assertError(await admin('PATCH', `/v1/admin/orgs/${org.orgId}`, { plan: 'platinum' }), 400, 'invalid_request');
  assertError(await admin('POST', '/v1/admin/orgs/org_0000000000000000/keys', { kind: 'admin' }), 404, 'not_found');
  assertError(await admin('POST', '/v1/admin/orgs/org_0000000000000000/domains', { domain: 'x.example.com' }), 404, 'not_found');
});

test('domains are hostnames, belong to one organization, and can be released', async () => {
  const a = await createOrg();
  const b = await createOrg();
  for (const bad of ['https://docs.example.com', 'docs.example.com/', 'docs.example.com/docs', 'bad domain', '']) {
    const res = await admin('POST', `/v1/admin/orgs/${a.orgId}/domains`, { domain: bad });
    assertError(res, 400, 'invalid_request');
    assert.match(res.body.error, /^domain: /);
  }
  const domain = await addDomain(a.orgId);
  const taken = await admin('POST', `/v1/admin/orgs/${b.orgId}/domains`, { domain });
  assertError(taken, 409, 'domain_taken');
  assert.equal((await admin('DELETE', `/v1/admin/orgs/${a.orgId}/domains/${domain}`)).status, 204);
  assertError(await admin('DELETE', `/v1/admin/orgs/${a.orgId}/domains/${domain}`), 404, 'not_found');
  assert.equal((await admin('POST', `/v1/admin/orgs/${b.orgId}/domains`, { domain })).status, 201);
});

test('keys have their kind prefix, are shown once, and list without secrets', async () => {
  const org = await createOrg();
  const assistant = await createKey(org.orgId, 'assistant', 'widget');
  const adminKey = await createKey(org.orgId, 'admin');
  secretsSeen.push(assistant.key, adminKey.key);
  assert.match(assistant.key, /^svc_dsc_[A-Za-z0-9]{32,}$/);
  assert.match(adminKey.key, /^svc_[A-Za-z0-9]{32,}$/);
  assert.ok(!adminKey.key.startsWith('svc_dsc_'));
  assert.equal(assistant.kind, 'assistant');
  assert.equal(assistant.name, 'widget');
  assert.match(assistant.keyId, /^key_[0-9a-f]{16}$/);
  const list = await admin('GET', `/v1/admin/orgs/${org.orgId}/keys`);
  assert.equal(list.status, 200);
  assert.equal(list.body.keys.length, 2);
  for (const k of list.body.keys) {
    assert.equal(k.key, undefined);
    assert.ok(['svc_dsc_', 'svc_'].includes(k.keyPrefix), k.keyPrefix);
    assert.match(k.fingerprint, /^[0-9a-f]{10}$/);
    const { createHash } = await import('node:crypto');
    const listed = k.kind === 'admin' ? adminKey : assistant;
    assert.equal(k.fingerprint, createHash('sha256').update(listed.key).digest('hex').slice(0, 10));
    assert.ok(['assistant', 'admin'].includes(k.kind));
  }
  assert.ok(!list.text.includes(assistant.key) && !list.text.includes(adminKey.key));
  // Not even a few of the random characters: they would narrow a guess at an admin secret.
  assert.ok(!list.text.includes(adminKey.key.slice(4, 10)) && !list.text.includes(assistant.key.slice(8, 14)));
  const badKind = await admin('POST', `/v1/admin/orgs/${org.orgId}/keys`, { kind: 'root' });
  assertError(badKind, 400, 'invalid_request');
  assert.match(badKind.body.error, /^kind: must be one of assistant, admin/);
});

test('a revoked key stops working on both sides', async () => {
  const t = await tenant();
  await publishFolder(t.domain, t.adminKey);
  assert.equal((await search(t.assistantKey, t.domain)).status, 200);
  assert.equal((await siteInfo(t.adminKey, t.domain)).status, 200);
  assert.equal((await admin('DELETE', `/v1/admin/keys/${t.assistant.keyId}`)).status, 204);
  assert.equal((await admin('DELETE', `/v1/admin/keys/${t.admin.keyId}`)).status, 204);
  assertError(await search(t.assistantKey, t.domain), 401, 'unauthorized');
  assertError(await siteInfo(t.adminKey, t.domain), 401, 'unauthorized');
  assertError(await admin('DELETE', `/v1/admin/keys/${t.admin.keyId}`), 404, 'not_found');
  const list = await admin('GET', `/v1/admin/orgs/${t.org.orgId}/keys`);
  assert.equal(list.body.keys.length, 0);
});

test('an assistant key limited to its sites: another page’s origin is 403 origin_not_allowed, listed ones and callers without Origin pass', async () => {
  const t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey)).status, 200);
  const created = await admin('POST', `/v1/admin/orgs/${t.org.orgId}/keys`, {
    kind: 'assistant',
    allowedOrigins: ['HTTPS://Docs.Example.com/', 'https://*.preview.example.com', 'https://docs.example.com:443'],
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.body.allowedOrigins, ['https://docs.example.com', 'https://*.preview.example.com']);
  secretsSeen.push(created.body.key);
  const from = (origin, key = created.body.key) =>
    call('POST', `/discovery/v1/search/${t.domain}`, { token: key, json: { query: 'rate limits' }, headers: origin ? { origin } : {} });
  for (const origin of ['https://docs.example.com', 'https://pr-7.preview.example.com', undefined]) {
    assert.equal((await from(origin)).status, 200, origin);
  }
  for (const origin of ['https://copycat.example.net', 'http://docs.example.com', 'https://preview.example.com', 'null']) {
    const refused = await from(origin);
    assertError(refused, 403, 'origin_not_allowed');
    assert.ok(refused.body.error.includes(origin), refused.body.error);
    // A page can read why: the refusal carries the CORS headers.
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
  }
  const answer = await call('POST', `/discovery/v2/assistant/${t.domain}/message`, {
    token: created.body.key,
    headers: { origin: 'https://copycat.example.net' },
    json: { messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] },
  });
  assertError(answer, 403, 'origin_not_allowed');
  const listed = (await admin('GET', `/v1/admin/orgs/${t.org.orgId}/keys`)).body.keys;
  assert.deepEqual(Object.fromEntries(listed.map((k) => [k.keyId, k.allowedOrigins])), {
    [t.assistant.keyId]: [],
    [t.admin.keyId]: [],
    [created.body.keyId]: ['https://docs.example.com', 'https://*.preview.example.com'],
  });

  // An existing key gets a list, and loses it again.
  const locked = await admin('PATCH', `/v1/admin/keys/${t.assistant.keyId}`, { allowedOrigins: ['https://docs.example.com'] });
  assert.equal(locked.status, 200, locked.text);
  assert.deepEqual(locked.body.allowedOrigins, ['https://docs.example.com']);
  assert.equal(locked.body.keyId, t.assistant.keyId);
  assertError(await from('https://copycat.example.net', t.assistantKey), 403, 'origin_not_allowed');
  assert.equal((await admin('PATCH', `/v1/admin/keys/${t.assistant.keyId}`, { allowedOrigins: [] })).status, 200);
  assert.equal((await from('https://copycat.example.net', t.assistantKey)).status, 200);

  const bad = await admin('PATCH', `/v1/admin/keys/${t.assistant.keyId}`, { allowedOrigins: ['docs.example.com'] });
  assertError(bad, 400, 'invalid_request');
  assert.match(bad.body.error, /^allowedOrigins\[0\]: must be an origin/);
  assert.match((await admin('PATCH', `/v1/admin/keys/${t.admin.keyId}`, { allowedOrigins: ['https://x.example.com'] })).body.error, /^allowedOrigins: only an assistant key/);
  assert.match((await admin('POST', `/v1/admin/orgs/${t.org.orgId}/keys`, { kind: 'admin', allowedOrigins: ['https://x.example.com'] })).body.error, /^allowedOrigins: only an assistant key/);
  assertError(await admin('PATCH', '/v1/admin/keys/key_0000000000000000', { allowedOrigins: [] }), 404, 'not_found');
});

test('operator API takes only ROOT_TOKEN', async () => {
  const none = await call('GET', `/v1/admin/orgs/${home.org.orgId}/keys`);
  assertError(none, 401, 'unauthorized');
  assert.equal(none.headers.get('www-authenticate'), 'Bearer');
  assertError(await call('GET', `/v1/admin/orgs/${home.org.orgId}/keys`, { token: 'not-the-token' }), 401, 'unauthorized');
  for (const key of [home.adminKey, home.assistantKey]) {
    assertError(await call('GET', `/v1/admin/orgs/${home.org.orgId}/keys`, { token: key }), 401, 'unauthorized');
  }
  assert.equal((await call('GET', `/v1/admin/orgs/${home.org.orgId}/keys`, { token: ROOT_TOKEN })).status, 200);
});

test('key matrix on an assistant endpoint', async () => {
  assert.equal((await search(home.assistantKey)).status, 200);
  const none = await call('POST', `/discovery/v1/search/${home.domain}`, { json: { query: 'x' } });
  assertError(none, 401, 'unauthorized');
  assert.equal(none.headers.get('www-authenticate'), 'Bearer');
  const malformed = await call('POST', `/discovery/v1/search/${home.domain}`, {
    json: { query: 'x' },
    headers: { authorization: `Basic ${home.assistantKey}` },
  });
  assertError(malformed, 401, 'unauthorized');
  assertError(await search('svc_dsc_' + 'a'.repeat(40)), 401, 'unauthorized');
  assertError(await search('garbage'), 401, 'unauthorized');
  assertError(await search(ROOT_TOKEN), 401, 'unauthorized');
  assertError(await search(home.adminKey), 403, 'wrong_key_kind');
  const foreign = await search(other.assistantKey);
  assertError(foreign, 404, 'not_found');
  const unknownDomain = await search(home.assistantKey, 'unknown.example.com');
  assertError(unknownDomain, 404, 'not_found');
  assert.equal(foreign.body.error.replace(home.domain, 'D'), unknownDomain.body.error.replace('unknown.example.com', 'D'));
});

test('key matrix on an admin endpoint', async () => {
  assert.equal((await siteInfo(home.adminKey)).status, 200);
  assertError(await siteInfo(undefined), 401, 'unauthorized');
  assertError(await siteInfo('svc_' + 'b'.repeat(40)), 401, 'unauthorized');
  assertError(await siteInfo(ROOT_TOKEN), 401, 'unauthorized');
  assertError(await siteInfo(home.assistantKey), 403, 'wrong_key_kind');
  assertError(await siteInfo(other.adminKey), 404, 'not_found');
});

test('CORS preflight and headers on assistant endpoints', async () => {
  const preflight = await call('OPTIONS', `/discovery/v1/search/${home.domain}`, {
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  assert.match(preflight.headers.get('access-control-allow-methods'), /POST/);
  assert.match(preflight.headers.get('access-control-allow-methods'), /OPTIONS/);
  assert.match(preflight.headers.get('access-control-allow-headers').toLowerCase(), /authorization/);
  assert.match(preflight.headers.get('access-control-allow-headers').toLowerCase(), /content-type/);
  for (const res of [await search(home.assistantKey), await search('garbage')]) {
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const exposed = res.headers.get('access-control-expose-headers').toLowerCase();
    for (const h of ['x-thread-id', 'x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
      assert.ok(exposed.includes(h), `${h} exposed`);
    }
  }
});

test('no CORS headers on admin, site and operator endpoints', async () => {
  const responses = [
    await siteInfo(home.adminKey),
    await call('GET', `/v1/admin/orgs/${home.org.orgId}/keys`, { token: ROOT_TOKEN }),
    await call('OPTIONS', `/v1/sites/${home.domain}`, { headers: { origin: 'https://evil.example' } }),
    await call('POST', '/v1/static-export/jobs', { token: home.adminKey, json: { domain: home.domain } }),
  ];
  for (const res of responses) {
    for (const [name] of res.headers) assert.ok(!name.startsWith('access-control-'), `${name} must not be sent`);
  }
});

test('successful assistant responses carry rate-limit headers', async () => {
  const res = await search(home.assistantKey);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('ratelimit-limit'), '10000');
  assert.match(res.headers.get('ratelimit-remaining'), /^\d+$/);
  assert.match(res.headers.get('ratelimit-reset'), /^\d+$/);
});

test('no key or token appears in the worker log', async () => {
  await new Promise((r) => setTimeout(r, 300));
  const log = readFileSync(process.env.WORKER_LOG, 'utf8');
  assert.ok(log.includes('"event":"request"'), 'the log has request lines');
  for (const secret of secretsSeen) assert.ok(!log.includes(secret), 'a secret leaked into the log');
});
