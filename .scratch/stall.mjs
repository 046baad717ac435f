import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { OperatorClient } from '../scripts/lib/operator.mjs';
import { packDocsFolder } from '../scripts/lib/pack.mjs';
const analytics = process.argv[2] ?? 'true';
const state = mkdtempSync(join(tmpdir(), 'stall-'));
const worker = await startWorker({ persistTo: state, logFile: `/tmp/stall-${analytics}.log`, vars: { ROOT_TOKEN: 'r'.repeat(32), LINK_SIGNING_KEY: 'x'.repeat(32), FEATURE_ANALYTICS: analytics, ANALYTICS_SALT: 's' } });
const op = new OperatorClient(worker.baseUrl, 'r'.repeat(32));
const org = await op.createOrg('b', 'enterprise');
await op.addDomain(org.orgId, 'b.example.com');
const adminKey = (await op.createKey(org.orgId, 'admin')).key;
const key = (await op.createKey(org.orgId, 'assistant')).key;
await fetch(`${worker.baseUrl}/v1/sites/b.example.com/content`, { method: 'PUT', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/gzip' }, body: packDocsFolder('/work/wt/shared/fixtures/mintlify-docs') });
const slow = [];
async function ask(client, i) {
  const t0 = performance.now();
  const res = await fetch(`${worker.baseUrl}/discovery/v1/assistant/b.example.com/message`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${client + 1}` },
    body: JSON.stringify({ fp: 'x', messages: [{ id: 'm', role: 'user', content: `How do I set up a custom domain ${i}?`, parts: [{ type: 'text', text: `How do I set up a custom domain ${i}?` }] }] }) });
  const headers = performance.now() - t0;
  await res.text();
  const total = performance.now() - t0;
  if (total > 5000) slow.push({ id: res.headers.get('x-request-id'), headers, total });
}
const t0 = performance.now();
await Promise.all(Array.from({ length: 16 }, async (_, c) => { for (let i = 0; i < 20; i++) await ask(c, i); }));
console.log(analytics, 'elapsed', performance.now() - t0, 'slow', JSON.stringify(slow));
await worker.stop();
