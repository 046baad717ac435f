// The two calls a question makes to a running service: the search API (retrieval) and the v1
// assistant endpoint (the answer, an AI SDK v4 data stream), both with the site's assistant key.

async function post(baseUrl, path, key, json) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
}

async function failure(res, what) {
  const text = await res.text();
  let detail = text.slice(0, 300);
  try {
    const body = JSON.parse(text);
    detail = `${body.error} (${body.code})`;
  } catch {}
  return new Error(`${what}: HTTP ${res.status}: ${detail}`);
}

/** The page paths of the search's results, best first (one per result section). */
export async function searchPages({ baseUrl, domain, key, query, pageSize = 20, filter }) {
  const res = await post(baseUrl, `/discovery/v1/search/${domain}`, key, { query, pageSize, ...(filter ? { filter } : {}) });
  if (!res.ok) throw await failure(res, `search "${query}"`);
  const results = await res.json();
  return results.map((r) => r.path);
}

/** The page path a cited URL names on `domain` (`https://domain/` is the index page). */
export function pathOfUrl(url, domain) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.host !== domain) return url;
  const path = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, '');
  return path || 'index';
}

/**
 * Asks one question and reads the whole stream: `{text, cited, firstTokenMs, totalMs}`. `cited` are
 * the page paths of the answer's sources (the `a:` tool result of the v1 stream); `firstTokenMs` is
 * the time from the request to the first text part (`0:`). A stream that reports an error (`3:`) is
 * an error here.
 */
export async function ask({ baseUrl, domain, key, question, filter }) {
  const started = performance.now();
  const message = { id: 'eval-1', role: 'user', content: question, parts: [{ type: 'text', text: question }] };
  const res = await post(baseUrl, `/discovery/v1/assistant/${domain}/message`, key, { fp: 'eval', messages: [message], ...(filter ? { filter } : {}) });
  if (!res.ok) throw await failure(res, `assistant "${question}"`);
  const decoder = new TextDecoder();
  let buffered = '';
  let text = '';
  let firstTokenMs = Number.NaN;
  const cited = [];
  const take = (line) => {
    const colon = line.indexOf(':');
    if (colon < 1) return;
    const kind = line.slice(0, colon);
    const value = JSON.parse(line.slice(colon + 1));
    if (kind === '0') {
      if (Number.isNaN(firstTokenMs)) firstTokenMs = performance.now() - started;
      text += value;
    } else if (kind === 'a' && Array.isArray(value?.result)) {
      for (const source of value.result) if (source?.url) cited.push(pathOfUrl(source.url, domain));
    } else if (kind === '3') {
      throw new Error(`assistant "${question}": the stream failed: ${value}`);
    }
  };
  for await (const chunk of res.body) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      take(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  }
  buffered += decoder.decode();
  if (buffered.trim()) take(buffered.trim());
  return { text, cited, firstTokenMs, totalMs: performance.now() - started };
}
