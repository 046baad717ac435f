#!/usr/bin/env node
// `npm start`: bootstrap, build, secrets in .dev.vars (created once), `wrangler dev` on 127.0.0.1:8787
// (PORT overrides) with local KV, R2 and Durable Objects persisted under .wrangler/, a demo organization
// seeded idempotently, this documentation (docs/) published to it, the web demo on 127.0.0.1:8788
// (DEMO_PORT overrides: docs/ exported with the assistant widget, and the developer tools page), and
// what to try printed.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap } from './lib/bootstrap.mjs';
import { root } from './lib/env.mjs';
import { ensureDevVars } from './lib/dev-vars.mjs';
import { OperatorClient } from './lib/operator.mjs';
import { startWorker } from './lib/worker-process.mjs';
import { buildWorker } from './build-worker.mjs';
import { seedDemoDocs } from './lib/demo-docs.mjs';
import { buildSdk } from './build-sdk.mjs';
import { startDemoServer } from './lib/demo-server.mjs';

const DEMO_DOMAIN = 'demo.docs-edge.local';
const demoFile = join(root, '.wrangler', 'demo.json');

/** The demo organization, its domain and one key of each kind; reuses what an earlier start made. */
async function seedDemo(client) {
  if (existsSync(demoFile)) {
    const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
    try {
      const { keys } = await client.listKeys(demo.orgId);
      const ids = new Set(keys.map((k) => k.keyId));
      if (ids.has(demo.assistantKeyId) && ids.has(demo.adminKeyId)) return demo;
    } catch {
      // the state folder was wiped: seed again
    }
  }
  const org = await client.createOrg('Demo organization', 'enterprise');
  await client.addDomain(org.orgId, DEMO_DOMAIN);
  const assistant = await client.createKey(org.orgId, 'assistant', 'demo browser key');
  const admin = await client.createKey(org.orgId, 'admin', 'demo server key');
  const demo = {
    orgId: org.orgId,
    domain: DEMO_DOMAIN,
    assistantKey: assistant.key,
    assistantKeyId: assistant.keyId,
    adminKey: admin.key,
    adminKeyId: admin.keyId,
  };
  mkdirSync(join(root, '.wrangler'), { recursive: true });
  writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

async function main() {
  bootstrap();
  buildWorker();
  await buildSdk();
  const { vars, created } = ensureDevVars(join(root, '.dev.vars'));
  if (created) console.log('[start] wrote .dev.vars with fresh ROOT_TOKEN and LINK_SIGNING_KEY');
  const port = Number(process.env.PORT ?? 8787);
  const worker = await startWorker({ port, persistTo: join(root, '.wrangler', 'state'), inherit: true });
  const client = new OperatorClient(worker.baseUrl, vars.ROOT_TOKEN);
  const demo = await seedDemo(client);
  const site = await seedDemoDocs(worker.baseUrl, demo);
  const base = worker.baseUrl;
  const web = await startDemoServer({ workerUrl: base, demo, port: Number(process.env.DEMO_PORT ?? 8788) });
  console.log(`
docs-edge is running at ${base}
Web demo: ${web.url}/ is the demo docs site (a static export made by this worker) with the assistant
  widget on every page (Ctrl+I or "Ask AI"); ${web.url}/tools/ has the SDK chat, analytics and export.

  Demo organization ${demo.orgId} (enterprise), domain ${demo.domain}${site ? ` (${site.pageCount} pages published)` : ''}
  Assistant key (public, browser-safe): ${demo.assistantKey}
  Admin key (secret, server-side):      ${demo.adminKey}
  Operator token: ROOT_TOKEN in .dev.vars

Try:
  curl ${base}/health
  curl -X POST ${base}/discovery/v1/search/${demo.domain} -H 'Authorization: Bearer ${demo.assistantKey}' -H 'Content-Type: application/json' -d '{"query":"rate limits"}'
  npm run admin -- list-keys ${demo.orgId}

Stop with Ctrl+C. State persists in .wrangler/state.`);
  const stop = () => Promise.all([worker.stop(), web.close()]).then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise((resolve) => worker.child.on('exit', resolve));
}

main().catch((err) => {
  console.error(err.stack || err.message);
  process.exit(1);
});
