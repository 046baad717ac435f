// The publish endpoints of one site, as the owner's client calls them: which files the site lacks,
// upload one file, commit a manifest, the .tar.gz PUT, and following a publish until it is live.
// Every request body goes through one counting fetch, so `bytesSent` is what the client sent (retries
// included). Transient failures (network errors, 429, 5xx) are retried with backoff.
import { gzipSync } from 'node:zlib';
import { DocsEdgeError } from '../errors.js';
import { Http, json, sleep } from '../http.js';

const byteLength = (body) => (body === undefined || body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

const gzipJson = (value) => gzipSync(JSON.stringify(value), { level: 9 });
const GZIP_JSON = { 'content-type': 'application/json', 'content-encoding': 'gzip' };

/** The first status poll's wait; each next one waits half as long again, up to `pollMs`. */
const FIRST_POLL_MS = 100;

const transient = (err) => err.status >= 500 || err.status === 429 || err.code === 'network_error';

export class SiteApi {
  /**
   * @param {{baseUrl: string, adminKey: string, domain: string, fetch?: typeof fetch, retries?: number,
   *   retryDelayMs?: number, pollMs?: number}} options
   */
  constructor({ baseUrl, adminKey, domain, fetch = globalThis.fetch, retries = 3, retryDelayMs = 500, pollMs = 500 }) {
    if (!adminKey) throw new DocsEdgeError('an admin key is required (a secret svc_ key)', { code: 'invalid_options' });
    this.bytesSent = 0;
    this.retries = retries;
    this.retryDelayMs = retryDelayMs;
    this.pollMs = pollMs;
    const counting = (url, init) => {
      this.bytesSent += byteLength(init?.body);
      return fetch(url, init);
    };
    this.http = new Http({ baseUrl, token: adminKey, fetch: counting });
    this.site = `/v1/sites/${encodeURIComponent(domain)}`;
  }

  async #send(method, path, options) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.http.send(method, path, options);
      } catch (err) {
        if (err.code === 'network_error' && attempt >= this.retries) {
          const cause = err.cause?.cause?.code ?? err.cause?.cause?.message;
          err.message = `cannot reach ${this.http.baseUrl}${cause ? ` (${cause})` : ''}: ${method} ${path}`;
        }
        if (!transient(err) || attempt >= this.retries) throw err;
        const backoff = this.retryDelayMs * 2 ** attempt * (0.75 + Math.random() / 2);
        await sleep(Math.max(backoff, (err.retryAfter ?? 0) * 1000));
      }
    }
  }

  /**
   * The live version's files (`{path: hash}`), or `{}` when nothing published file by file is live:
   * what the site surely holds, so only other hashes need asking about.
   */
  async liveManifest() {
    try {
      return (await json(await this.#send('GET', `${this.site}/manifest`))).files ?? {};
    } catch (err) {
      if (err.status === 404) return {};
      throw err;
    }
  }

  /** The hashes among `hashes` the site does not hold. */
  async missing(hashes) {
    try {
      const res = await this.#send('POST', `${this.site}/files/missing`, { body: gzipJson({ hashes }), headers: GZIP_JSON });
      return (await json(res)).missing;
    } catch (err) {
      if (err.code === 'route_not_found') {
        err.message = `${this.http.baseUrl} has no incremental upload (POST ${this.site}/files/missing: ${err.message}); ` +
          'update the server, or publish a .tar.gz with PUT /content';
      }
      throw err;
    }
  }

  /** Stores one file under its hash (the server checks the hash). */
  async upload(hash, bytes) {
    const res = await this.#send('PUT', `${this.site}/files/${hash}`, {
      body: bytes, headers: { 'content-type': 'application/octet-stream' },
    });
    return json(res);
  }

  /**
   * Commits a manifest (`{path: hash}`) and resolves with the live site (with `preview`, a preview's
   * label: the version it built, with `previewUrl`; the live one is unchanged). A manifest
   * naming a file the site lacks rejects with code `missing_files` and `err.missing` (the paths).
   */
  async commit(files, onProgress, preview) {
    try {
      const body = gzipJson(preview ? { files, preview } : { files });
      const res = await this.#send('POST', `${this.site}/publishes`, { body, headers: GZIP_JSON });
      return this.#untilLive(res, onProgress);
    } catch (err) {
      if (err.code === 'missing_files') err.missing = err.details?.missing ?? [];
      throw err;
    }
  }

  /** The single-request publish: PUT a .tar.gz of the whole folder. */
  async putArchive(archive, onProgress) {
    const res = await this.#send('PUT', `${this.site}/content`, { body: archive, headers: { 'content-type': 'application/gzip' } });
    return this.#untilLive(res, onProgress);
  }

  /** A 200 is the live site; a 202 is followed to its status resource until live, then the site is
   * read (a preview's status resource, once built: the live site is another version). */
  async #untilLive(res, onProgress) {
    const body = await json(res);
    if (res.status !== 202) return body;
    const location = res.headers.get('location') ?? `${this.site}/publishes/${body.publishId}`;
    let status = body;
    onProgress?.(status);
    // Often at first (a re-publish is live within seconds), then every `pollMs`.
    let wait = Math.min(FIRST_POLL_MS, this.pollMs);
    while (status.status !== 'live') {
      if (status.status === 'failed') {
        throw new DocsEdgeError(`publish failed: ${status.error ?? 'unknown error'}`, { status: 400, code: 'publish_failed' });
      }
      await sleep(wait);
      wait = Math.min(wait * 1.5, this.pollMs);
      status = await json(await this.#send('GET', location));
      onProgress?.(status);
    }
    if (status.previewUrl) return { domain: status.domain, pageCount: status.pageCount, warnings: [], previewUrl: status.previewUrl };
    return json(await this.#send('GET', this.site));
  }
}
