#!/usr/bin/env node
// `npm run eval -- <site-or-folder> <questions.jsonl> [<site-or-folder> <questions.jsonl> ...]`:
// answer quality measured (issue 31). Each pair is a site and its question set; a folder is published
// first. Without --base-url the worker is built and started here (one for every set, stopped at the
// end); with it, a folder is published there with the operator's ROOT_TOKEN (environment or .dev.vars)
// and a site is a domain already published there, asked with --key (or DOCS_EDGE_ASSISTANT_KEY).
// Prints one line a question and the totals; --json and --html write the reports.
// `--native` answers natively instead (core/examples/eval_local.rs, no worker: the fast loop), and
// `--corpora <folder> <questions.json>` adds a development set of several sites
// (`{corpora: {<name>: [{q, pages, fact, kind, style}]}}`, each site in `<folder>/<name>`), always
// natively; both print the totals per set, phrasing (`style`) and kind.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { root } from './lib/env.mjs';
import { parseDevVars } from './lib/dev-vars.mjs';
import { scratchDir } from './lib/scratch.mjs';
// The worker path's modules (publishing needs the installed packages) load only when it runs.
import { summarize, summarizeBy } from './lib/eval/metrics.mjs';
import { loadCorpora, loadQuestions } from './lib/eval/questions.mjs';
import { formatBreakdown, formatQuestions, formatTable, renderHtml } from './lib/eval/report.mjs';
import { buildNative, runNative } from './lib/eval/native.mjs';

const USAGE = `usage: npm run eval -- [<site-or-folder> <questions.jsonl> ...] [--corpora <folder> <questions.json>]
  [--native] [--base-url URL] [--key ASSISTANT_KEY] [--json out.json] [--html out.html] [--quiet]
  A folder (holding docs.json or mint.json) is published first; a site is a domain on --base-url.
  --native answers over each folder natively (cargo's eval_local example), without a worker;
  --corpora runs a JSON development set natively, one site per <folder>/<corpus name>.`;

function option(args, name) {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const [, value] = args.splice(at, 2);
  if (value === undefined) throw new Error(`${name} needs a value\n${USAGE}`);
  return value;
}

function flag(args, name) {
  const at = args.indexOf(name);
  if (at === -1) return false;
  args.splice(at, 1);
  return true;
}

const isFolder = (arg) => existsSync(arg) && statSync(arg).isDirectory();

function rootToken() {
  const devVars = join(root, '.dev.vars');
  return process.env.ROOT_TOKEN ?? (existsSync(devVars) ? parseDevVars(readFileSync(devVars, 'utf8')).ROOT_TOKEN : undefined);
}

function commit() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** A worker built and started here, on a throwaway state folder. */
async function localWorker() {
  const { bootstrap } = await import('./lib/bootstrap.mjs');
  const { buildWorker } = await import('./build-worker.mjs');
  const { startWorker } = await import('./lib/worker-process.mjs');
  bootstrap({ quiet: true });
  buildWorker();
  const token = randomBytes(16).toString('hex');
  const worker = await startWorker({ persistTo: scratchDir('docs-edge-eval-'), vars: { ROOT_TOKEN: token, LINK_SIGNING_KEY: randomBytes(16).toString('hex') } });
  return { baseUrl: worker.baseUrl, token, stop: () => worker.stop() };
}

async function main(argv) {
  const args = [...argv];
  if (args.length === 0 || flag(args, '--help')) {
    console.log(USAGE);
    return args.length === 0 ? 2 : 0;
  }
  let baseUrl = option(args, '--base-url');
  const key = option(args, '--key') ?? process.env.DOCS_EDGE_ASSISTANT_KEY;
  const jsonOut = option(args, '--json');
  const htmlOut = option(args, '--html');
  const quiet = flag(args, '--quiet');
  const native = flag(args, '--native');
  const corporaAt = args.indexOf('--corpora');
  const corpora = corporaAt === -1 ? undefined : args.splice(corporaAt, 3).slice(1);
  if (args.length % 2 !== 0 || args.some((a) => a.startsWith('--')) || (corpora && corpora.length !== 2)) {
    console.error(USAGE);
    return 2;
  }
  const pairs = [];
  for (let i = 0; i < args.length; i += 2) pairs.push({ target: args[i], questions: loadQuestions(args[i + 1]), setName: basename(args[i + 1]).replace(/\.jsonl$/, '') });
  if (native || corpora) {
    const sites = corpora ? loadCorpora(corpora[1]).map((c) => ({ target: join(corpora[0], c.name), questions: c.questions, setName: c.name })) : [];
    const all = [...pairs, ...sites];
    const missing = all.find((p) => !isFolder(p.target));
    if (missing) {
      console.error(`${missing.target}: not a folder; --native and --corpora answer over folders`);
      return 2;
    }
    buildNative();
    const reports = all.map((p) => runNative({ folder: resolve(p.target), questions: p.questions, name: p.setName }));
    if (sites.length > 1) {
      const results = reports.slice(pairs.length).flatMap((r) => r.results);
      reports.push({ name: 'dev (all corpora)', domain: corpora[0], totals: summarize(results), results });
    }
    if (!quiet) for (const r of reports) console.log(`\n${r.name}\n${formatQuestions(r)}`);
    console.log(`\n${formatTable(reports)}\n\n${formatBreakdown(reports, summarizeBy)}`);
    const meta = { date: new Date().toISOString(), commit: commit(), command: `npm run eval -- ${argv.join(' ')}` };
    if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ ...meta, sets: reports }, null, 1)}\n`);
    if (htmlOut) writeFileSync(htmlOut, renderHtml(reports, meta));
    return 0;
  }
  if (!baseUrl && pairs.some((p) => !isFolder(p.target))) {
    console.error(`${pairs.find((p) => !isFolder(p.target)).target}: not a folder; a site needs --base-url`);
    return 2;
  }

  const { publishForEval, runEval } = await import('./lib/eval/index.mjs');
  let worker;
  let token = rootToken();
  if (!baseUrl) {
    console.error('building and starting a worker…');
    worker = await localWorker();
    baseUrl = worker.baseUrl;
    token = worker.token;
  }
  try {
    const reports = [];
    for (const pair of pairs) {
      let site;
      if (isFolder(pair.target)) {
        if (!token) throw new Error('publishing a folder needs ROOT_TOKEN (environment or .dev.vars)');
        site = await publishForEval({ baseUrl, rootToken: token, folder: resolve(pair.target), label: basename(resolve(pair.target)) });
        console.error(`${pair.target}: published ${site.pages} pages to ${site.domain} in ${(site.publishMs / 1000).toFixed(1)} s (${site.warnings} warnings)`);
      } else {
        if (!key) throw new Error(`${pair.target}: asking a published site needs --key or DOCS_EDGE_ASSISTANT_KEY`);
        site = { domain: pair.target, assistantKey: key };
      }
      const report = await runEval({ baseUrl, domain: site.domain, assistantKey: site.assistantKey, questions: pair.questions, name: pair.setName });
      if (!quiet) console.log(`\n${pair.setName} (${site.domain})\n${formatQuestions(report)}`);
      reports.push(report);
    }
    console.log(`\n${formatTable(reports)}`);
    const meta = { date: new Date().toISOString(), commit: commit(), command: `npm run eval -- ${argv.join(' ')}` };
    if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ ...meta, sets: reports }, null, 1)}\n`);
    if (htmlOut) writeFileSync(htmlOut, renderHtml(reports, meta));
    return 0;
  } finally {
    await worker?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err.message);
    process.exit(1);
  },
);
