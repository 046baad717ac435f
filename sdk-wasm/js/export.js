// StaticExportClient: the server-side client of the static export API. It takes an admin key, a
// secret, so it refuses to run in a browser page unless told so explicitly.
import { DocsEdgeError } from './errors.js';
import { adminHttp, body, json, sleep } from './http.js';

export class StaticExportClient {
  #http;

  /**
   * @param {{baseUrl: string, adminKey: string, allowBrowser?: boolean,
   *   retry?: boolean | {retries?: number, maxDelayMs?: number}, fetch?: typeof fetch}} options
   */
  constructor(options) {
    this.#http = adminHttp('StaticExportClient', 'export', options);
  }

  /**
   * Starts an export of `domain`; resolves to the job (`status` `queued` at first). `analytics: true`
   * puts the web analytics beacon in the pages (none by default); `assistant` (`{apiBase, key}`) puts
   * the assistant widget on every page.
   */
  async start(domain, { version, paths, markdown, analytics, assistant, signal } = {}) {
    const payload = body('export', { domain, version, paths, markdown, analytics, assistant });
    return json(await this.#http.send('POST', '/v1/static-export/jobs', { body: payload, signal }), 'export-job');
  }

  async status(jobId, { signal } = {}) {
    return json(await this.#http.send('GET', `/v1/static-export/jobs/${encodeURIComponent(jobId)}`, { signal }), 'export-job');
  }

  /**
   * Polls until the job completes (resolves to it) or fails (rejects with code `export_failed`).
   * `onProgress(job)` sees every status read, the last one included.
   */
  async waitForCompletion(jobId, { onProgress, intervalMs = 1000, signal } = {}) {
    while (true) {
      const job = await this.status(jobId, { signal });
      onProgress?.(job);
      if (job.status === 'completed') return job;
      if (job.status === 'failed' || job.status === 'cancelled') {
        throw new DocsEdgeError(job.error || `export job ${jobId} ${job.status}`, { status: 200, code: 'export_failed' });
      }
      await sleep(intervalMs, signal);
    }
  }

  /** A fresh download link of a completed job's archive: `{jobId, bundleUrl, sizeBytes, expiresAt}`. */
  async bundle(jobId, { signal } = {}) {
    const path = `/v1/static-export/jobs/${encodeURIComponent(jobId)}/bundle`;
    return json(await this.#http.send('POST', path, { signal }), 'bundle');
  }
}
