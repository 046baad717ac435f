// The answer-quality evaluation (issue 31): question sets run against a running service, scored per
// question and in total. `npm run eval` (scripts/eval.mjs) and tests/eval.test.mjs both call
// `runEval`; `publishForEval` puts a docs folder on a worker first.
import { randomBytes } from 'node:crypto';
import { OperatorClient } from '../operator.mjs';
import { publishFolder } from '../../../sdk-wasm/js/publish/index.js';
import { ask, searchPages } from './client.mjs';
import { scoreQuestion, summarize } from './metrics.mjs';

export { loadCorpora, loadQuestions, parseCorpora, parseQuestions } from './questions.mjs';
export {
  factMatches, isRefusal, isUncertain, keyOf, keyStated, normalizeText, scoreQuestion, summarize, summarizeBy, RANK_DEPTH,
} from './metrics.mjs';
export { formatBreakdown, formatQuestions, formatTable, renderHtml, METRICS } from './report.mjs';
export { buildNative, runNative } from './native.mjs';

/**
 * Runs every question of a set: the search with the question as query, then the assistant's answer;
 * `concurrency` questions at once (1 by default, so latencies are a single reader's). Returns `{name, domain, totals, results}`, each
 * result `{question, retrieved, cited, text, firstTokenMs, totalMs, scores}` (`retrieved`: page paths
 * in rank order, duplicates kept as the search returned them). `onResult` sees each result as it comes.
 */
export async function runEval({ baseUrl, domain, assistantKey, questions, name = domain, onResult = () => {}, concurrency = 1 }) {
  const results = new Array(questions.length);
  let next = 0;
  // The list keeps the set's order whatever order the answers end in.
  const askNext = async () => {
    while (next < questions.length) {
      const at = next++;
      const q = questions[at];
      const call = { baseUrl, domain, key: assistantKey, filter: q.filter };
      const retrieved = await searchPages({ ...call, query: q.question });
      const answer = await ask({ ...call, question: q.question });
      results[at] = { question: q, retrieved, ...answer, scores: scoreQuestion(q, { retrieved, cited: answer.cited, text: answer.text }) };
      onResult(results[at]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, askNext));
  return { name, domain, totals: summarize(results), results };
}

/**
 * Publishes `folder` to a new enterprise organization on the worker at `baseUrl` (the operator's
 * `rootToken`), remote dependencies left out as in CI. Returns `{domain, assistantKey, adminKey,
 * pages, warnings, publishMs}`.
 */
export async function publishForEval({ baseUrl, rootToken, folder, label = 'eval' }) {
  const op = new OperatorClient(baseUrl, rootToken);
  const org = await op.createOrg(`${label} ${randomBytes(3).toString('hex')}`, 'enterprise');
  const domain = `${label.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'eval'}-${randomBytes(3).toString('hex')}.eval.example.com`;
  await op.addDomain(org.orgId, domain);
  const adminKey = (await op.createKey(org.orgId, 'admin', 'eval')).key;
  const assistantKey = (await op.createKey(org.orgId, 'assistant', 'eval')).key;
  const result = await publishFolder({ folder, baseUrl, adminKey, domain, noFetch: true, pollMs: 100 });
  return { domain, assistantKey, adminKey, pages: result.site.pageCount, warnings: result.warnings.length, publishMs: result.durationMs };
}
