// The web demo's dev server: serves web-demo/ and the built SDK package (/sdk/), tells the page where
// the service is and its public assistant key (/demo-api/config), and proxies static export calls
// (/demo-api/export/...) and analytics reads (/demo-api/analytics...) through the SDK's StaticExportClient
// and AnalyticsClient, adding the demo organization's admin key here, server-side: the secret never
// reaches the browser. Dev only: no auth of its own.
import { join } from 'node:path';
import { root } from './env.mjs';
import { startStaticServer } from './static-server.mjs';
import { sdkPkg } from '../build-sdk.mjs';

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * @param {{workerUrl: string, demo: {domain: string, assistantKey: string, adminKey: string}, port?: number}} options
 */
export async function startDemoServer({ workerUrl, demo, port = 0 }) {
  const { StaticExportClient, AnalyticsClient } = await import(join(sdkPkg, 'node.js'));
  const exports = new StaticExportClient({ baseUrl: workerUrl, adminKey: demo.adminKey });
  const analytics = new AnalyticsClient({ baseUrl: workerUrl, adminKey: demo.adminKey });
  const range = (url) => ({ from: url.searchParams.get('from') ?? undefined, to: url.searchParams.get('to') ?? undefined });
  const routes = [
    ['GET', /^\/demo-api\/config$/, () => ({ baseUrl: workerUrl, domain: demo.domain, assistantKey: demo.assistantKey })],
    // Always the demo domain: the page cannot pick another one for the admin key to export.
    ['POST', /^\/demo-api\/export\/jobs$/, () => exports.start(demo.domain), 202],
    ['GET', /^\/demo-api\/export\/jobs\/([\w-]+)$/, (id) => exports.status(id)],
    ['POST', /^\/demo-api\/export\/jobs\/([\w-]+)\/bundle$/, (id) => exports.bundle(id)],
    ['GET', /^\/demo-api\/analytics$/, (url) => analytics.report(demo.domain, range(url))],
  ];
  async function handle(req, res, url) {
    if (!url.pathname.startsWith('/demo-api/')) return false;
    if (req.method === 'GET' && url.pathname === '/demo-api/analytics/conversations.csv') {
      try {
        const csv = await analytics.conversationsCsv(demo.domain, range(url));
        res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="conversations.csv"' });
        res.end(csv);
      } catch (err) {
        sendJson(res, err.status || 502, { error: err.message, code: err.code ?? 'proxy_error' });
      }
      return true;
    }
    for (const [method, pattern, run, status = 200] of routes) {
      const match = url.pathname.match(pattern);
      if (!match || req.method !== method) continue;
      try {
        sendJson(res, status, await run(...match.slice(1), url));
      } catch (err) {
        // The service's own status and code, so the page can show what happened.
        sendJson(res, err.status || 502, { error: err.message, code: err.code ?? 'proxy_error' });
      }
      return true;
    }
    sendJson(res, 404, { error: `no demo route ${req.method} ${url.pathname}`, code: 'route_not_found' });
    return true;
  }
  return startStaticServer({ mounts: { '/sdk/': sdkPkg, '/': join(root, 'web-demo') }, handle, port });
}
