// Cloudflare Turnstile for a widget with `data-turnstile` (the site key). Turnstile's script is
// loaded when the reader sends a conversation's first question, never before, and its challenge runs
// invisibly unless Turnstile needs the reader (`appearance: 'interaction-only'`: then it shows at the
// bottom of the page). The token goes with that question in the `x-turnstile-token` header; the
// service remembers the verdict in the conversation's thread, so later questions send none.

/** Turnstile's script, explicit rendering. `data-turnstile-script` replaces it in tests only. */
export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
export const TOKEN_HEADER = 'x-turnstile-token';

let loading;

function load(src, nonce) {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    if (nonce) script.nonce = nonce;
    script.onload = () => (globalThis.turnstile ? resolve(globalThis.turnstile) : reject(new Error('Turnstile did not start')));
    script.onerror = () => {
      loading = undefined;
      reject(new Error('Turnstile could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/** One token for `turnstile` (the site key): a widget rendered for it, removed once it answers. */
export async function turnstileToken({ turnstile: sitekey, turnstileScript, nonce }) {
  const api = await load(turnstileScript || TURNSTILE_SCRIPT, nonce);
  const box = document.createElement('div');
  box.style.cssText = 'position:fixed;bottom:16px;left:50%;transform:translateX(-50%);z-index:2147483647';
  document.body.append(box);
  let id;
  try {
    return await new Promise((resolve, reject) => {
      id = api.render(box, {
        sitekey,
        action: 'assistant',
        appearance: 'interaction-only',
        callback: resolve,
        'error-callback': (code) => reject(new Error(`Turnstile failed (${code})`)),
        'timeout-callback': () => reject(new Error('Turnstile timed out')),
      });
    });
  } finally {
    try {
      if (id != null) api.remove(id);
    } catch {
      // already gone
    }
    box.remove();
  }
}

/**
 * `fetch` for the SDK's client: a question sent without a thread (a conversation's first) carries a
 * token; a question the service refuses with `turnstile_failed` (a conversation begun before
 * Turnstile was on) is sent once more with a fresh one. Without a token (Turnstile blocked or
 * failing) the question goes as it is, and the service's answer says why it is refused.
 */
export function turnstileFetch(config, hasThread) {
  const withToken = async (init) => {
    const headers = new Headers(init.headers);
    try {
      headers.set(TOKEN_HEADER, await turnstileToken(config));
    } catch {
      // no token: the service decides
    }
    return { ...init, headers };
  };
  return async (url, init = {}) => {
    const question = init.method === 'POST' && /\/message$/.test(new URL(url, location.href).pathname);
    if (!question) return fetch(url, init);
    const first = !hasThread();
    const response = await fetch(url, first ? await withToken(init) : init);
    if (first || response.status !== 403) return response;
    const code = await response.clone().json().then((b) => b.code, () => undefined);
    return code === 'turnstile_failed' ? fetch(url, await withToken(init)) : response;
  };
}
