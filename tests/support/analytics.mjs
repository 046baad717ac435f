// The analytics report, polled: rows are written after the responses that caused them, so tests wait
// until `ready(report)` holds (their own timeout bounds the wait).
import assert from 'node:assert/strict';
import { call } from './api.mjs';

export async function reportWhen(domain, adminKey, ready, query = '', base = undefined) {
  for (;;) {
    const res = await call('GET', `/v1/analytics/${domain}${query}`, { token: adminKey, base });
    assert.equal(res.status, 200, res.text);
    if (ready(res.body)) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
}
