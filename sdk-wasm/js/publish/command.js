// The `publish` command of the `docs-edge` bin (and of `npm run publish-docs` in this repository):
// arguments, progress on stderr, the result on stdout. Returns the exit status: 0 published,
// 1 failed, 2 usage.
import { parseArgs } from 'node:util';
import { publishFolder } from './index.js';
import { formatBytes, formatWarnings, progressLine } from './report.js';
import { servedPublish, siteUrl, waitForSite } from './hosted.js';

const OPTIONS = {
  domain: { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean', default: false },
  'no-fetch': { type: 'boolean', default: false },
  'no-cache': { type: 'boolean', default: false },
  concurrency: { type: 'string' },
  preview: { type: 'string' },
  'wait-site': { type: 'boolean', default: false },
  'site-url': { type: 'string' },
  'site-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
};

export function usage(command) {
  return `usage: ${command} <folder> --domain <domain> [--url URL] [--key ADMIN_KEY] [--json] [--no-fetch] [--concurrency N]
       [--preview LABEL] [--wait-site [--site-url URL] [--site-timeout SECONDS]]

Publishes a docs folder (docs.json or mint.json at its root) and waits until it is live. Only files the
site does not hold yet are uploaded.
  --url          the docs-edge service (or DOCS_EDGE_URL)
  --key          a secret admin key, svc_… (or DOCS_EDGE_ADMIN_KEY)
  --json         print one JSON object on stdout: site, warnings, bytesSent, filesUploaded, filesTotal, durationMs
  --no-fetch     do not fetch remote OpenAPI documents and images (each one left out is a warning)
  --no-cache     read every file, and keep no file hashes for the next publish (kept by default in
                 $XDG_CACHE_HOME/docs-edge or ~/.cache/docs-edge, by size and modification time)
  --concurrency  uploads and fetches in flight (default 6)
  --preview      publish a preview labelled LABEL (a DNS label: a-z, 0-9, single hyphens) instead of
                 the live version: served with noindex at its own hostname ("previewUrl" in the output)
  --wait-site    then wait until the domain's hosted site (a preview's) serves the new version, and print
                 its URL ("siteUrl" in the output); the site is https://<domain> (the preview's URL)
                 unless --site-url names it
  --site-timeout seconds to wait for the site (default 600)`;
}

/**
 * `argv` without the node and script names. `command` names the command in messages; `defaultUrl`
 * is used when neither --url nor DOCS_EDGE_URL is given (none: then one is required).
 */
export async function main(argv, {
  command = 'docs-edge publish', env = process.env, stdout = process.stdout, stderr = process.stderr, defaultUrl,
  publish = publishFolder, siteFetch = globalThis.fetch,
} = {}) {
  let args;
  try {
    args = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (err) {
    stderr.write(`${err.message}\n\n${usage(command)}\n`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    stdout.write(`${usage(command)}\n`);
    return 0;
  }
  const baseUrl = values.url ?? env.DOCS_EDGE_URL ?? defaultUrl;
  const adminKey = values.key ?? env.DOCS_EDGE_ADMIN_KEY;
  const concurrency = values.concurrency === undefined ? 6 : Number(values.concurrency);
  const siteTimeout = values['site-timeout'] === undefined ? 600 : Number(values['site-timeout']);
  const problems = [
    positionals.length !== 1 && 'name one docs folder',
    !values.domain && '--domain is required',
    !baseUrl && '--url (or DOCS_EDGE_URL) is required',
    !adminKey && '--key (or DOCS_EDGE_ADMIN_KEY) is required',
    !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64) && '--concurrency must be a whole number from 1 to 64',
    !(siteTimeout > 0) && '--site-timeout must be a number of seconds',
    values.preview !== undefined && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(values.preview) && '--preview must be a DNS label: lower-case letters, digits and single hyphens',
    (values['site-url'] || values['site-timeout']) && !values['wait-site'] && '--site-url and --site-timeout go with --wait-site',
  ].filter(Boolean);
  if (problems.length > 0) {
    stderr.write(`${problems.join('\n')}\n\n${usage(command)}\n`);
    return 2;
  }

  const progress = progressWriter(stderr);
  // A preview's site is at a hostname only the server knows: asked once it answers.
  let site = values['wait-site'] && !values.preview ? siteUrl(values.domain, values['site-url']) : null;
  try {
    // What the hosted site serves now: the wait ends when it serves something else.
    let before = site ? await servedPublish(site, siteFetch) : null;
    const result = await publish({
      folder: positionals[0], baseUrl, adminKey, domain: values.domain, concurrency, preview: values.preview,
      noFetch: values['no-fetch'], onEvent: progress.event, ...(values['no-cache'] ? { hashCacheDir: false } : {}),
    });
    progress.done();
    const published = result.site;
    if (values['wait-site'] && published.previewUrl) {
      // Its export starts as the publish answers and takes seconds: what it serves now is the last one.
      site = siteUrl(values.domain, values['site-url'] ?? published.previewUrl);
      before = await servedPublish(site, siteFetch);
    }
    stderr.write(
      `${published.domain} ${published.previewUrl ? `preview ${values.preview} is built (the live version is unchanged; served at ${published.previewUrl} once exported)` : 'is live'}: ${published.pageCount} pages` +
        `${published.languages?.length > 1 ? `, ${published.languages.length} languages` : ''}; ` +
        `uploaded ${result.filesUploaded} of ${result.filesTotal} files, ${formatBytes(result.bytesSent)} sent, ` +
        `in ${(result.durationMs / 1000).toFixed(1)} s\n${formatWarnings(result.warnings)}\n`,
    );
    if (site) {
      stderr.write(`waiting for the site at ${site} to serve it…\n`);
      await waitForSite(site, before, { fetch: siteFetch, timeoutMs: siteTimeout * 1000 });
      stderr.write(`the site is live at ${site}/\n`);
    }
    const siteUrlField = site ? { siteUrl: `${site}/` } : {};
    const out = values.json
      ? { site: published, warnings: result.warnings, bytesSent: result.bytesSent, filesUploaded: result.filesUploaded, filesTotal: result.filesTotal, durationMs: result.durationMs, ...siteUrlField }
      : { ...published, ...siteUrlField };
    stdout.write(`${JSON.stringify(out, null, values.json ? 0 : 2)}\n`);
    return 0;
  } catch (err) {
    progress.done();
    stderr.write(`publish failed: ${err.message}\n`);
    if (values.json) stdout.write(`${JSON.stringify({ error: err.message, code: err.code ?? 'error', status: err.status ?? 0 })}\n`);
    return 1;
  }
}

/**
 * Progress on stderr: rewritten in place on a terminal, otherwise one line per phase change and
 * per tenth of the way (CI logs stay short).
 */
function progressWriter(stderr) {
  const tty = Boolean(stderr.isTTY);
  let last = { phase: null, tenth: -1, line: null };
  let open = false;
  return {
    event(event) {
      const line = progressLine(event);
      if (!line || line === last.line) return;
      const fraction = event.phase === 'hash' ? event.done / event.total
        : event.phase === 'upload' ? (event.totalBytes ? event.bytes / event.totalBytes : 1)
          : event.status.progress ?? 0;
      const tenth = Math.floor(fraction * 10);
      if (tty) {
        stderr.write(`${open && event.phase !== last.phase ? '\n' : '\r\x1b[K'}${line}`);
        open = true;
      } else if (event.phase !== last.phase || tenth !== last.tenth || event.phase === 'publish') {
        stderr.write(`${line}\n`);
      }
      last = { phase: event.phase, tenth, line };
    },
    done() {
      if (open) stderr.write('\n');
      open = false;
    },
  };
}
