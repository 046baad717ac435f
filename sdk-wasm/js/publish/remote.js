// Remote dependencies of a site, fetched where the network is (the owner's machine or CI) and sent with
// the upload: OpenAPI documents the config names by URL, and images pages show from another host.
// The format has no remote snippets (imports and <Snippet file> name files of the folder), so there
// is nothing else to fetch. Each fetched file goes to `.docs-edge/remote/<hash><ext>` and
// `.docs-edge/remote.json` maps its URL there, for the server's site model.
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { hashBytes } from './hash.js';
import { mapLimit } from './pool.js';
import { readJsonInside } from './walk.js';

export const REMOTE_DIR = '.docs-edge/remote';
export const REMOTE_MAP = '.docs-edge/remote.json';
export const MAX_REMOTE_BYTES = 10 * 1000 * 1000;
export const REMOTE_TIMEOUT_MS = 15_000;

const URL_PATTERN = /^https?:\/\//i;
const PAGE_EXTENSIONS = /\.mdx?$/i;

/** Whether a file is a page, whose text may show remote images. */
export const isPage = (path) => PAGE_EXTENSIONS.test(path);

/**
 * Every remote URL the site depends on, once each, where it is first named:
 * `[{url, kind: 'OpenAPI document' | 'image', where: 'path:line'}]`. `imagesOf(file)` gives a page's
 * images (`imageUrls` of its text; the publish has them from its hashing).
 */
export function findRemoteRefs({ root, config, files }, imagesOf = (file) => imageUrls(readFileSync(file.abs, 'utf8'))) {
  const found = new Map();
  const add = (url, kind, where) => {
    if (!found.has(url)) found.set(url, { url, kind, where });
  };
  for (const { url, file } of openApiUrls(root, config)) add(url, 'OpenAPI document', `${file}:${lineOf(root, file, url)}`);
  for (const file of files) {
    if (!isPage(file.path)) continue;
    for (const { url, line } of imagesOf(file)) add(url, 'image', `${file.path}:${line}`);
  }
  return [...found.values()];
}

/** URLs given as `openapi` anywhere in the config (top level, `api`, any navigation level), through `$ref`s. */
function openApiUrls(root, config) {
  const out = [];
  const seen = new Set();
  const visitFile = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const json = readJsonInside(root, file);
    if (json !== null) visit(json, file);
  };
  const visit = (node, file) => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, file));
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'openapi') {
        for (const source of [value].flat()) {
          const url = typeof source === 'string' ? source : source?.source;
          if (typeof url === 'string' && URL_PATTERN.test(url.trim())) out.push({ url: url.trim(), file });
        }
      } else if (key === '$ref' && typeof value === 'string' && !URL_PATTERN.test(value)) {
        visitFile(posix.normalize(posix.join(posix.dirname(file), value)));
      } else {
        visit(value, file);
      }
    }
  };
  visitFile(config);
  return out;
}

function lineOf(root, file, needle) {
  try {
    const text = readFileSync(`${root}/${file}`, 'utf8');
    const at = text.indexOf(needle);
    return at < 0 ? 1 : text.slice(0, at).split('\n').length;
  } catch {
    return 1;
  }
}

const MARKDOWN_IMAGE = /!\[[^\]\n]*\]\(\s*<?(https?:\/\/[^\s)>]+)/gi;
// <img> alone or inside <Frame>, with the address as a string or a JSX string expression.
const IMG_TAG = /<img\b[^>]*?\bsrc\s*=\s*(?:"(https?:\/\/[^"]+)"|'(https?:\/\/[^']+)'|\{\s*["'`](https?:\/\/[^"'`]+)["'`]\s*\})/gi;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Remote image addresses a page shows, outside code blocks: `[{url, line}]`. */
export function imageUrls(text) {
  const masked = maskCodeBlocks(text);
  const out = [];
  const lineAt = lineCounter(masked);
  for (const pattern of [MARKDOWN_IMAGE, IMG_TAG]) {
    for (const m of masked.matchAll(pattern)) {
      out.push({ url: m[1] ?? m[2] ?? m[3], line: lineAt(m.index) });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** The text with fenced code blocks blanked out (newlines kept, so line numbers stay right). */
function maskCodeBlocks(text) {
  const lines = text.split('\n');
  let fence = null;
  return lines
    .map((line) => {
      const open = FENCE.exec(line);
      if (fence === null) {
        if (open) fence = open[1];
        return open ? '' : line;
      }
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1]) fence = null;
      return '';
    })
    .join('\n');
}

function lineCounter(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const TYPE_EXTENSIONS = {
  'application/json': '.json', 'application/yaml': '.yaml', 'application/x-yaml': '.yaml', 'text/yaml': '.yaml',
  'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp', 'image/svg+xml': '.svg',
  'image/avif': '.avif',
};

function extensionOf(url, contentType) {
  const name = new URL(url).pathname.split('/').pop() ?? '';
  const ext = /\.[a-z0-9]{1,8}$/i.exec(name)?.[0];
  if (ext) return ext.toLowerCase();
  return TYPE_EXTENSIONS[(contentType ?? '').split(';')[0].trim().toLowerCase()] ?? '';
}

class FetchRefused extends Error {}

async function download(url, { fetch, maxBytes, timeoutMs }) {
  if (!/^https:\/\//i.test(url)) throw new FetchRefused('only https addresses are fetched');
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    if (!res.ok) throw new FetchRefused(`HTTP ${res.status}`);
    if (res.url && !/^https:\/\//i.test(res.url)) throw new FetchRefused('redirected away from https');
    if (Number(res.headers.get('content-length')) > maxBytes) throw new FetchRefused(`over ${maxBytes / 1e6} MB`);
    const chunks = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > maxBytes) throw new FetchRefused(`over ${maxBytes / 1e6} MB`);
      chunks.push(chunk);
    }
    return { bytes: Buffer.concat(chunks), contentType: res.headers.get('content-type') };
  } catch (err) {
    if (err instanceof FetchRefused) throw err;
    if (err?.name === 'TimeoutError') throw new FetchRefused(`no answer within ${timeoutMs / 1000} s`);
    throw new FetchRefused(err?.cause?.code ?? err?.message ?? String(err));
  } finally {
    if (res?.body && !res.bodyUsed) res.body.cancel().catch(() => {});
  }
}

/**
 * Fetches each ref (or, with `noFetch`, none): `{files: [{path, bytes, size}], map, warnings}`, where
 * `map` is the URL → path table also present among `files` as `.docs-edge/remote.json`. A URL that
 * cannot be fetched is a warning: the server warns again where a page needed it.
 */
export async function fetchRemote(refs, {
  noFetch = false, fetch = globalThis.fetch, concurrency = 6, maxBytes = MAX_REMOTE_BYTES, timeoutMs = REMOTE_TIMEOUT_MS,
} = {}) {
  const warnings = [];
  const files = [];
  const map = {};
  if (noFetch) {
    for (const ref of refs) warnings.push(`${ref.where}: remote ${ref.kind} not fetched (--no-fetch): ${ref.url}`);
  } else {
    const results = await mapLimit(refs, concurrency, async (ref) => {
      try {
        return { ref, ...(await download(ref.url, { fetch, maxBytes, timeoutMs })) };
      } catch (err) {
        return { ref, error: err.message };
      }
    });
    const byPath = new Map();
    for (const { ref, bytes, contentType, error } of results) {
      if (error) {
        warnings.push(`${ref.where}: remote ${ref.kind} not fetched (${error}): ${ref.url}`);
        continue;
      }
      const path = `${REMOTE_DIR}/${hashBytes(bytes)}${extensionOf(ref.url, contentType)}`;
      map[ref.url] = path;
      if (!byPath.has(path)) byPath.set(path, { path, bytes, size: bytes.length });
    }
    files.push(...byPath.values());
  }
  const sorted = Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : 1)));
  if (Object.keys(sorted).length > 0) {
    const bytes = Buffer.from(`${JSON.stringify(sorted, null, 2)}\n`);
    files.push({ path: REMOTE_MAP, bytes, size: bytes.length });
  }
  return { files, map: sorted, warnings };
}
