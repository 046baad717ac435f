// A tiny static file server for local pages (the web demo, the browser tests): URL prefixes mapped to
// folders, the content types browsers insist on (application/wasm for streaming compilation), nothing
// outside the mapped folders, and an optional handler for dynamic routes.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
};

/** The file a URL path names under `folder`, or null when it would leave the folder. */
function resolveIn(folder, rest) {
  let relative;
  try {
    relative = normalize(decodeURIComponent(rest)).replace(/^([/\\])+/, '');
  } catch {
    return null;
  }
  const file = join(folder, relative);
  return file === folder || file.startsWith(folder + sep) ? file : null;
}

/**
 * @param {{mounts: Record<string, string>, handle?: (req, res, url: URL) => Promise<boolean> | boolean,
 *   port?: number, host?: string}} options  `mounts`: URL prefix (ending in `/`) to folder
 * @returns {Promise<{url: string, close: () => Promise<void>}>}
 */
export async function startStaticServer({ mounts, handle, port = 0, host = '127.0.0.1' }) {
  const folders = Object.fromEntries(Object.entries(mounts).map(([prefix, folder]) => [prefix, resolve(folder)]));
  const prefixes = Object.keys(folders).sort((a, b) => b.length - a.length);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    try {
      if (handle && (await handle(req, res, url))) return;
      const prefix = prefixes.find((p) => url.pathname.startsWith(p));
      let file = prefix && resolveIn(folders[prefix], url.pathname.slice(prefix.length));
      if (file && (await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      if (!file || req.method !== 'GET' || !(await stat(file).catch(() => null))?.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not found');
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(await readFile(file));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`server error: ${err.message}`);
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    url: `http://${host}:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
