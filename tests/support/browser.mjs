// Headless Debian Chromium through playwright-core (no browser download: `npx playwright install` cannot
// work here), with a fresh profile per launch; and a plain static file server for folders such as an
// unpacked export bundle.
import { createServer } from 'node:http';
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../../scripts/lib/env.mjs';
import { scratchDir } from '../../scripts/lib/scratch.mjs';

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A browser context on a throwaway profile; `close()` removes the profile too. */
export async function launchBrowser() {
  const profile = scratchDir('docs-edge-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
    viewport: { width: 1100, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Fails the test with the page's own errors rather than a timeout. */
export function collectPageErrors(page) {
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return errors;
}

/** A plain browser (not a persistent context) for tests that make their own contexts; `args`: more
 * command-line switches (`--host-resolver-rules=…` to reach a hostname on this machine). */
export async function launchChromium(args = []) {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...ARGS, ...args] });
}

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.ico': 'image/x-icon', '.txt': 'text/plain',
  '.xml': 'application/xml', '.wasm': 'application/wasm', '.woff2': 'font/woff2',
};

/** Serves `dir` as any static host would: files as they are, `/` as index.html, 404.html for misses. */
export async function serveFolder(dir) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir)) return res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      const missing = join(dir, '404.html');
      res.writeHead(404, { 'content-type': TYPES['.html'] });
      return existsSync(missing) ? createReadStream(missing).pipe(res) : res.end('not found');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}
