// One HTTP call of either client: bearer auth, JSON bodies, errors mapped to DocsEdgeError, and the
// optional wait-and-retry of a 429 after its Retry-After. Bodies and responses are not checked against
// the wire types here: the server checks every request and answers 400 naming the field and the rule.
import { DocsEdgeError, transportError } from './errors.js';

/** The JSON type each top-level option must have when given: a wrong one is refused before sending. */
const OPTION_TYPES = {
  fp: 'string', threadId: 'string', currentPath: 'string', query: 'string', path: 'string', domain: 'string',
  version: 'string', retrievalPageSize: 'integer', pageSize: 'integer', scoreThreshold: 'number',
  messages: 'array', context: 'array', paths: 'array', filter: 'object', assistant: 'object', comment: 'string', rating: ['up', 'down'],
  markdown: ['pages', 'llms-full'], analytics: 'boolean',
};

function typeOf(value) {
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

/**
 * The JSON body of a request. `kind`: `search`, `page`, `export`, `feedback`, `message-v1`, `message-v2`.
 * Messages come with `content`; v1 sends it and a text part, v2 (AI SDK v5+) the part only.
 */
export function body(kind, value) {
  const out = {};
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    const want = OPTION_TYPES[name];
    if (Array.isArray(want) && !want.includes(v)) {
      throw new DocsEdgeError(`invalid request: \`${name}\` must be one of ${want.join(', ')}`, { code: 'invalid_request' });
    }
    const got = typeOf(v);
    if (typeof want === 'string' && got !== want && !(want === 'number' && got === 'integer')) {
      throw new DocsEdgeError(`invalid request: \`${name}\` must be ${want === 'integer' ? 'an' : 'a'} ${want}`, { code: 'invalid_request' });
    }
    out[name] = v;
  }
  if (kind === 'message-v1' || kind === 'message-v2') {
    out.messages = (out.messages ?? []).map(({ content, ...message }) => {
      const text = content ?? '';
      return { ...message, ...(kind === 'message-v1' ? { content: text } : {}), parts: [{ type: 'text', text }] };
    });
    if (out.context?.length === 0) delete out.context;
  }
  return JSON.stringify(out);
}

/** Parses a JSON response. */
export async function json(response) {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DocsEdgeError(`unexpected response from ${response.url || 'the server'}: ${err.message}`, {
      status: response.status,
      code: 'invalid_response',
    });
  }
}

function normalizeBaseUrl(baseUrl) {
  if (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl)) {
    throw new DocsEdgeError('baseUrl must be an http(s) URL', { code: 'invalid_options' });
  }
  return baseUrl.replace(/\/+$/, '');
}

/** `retry: true` or `{retries, maxDelayMs}`; off by default. */
function retryPolicy(retry) {
  if (!retry) return { retries: 0, maxDelayMs: 0 };
  const { retries = 2, maxDelayMs = 60_000 } = retry === true ? {} : retry;
  return { retries, maxDelayMs };
}

/** Waits, unless `signal` aborts first (then rejects with code `aborted`). */
export function sleep(ms, signal) {
  const aborted = () => new DocsEdgeError('waiting was aborted', { code: 'aborted' });
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    function abort() {
      clearTimeout(timer);
      reject(aborted());
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

async function errorOf(response) {
  const text = await response.text().catch(() => '');
  let message = `HTTP ${response.status}`;
  let code = 'http_error';
  let details;
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed.error === 'string' && typeof parsed.code === 'string') {
      ({ error: message, code, ...details } = parsed);
      if (Object.keys(details).length === 0) details = undefined;
    }
  } catch {
    // not JSON (a proxy's page, an empty body): keep the status line
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new DocsEdgeError(message, {
    status: response.status,
    code,
    retryAfter: Number.isFinite(retryAfter) && response.headers.has('retry-after') ? retryAfter : undefined,
    requestId: response.headers.get('x-request-id') ?? undefined,
    details,
  });
}

/** What both clients share: where, with which key, through which fetch, with which retry policy. */
const inBrowserPage = () => typeof window !== 'undefined' && typeof document !== 'undefined';

/**
 * The Http of a client that holds a secret admin key: it refuses to run in a browser page unless
 * `allowBrowser` (code `browser_not_allowed`), and needs the key (`invalid_options`).
 */
export function adminHttp(client, what, { baseUrl, adminKey, allowBrowser = false, retry, fetch } = {}) {
  if (inBrowserPage() && !allowBrowser) {
    throw new DocsEdgeError(
      `${client} uses a secret admin key and refuses to run in a browser page; call the ${what} ` +
        'API from a server (or pass allowBrowser: true if this page is not public)',
      { code: 'browser_not_allowed' },
    );
  }
  if (typeof adminKey !== 'string' || !adminKey) {
    throw new DocsEdgeError('adminKey is required (a secret svc_ key)', { code: 'invalid_options' });
  }
  return new Http({ baseUrl, token: adminKey, fetch, retry });
}

export class Http {
  constructor({ baseUrl, token, fetch: fetchImpl, retry }) {
    this.baseUrl = normalizeBaseUrl(baseUrl);
    this.token = token;
    this.fetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
    this.retry = retryPolicy(retry);
  }

  /** Resolves to an ok Response; anything else becomes a DocsEdgeError. */
  async send(method, path, { body: payload, signal, headers = {} } = {}) {
    const init = {
      method,
      signal,
      headers: { authorization: `Bearer ${this.token}`, ...headers },
    };
    if (payload !== undefined) {
      init.body = payload;
      init.headers['content-type'] ??= 'application/json';
    }
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await this.fetch(`${this.baseUrl}${path}`, init);
      } catch (err) {
        throw transportError(err, signal);
      }
      if (response.ok) return response;
      const error = await errorOf(response);
      const waitMs = (error.retryAfter ?? 0) * 1000;
      if (response.status !== 429 || attempt >= this.retry.retries || waitMs > this.retry.maxDelayMs) throw error;
      await sleep(waitMs, signal);
    }
  }
}
