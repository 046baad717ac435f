#!/usr/bin/env node
// `npm run publish-docs -- <folder> --domain <domain> [--url URL] [--key ADMIN_KEY]`
// Packs the docs folder and uploads it, then waits until the new version is live: a large site
// answers 202 and is built in the background, so this polls its status resource and reports
// progress (`onProgress`, on stderr from the command line). URL from --url or DOCS_EDGE_URL
// (default http://127.0.0.1:8787); the admin key from --key or DOCS_EDGE_ADMIN_KEY.
import { packDocsFolder } from './lib/pack.mjs';

function failure(res, body) {
  const err = new Error(`publish failed: ${res.status} ${body?.error ?? ''}`);
  err.status = res.status;
  return err;
}

export async function publishDocs({ folder, ...options }) {
  return publishArchive({ ...options, archive: packDocsFolder(folder) });
}

/** Uploads a packed docs folder and resolves with the live site once its version is live (the
 * benches use it too: a publish's time is from the upload to live). */
export async function publishArchive({ baseUrl, adminKey, domain, archive, onProgress = () => {}, pollMs = 500 }) {
  const base = baseUrl.replace(/\/$/, '');
  const site = `${base}/v1/sites/${encodeURIComponent(domain)}`;
  const headers = { authorization: `Bearer ${adminKey}` };
  const res = await fetch(`${site}/content`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/gzip' }, body: archive });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw failure(res, body);
  if (res.status !== 202) return body;
  const statusUrl = `${base}${res.headers.get('location')}`;
  for (;;) {
    await new Promise((r) => setTimeout(r, pollMs));
    const poll = await fetch(statusUrl, { headers });
    const status = await poll.json().catch(() => null);
    if (!poll.ok) throw failure(poll, status);
    onProgress(status);
    if (status.status === 'failed') throw Object.assign(new Error(`publish failed: ${status.error ?? 'unknown error'}`), { status: 400 });
    if (status.status === 'live') break;
  }
  const live = await fetch(site, { headers });
  const published = await live.json().catch(() => null);
  if (!live.ok) throw failure(live, published);
  return published;
}

function option(args, name) {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  return args.splice(at, 2)[1];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const domain = option(args, '--domain');
  const baseUrl = option(args, '--url') ?? process.env.DOCS_EDGE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  const adminKey = option(args, '--key') ?? process.env.DOCS_EDGE_ADMIN_KEY;
  const [folder] = args;
  if (!folder || !domain || !adminKey) {
    console.error('usage: npm run publish-docs -- <folder> --domain <domain> [--url URL] [--key ADMIN_KEY]\n(the key may also come from DOCS_EDGE_ADMIN_KEY)');
    process.exit(2);
  }
  const onProgress = (s) => console.error(`${s.status} ${Math.round(s.progress * 100)}%${s.pageCount ? ` (${s.pageCount} pages)` : ''}`);
  publishDocs({ baseUrl, adminKey, domain, folder, onProgress }).then(
    (site) => console.log(JSON.stringify(site, null, 2)),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
