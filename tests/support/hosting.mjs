// Reading a hosted site through the worker from this machine, for the hosting tests and the
// benches: a request carries the site's hostname in `Host` (the worker serves a hosted domain by
// it), and a local proxy gives the site a URL that tools which cannot set `Host` (the SDK's publish
// command, docs-edge-serve) can reach. Nothing here imports the API client, so a bench that starts
// its own worker can use it.
import { createServer, request } from 'node:http';

/** GET `path` of the worker at `base` under `host`: `{status, headers, body}` (a Buffer). Each
 * request has a connection of its own: thousands in a row, none on a socket the server may be
 * closing. */
export function underHost(base, host, path) {
  return new Promise((resolve, reject) => {
    request(new URL(path, base), { headers: { host }, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

/** The manifest of the export the site at `host` serves (`{publishId, jobId, …}`); `null` while
 * it serves none. */
export async function servedManifest(base, host) {
  const res = await underHost(base, host, '/_docs-edge/manifest.json');
  return res.status === 200 ? JSON.parse(res.body.toString()) : null;
}

/** A server on this machine passing every request to the worker at `base` with `host` in `Host`:
 * `{url, counted, close}`, `counted` the requests it passed and the bytes it answered. */
export async function siteProxy(base, host) {
  const counted = { bytes: 0, requests: 0 };
  const server = createServer((req, res) => {
    counted.requests += 1;
    const upstream = request(new URL(req.url, base), { method: req.method, headers: { ...req.headers, host } }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.on('data', (c) => { counted.bytes += c.length; });
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, counted, close: () => new Promise((r) => server.close(r)) };
}

/** Polls `check` (async, truthy when done) every `every` ms for up to `ms`: its last value, or,
 * with `what`, an error naming what never came. */
export async function eventually(check, { ms = 120_000, every = 250, what } = {}) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      if (what) throw new Error(`timed out waiting for ${what}`);
      return value;
    }
    await new Promise((r) => setTimeout(r, every));
  }
}
