// The eval's fast path: a set answered natively (`core/examples/eval_local.rs`: the worker's search,
// retrieval and extractive answer over a docs folder, no worker started), scored as `runEval` scores
// a running service. Latencies are not measured here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../env.mjs';
import { cacheEnv, cargoTargetDir, hostCargoEnv, withCargoSourcesSync } from '../build-cache.mjs';
import { scoreQuestion, summarize } from './metrics.mjs';

/** Builds the native runner (release, in the host's target folder of the build cache). */
export function buildNative() {
  withCargoSourcesSync(() => {
    const r = spawnSync('cargo', ['build', '--release', '-q', '-p', 'docs-edge-core', '--example', 'eval_local'], {
      cwd: root, stdio: 'inherit', env: { ...process.env, ...cacheEnv, ...hostCargoEnv },
    });
    if (r.status !== 0) throw new Error('cargo build of the eval_local example failed');
  });
}

function nativeBinary() {
  return join(cargoTargetDir, 'release', 'examples', 'eval_local');
}

/** Every question of `questions` over the docs `folder`; returns what `runEval` does. */
export function runNative({ folder, questions, name }) {
  const dir = mkdtempSync(join(tmpdir(), 'docs-edge-eval-'));
  try {
    const set = join(dir, 'set.jsonl');
    writeFileSync(set, questions.map((q) => JSON.stringify({ question: q.question })).join('\n'));
    const r = spawnSync(nativeBinary(), [folder, set], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`eval_local ${folder}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
    const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const results = questions.map((q, i) => {
      const { retrieved, cited, text, uncertain, hit_paths: passages } = lines[i];
      return { question: q, retrieved, passages, cited, text, uncertain, scores: scoreQuestion(q, { retrieved, cited, text, uncertain }) };
    });
    return { name, domain: folder, totals: summarize(results), results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
