// AnalyticsClient: the server-side client of the analytics API (the report and the conversations
// CSV). It takes an admin key, a secret, so it refuses to run in a browser page unless told so.
import { adminHttp, json } from './http.js';

function rangeQuery({ from, to } = {}) {
  const query = new URLSearchParams();
  if (from !== undefined) query.set('from', from);
  if (to !== undefined) query.set('to', to);
  const text = query.toString();
  return text ? `?${text}` : '';
}

export class AnalyticsClient {
  #http;

  /**
   * @param {{baseUrl: string, adminKey: string, allowBrowser?: boolean,
   *   retry?: boolean | {retries?: number, maxDelayMs?: number}, fetch?: typeof fetch}} options
   */
  constructor(options) {
    this.#http = adminHttp('AnalyticsClient', 'analytics', options);
  }

  /** `GET /v1/analytics/{domain}?from=&to=`: the report over UTC days (`YYYY-MM-DD`, both included). */
  async report(domain, { from, to, signal } = {}) {
    const path = `/v1/analytics/${encodeURIComponent(domain)}${rangeQuery({ from, to })}`;
    return json(await this.#http.send('GET', path, { signal }), 'analytics');
  }

  /** `GET /v1/analytics/{domain}/conversations.csv`: the CSV text. */
  async conversationsCsv(domain, { from, to, signal } = {}) {
    const path = `/v1/analytics/${encodeURIComponent(domain)}/conversations.csv${rangeQuery({ from, to })}`;
    const response = await this.#http.send('GET', path, { signal });
    return response.text();
  }
}
