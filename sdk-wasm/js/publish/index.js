// Publishing a docs folder incrementally, as Cloudflare Pages' direct upload does: hash every file,
// ask the site which hashes it lacks, upload those, commit the manifest (path → hash), wait until the
// version is live. Only new content crosses the network; the switch to the new version is the
// server's single commit.
import { readFile } from 'node:fs/promises';
import { SiteApi } from './api.js';
import { hashBytes, hashFile } from './hash.js';
import { HashCache } from './hash-cache.js';
import { mapLimit } from './pool.js';
import { fetchRemote, findRemoteRefs, imageUrls, isPage } from './remote.js';
import { walkDocsFolder } from './walk.js';

export { walkDocsFolder, WalkError, MAX_FILE_BYTES, DEFAULT_IGNORES } from './walk.js';
export { SiteApi } from './api.js';

const HASH_CONCURRENCY = 8;

/**
 * Publishes `folder` to `domain` (a preview when `preview` names its label: the live version stays)
 * and resolves once the new version is live (a preview: built):
 * `{site, warnings, bytesSent, filesUploaded, filesTotal, durationMs}`. `warnings` are the client's
 * (walk, remote fetches) followed by the server's (`site.warnings`). `onEvent` sees progress:
 * `{phase: 'hash', done, total}`, `{phase: 'upload', files, totalFiles, bytes, totalBytes}`,
 * `{phase: 'publish', status}` (a PublishStatus while the server builds).
 * `fetch` is for the server, `remoteFetch` for remote dependencies. What the site holds is what the
 * live version's manifest says; what the folder's files were at the last publish (their hashes, by
 * size and modification time) is kept in `hashCacheDir` (`hash-cache.js`; `false`: nothing kept).
 */
export async function publishFolder({
  folder, baseUrl, adminKey, domain, preview, noFetch = false, concurrency = 6, onEvent = () => {},
  fetch = globalThis.fetch, remoteFetch = globalThis.fetch, retryDelayMs, pollMs, hashCacheDir,
}) {
  const started = Date.now();
  const walked = walkDocsFolder(folder);
  const cache = hashCacheDir === false ? null : new HashCache(walked.root, { dir: hashCacheDir, walkedAt: started });
  const api = new SiteApi({ baseUrl, adminKey, domain, fetch, retryDelayMs, pollMs });

  let hashed = 0;
  await mapLimit(walked.files, HASH_CONCURRENCY, async (entry) => {
    Object.assign(entry, cache?.get(entry) ?? (await readHash(entry)));
    onEvent({ phase: 'hash', done: ++hashed, total: walked.files.length });
  });
  cache?.save(walked.files);
  const remote = await fetchRemote(findRemoteRefs(walked, (file) => file.images), { noFetch, fetch: remoteFetch, concurrency });
  for (const entry of remote.files) entry.hash = hashBytes(entry.bytes);
  const entries = [...walked.files, ...remote.files].sort((a, b) => (a.path < b.path ? -1 : 1));
  const manifest = Object.fromEntries(entries.map((e) => [e.path, e.hash]));
  const byHash = new Map();
  for (const entry of entries) if (!byHash.has(entry.hash)) byHash.set(entry.hash, entry);

  const held = new Set(Object.values(await api.liveManifest()));
  const unknown = [...byHash.keys()].filter((h) => !held.has(h));
  const missing = unknown.length > 0 ? await api.missing(unknown) : [];
  const uploader = new Uploader(api, concurrency, onEvent);
  await uploader.upload(missing.map((h) => byHash.get(h)).filter(Boolean));

  const onStatus = (status) => onEvent({ phase: 'publish', status });
  let site;
  try {
    site = await api.commit(manifest, onStatus, preview);
  } catch (err) {
    // The site lost files the live manifest named (another publish replaced it meanwhile and the
    // sweep ran): upload what it names, once.
    if (err.code !== 'missing_files' || !Array.isArray(err.missing)) throw err;
    const named = new Set(err.missing);
    await uploader.upload([...new Map(entries.filter((e) => named.has(e.path)).map((e) => [e.hash, e])).values()]);
    site = await api.commit(manifest, onStatus, preview);
  }
  return {
    site,
    warnings: [...walked.warnings, ...remote.warnings, ...(site.warnings ?? [])],
    bytesSent: api.bytesSent,
    filesUploaded: uploader.files,
    filesTotal: entries.length,
    durationMs: Date.now() - started,
  };
}

/** A walked file's hash and, for a page, the remote images it shows, from one read. */
async function readHash(file) {
  if (!isPage(file.path)) return { hash: await hashFile(file.abs), images: [] };
  const bytes = await readFile(file.abs);
  return { hash: hashBytes(bytes), images: imageUrls(bytes.toString('utf8')) };
}

/** Uploads files a few at a time, reading each only when its turn comes (at most 25 MiB each). */
class Uploader {
  constructor(api, concurrency, onEvent) {
    Object.assign(this, { api, concurrency, onEvent, files: 0 });
  }

  async upload(entries) {
    const totalBytes = entries.reduce((n, e) => n + e.size, 0);
    let bytes = 0;
    let files = 0;
    this.onEvent({ phase: 'upload', files, totalFiles: entries.length, bytes, totalBytes });
    await mapLimit(entries, this.concurrency, async (entry) => {
      const body = entry.bytes ?? (await readFile(entry.abs));
      try {
        await this.api.upload(entry.hash, body);
      } catch (err) {
        if (err.code === 'hash_mismatch') err.message = `${entry.path} changed while publishing: run again (${err.message})`;
        else err.message = `uploading ${entry.path}: ${err.message}`;
        throw err;
      }
      this.files++;
      bytes += entry.size;
      this.onEvent({ phase: 'upload', files: ++files, totalFiles: entries.length, bytes, totalBytes });
    });
  }
}
