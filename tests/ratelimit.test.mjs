// Rate limits with the limits lowered through configuration (`--var`), on a worker of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { call, assertError, ROOT_TOKEN, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const ORG_LIMIT = 8;
const IP_LIMIT = 3;
let worker;
let state;

before(async () => {
  state = scratchDir('docs-edge-rl-');
  worker = await startWorker({
    persistTo: state,
    vars: { ROOT_TOKEN, RATE_LIMIT_ORG_PER_HOUR: String(ORG_LIMIT), RATE_LIMIT_IP_PER_DAY: String(IP_LIMIT) },
  });
});

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

function searchFrom(t, ip) {
  return call('POST', `/discovery/v1/search/${t.domain}`, {
    base: worker.baseUrl,
    token: t.assistantKey,
    json: { query: 'rate limits' },
    headers: { 'cf-connecting-ip': ip },
  });
}

test('the IP limit counts per IP, counts down, then answers 429 with Retry-After', async () => {
  const t = await tenant({ base: worker.baseUrl });
  assert.equal((await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl })).status, 200);
  const remaining = [];
  for (let i = 0; i < IP_LIMIT; i++) {
    const res = await searchFrom(t, '203.0.113.7');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('ratelimit-limit'), String(IP_LIMIT));
    remaining.push(Number(res.headers.get('ratelimit-remaining')));
  }
  assert.deepEqual(remaining, [2, 1, 0]);
  const refused = await searchFrom(t, '203.0.113.7');
  assertError(refused, 429, 'rate_limited');
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert.ok(retryAfter > 0 && retryAfter <= 86400, `Retry-After ${retryAfter}`);
  assert.equal(refused.headers.get('ratelimit-remaining'), '0');
  assert.equal(refused.headers.get('access-control-allow-origin'), '*');
  // Another IP of the same organization still has its own allowance.
  const otherIp = await searchFrom(t, '203.0.113.8');
  assert.equal(otherIp.status, 200, otherIp.text);
});

test('the organization limit applies across IPs', async () => {
  const t = await tenant({ base: worker.baseUrl });
  assert.equal((await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl })).status, 200);
  let served = 0;
  let last;
  for (let i = 0; i < ORG_LIMIT + 1; i++) {
    // A fresh IP each time, so only the organization limit can refuse.
    last = await searchFrom(t, `198.51.100.${i + 1}`);
    if (last.status === 200) served++;
  }
  assert.equal(served, ORG_LIMIT);
  assertError(last, 429, 'rate_limited');
  assert.match(last.body.error, /organization/);
  assert.ok(Number(last.headers.get('retry-after')) <= 3600);
});

test('requests one IP has past its limit do not drain its organization', async () => {
  const t = await tenant({ base: worker.baseUrl });
  assert.equal((await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl })).status, 200);
  for (let i = 0; i < IP_LIMIT + 6; i++) await searchFrom(t, '192.0.2.50');
  let served = 0;
  for (let i = 0; i < ORG_LIMIT - IP_LIMIT; i++) {
    const res = await searchFrom(t, `192.0.2.${100 + i}`);
    assert.equal(res.status, 200, `request ${i} from a fresh IP: ${res.text}`);
    served++;
  }
  assert.equal(served, ORG_LIMIT - IP_LIMIT);
});

test('IPv6 clients count by their /64', async () => {
  const t = await tenant({ base: worker.baseUrl });
  assert.equal((await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl })).status, 200);
  for (let i = 0; i < IP_LIMIT; i++) {
    assert.equal((await searchFrom(t, `2001:db8:7:7::${i + 1}`)).status, 200);
  }
  const sameNetwork = await searchFrom(t, '2001:db8:7:7:abcd::99');
  assertError(sameNetwork, 429, 'rate_limited');
  assert.match(sameNetwork.body.error, /client IP/);
  assert.equal((await searchFrom(t, '2001:db8:7:8::1')).status, 200);
});

test('the beacon endpoint is limited per IP with counters of its own, apart from the assistant\'s', async () => {
  const t = await tenant({ base: worker.baseUrl });
  assert.equal((await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl })).status, 200);
  const beaconFrom = (ip) => call('POST', `/discovery/v1/analytics/${t.domain}/events`, {
    base: worker.baseUrl,
    body: JSON.stringify({ events: [{ type: 'pageview', path: '/' }] }),
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'cf-connecting-ip': ip },
  });
  const remaining = [];
  for (let i = 0; i < IP_LIMIT; i++) {
    const res = await beaconFrom('203.0.113.90');
    assert.ok(res.status < 300, `beacon ${i}: ${res.status} ${res.text}`);
    remaining.push(Number(res.headers.get('ratelimit-remaining')));
  }
  assert.deepEqual(remaining, [2, 1, 0]);
  const refused = await beaconFrom('203.0.113.90');
  assertError(refused, 429, 'rate_limited');
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  // The beacons used up only their own bucket: the same IP still has its search allowance.
  assert.equal((await searchFrom(t, '203.0.113.90')).status, 200);
});
