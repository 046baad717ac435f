#!/usr/bin/env node
// `npm run publish-docs -- <folder> --domain <domain> [--url URL] [--key ADMIN_KEY] [--json] [--no-fetch]`:
// the SDK package's `docs-edge publish` command (sdk-wasm/js/publish), run from this repository, with
// the local `npm start` worker as the default URL. The incremental upload sends only the files the
// site lacks; `publishArchive` is the single .tar.gz PUT, kept for the benches and tests that time it.
import { main } from '../sdk-wasm/js/publish/command.js';
import { publishFolder, SiteApi } from '../sdk-wasm/js/publish/index.js';

/** Publishes a folder through the incremental upload; resolves with the live site. */
export async function publishDocs({ folder, baseUrl, adminKey, domain, onProgress, ...options }) {
  const onEvent = (event) => event.phase === 'publish' && onProgress?.(event.status);
  const { site } = await publishFolder({ folder, baseUrl, adminKey, domain, onEvent, ...options });
  return site;
}

/** Uploads a packed docs folder (.tar.gz) and resolves with the live site once its version is live
 * (the benches use it: a publish's time is from the upload to live). */
export async function publishArchive({ baseUrl, adminKey, domain, archive, onProgress, pollMs = 500 }) {
  return new SiteApi({ baseUrl, adminKey, domain, pollMs }).putArchive(archive, onProgress);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2), {
    command: 'npm run publish-docs --',
    defaultUrl: `http://127.0.0.1:${process.env.PORT ?? 8787}`,
  });
}
