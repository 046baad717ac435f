// The web demo's dev server. At `/`: the demo docs site as a reader meets it, a static export of the
// published demo docs made by the running worker with the assistant widget on every page (asking the
// worker), unpacked here and served with the extensionless URLs and the Content-Security-Policy of its
// manifest, as a static host serves a bundle. At `/tools/`: web-demo/, the developer page (SDK chat,
// analytics, export) on the built SDK package (/sdk/). It tells that page where the service is and
// its public assistant key (/demo-api/config), and proxies static export calls (/demo-api/export/...)
// and analytics reads (/demo-api/analytics...) through the SDK's StaticExportClient and
// AnalyticsClient, adding the demo organization's admin key here, server-side: the secret never
// reaches the browser. Dev only: no auth of its own.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { root } from './env.mjs';
import { scratchDir } from './scratch.mjs';
import { startStaticServer } from './static-server.mjs';
import { sdkPkg } from '../build-sdk.mjs';

/** Exports the demo docs with the widget (asking `workerUrl`) and unpacks the bundle; returns its folder. */
async function exportDemoSite(exports, workerUrl, demo) {
  const started = await exports.start(demo.domain, { assistant: { apiBase: workerUrl, key: demo.assistantKey } });
  const job = await exports.waitForCompletion(started.jobId, { intervalMs: 300 });
  const link = await exports.bundle(job.jobId);
  const response = await fetch(link.bundleUrl);
  if (!response.ok) throw new Error(`the demo bundle download answered ${response.status}`);
  const dir = scratchDir('docs-edge-demo-site-');
  const archive = join(scratchDir('docs-edge-demo-archive-'), 'bundle.tar.gz');
  writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
  const tar = spawnSync('tar', ['-xzf', archive, '-C', dir], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar could not unpack the demo bundle: ${tar.stderr}`);
  return dir;
}

/** A file of the bundle for `pathname` as a static host finds it (`/a` → `a.html`, `/` → `index.html`). */
function bundleFile(dir, pathname) {
  let relative;
  try {
    relative = normalize(decodeURIComponent(pathname)).replace(/^\/+/, '');
  } catch {
    return null;
  }
  if (relative.startsWith('..')) return null;
  const isFile = (p) => existsSync(p) && statSync(p).isFile();
  for (const candidate of [relative, `${relative}.html`, join(relative, 'index.html')]) {
    if (isFile(join(dir, candidate))) return candidate;
  }
  return null;
}

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
  const site = await exportDemoSite(exports, workerUrl, demo);
  const policy = JSON.parse(readFileSync(join(site, '_docs-edge', 'manifest.json'), 'utf8')).contentSecurityPolicy;
  async function handle(req, res, url) {
    if (url.pathname === '/tools') {
      res.writeHead(301, { location: '/tools/' });
      res.end();
      return true;
    }
    if (!url.pathname.startsWith('/demo-api/')) {
      if (url.pathname.startsWith('/tools/') || url.pathname.startsWith('/sdk/')) return false;
      const file = bundleFile(site, url.pathname);
      if (file && !file.endsWith('.html')) return false; // the mount below, with its content types
      res.writeHead(file ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy, 'cache-control': 'no-store' });
      res.end(readFileSync(join(site, file ?? '404.html')));
      return true;
    }
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
  return startStaticServer({ mounts: { '/sdk/': sdkPkg, '/tools/': join(root, 'web-demo'), '/': site }, handle, port });
}
