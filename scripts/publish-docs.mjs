#!/usr/bin/env node
// `npm run publish-docs -- <folder> --domain <domain> [--url URL] [--key ADMIN_KEY]`
// Packs the docs folder and uploads it. URL from --url or DOCS_EDGE_URL (default http://127.0.0.1:8787);
// the admin key from --key or DOCS_EDGE_ADMIN_KEY.
import { packDocsFolder } from './lib/pack.mjs';

export async function publishDocs({ baseUrl, adminKey, domain, folder }) {
  const archive = packDocsFolder(folder);
  const res = await fetch(`${baseUrl.replace(/\/$/, '')}/v1/sites/${encodeURIComponent(domain)}/content`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/gzip' },
    body: archive,
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const err = new Error(`publish failed: ${res.status} ${body?.error ?? ''}`);
    err.status = res.status;
    throw err;
  }
  return body;
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
  publishDocs({ baseUrl, adminKey, domain, folder }).then(
    (site) => console.log(JSON.stringify(site, null, 2)),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
