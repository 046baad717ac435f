// What one question's retrieval and answer score, and the totals over a set. Pure functions: the
// runner gathers what the service returned, these only compare it with the question's expectations.

/** Retrieval is scored over the first this many distinct pages (MRR is 0 past it). */
export const RANK_DEPTH = 10;

/**
 * Text folded for the fact match: compatibility forms, no accents, lower case, every run of
 * punctuation and whitespace one space. `Hidden: True` and `hidden true` compare equal, so do
 * `café` and `cafe`; CJK characters are kept as they are.
 */
export function normalizeText(text) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Folded text as space-separated words, each CJK character a word of its own (CJK text has no spaces
 * between words, so this is what lets a CJK fact match inside a sentence). */
const words = (text) => ` ${normalizeText(text).replace(CJK, ' $& ').split(/\s+/).filter(Boolean).join(' ')} `;

/** Does `answer` contain `fact`, both folded, as whole words (`6 results` is not in `16 results`)?
 * Link targets are left out first: a URL that happens to spell the fact is not an answer that states
 * it. */
export function factMatches(answer, fact) {
  const prose = answer.replace(/\]\([^)\s]*\)/g, ']').replace(/https?:\/\/\S+/g, ' ');
  const needle = words(fact);
  return needle.trim().length > 0 && words(prose).includes(needle);
}

/** Distinct page paths in rank order (a search returns sections; several may share a page). */
export function distinctPages(paths) {
  return [...new Set(paths)];
}

/**
 * A refusal: the answer's opening paragraph says the documentation does not cover the question, in
 * any of the phrasings the backends use, or it cites nothing. The extractive backend's refusal is exactly "no sources and
 * `The documentation doesn't cover this question.`" (`文档中没有涉及这个问题。` for Chinese questions,
 * `この質問はドキュメントで扱っていません。` for Japanese ones;
 * core/src/assistant/extractive.rs), and every answer it composes from the docs cites its passages.
 */
const REFUSAL = /\b(?:doesn['’]t|does not|do not|don['’]t) cover\b|\bnot covered\b|没有涉及|未涉及|no (?:cubre|trata)\b|ne (?:couvre|traite) pas\b|記載されていません|扱っていません/i;

export function isRefusal(text, cited) {
  return cited.length === 0 || REFUSAL.test(openingParagraph(text));
}

/** A refusal says so first; a quoted page may itself say "not covered" further down (a list of
 * classes ending in "Other questions - General inquiries not covered by specific classes"). */
function openingParagraph(text) {
  return text.trimStart().split(/\n\s*\n/)[0];
}

/**
 * An uncertain answer: the docs hold no passage that answers squarely, so the extractive backend
 * quotes the closest one and says so first ("The docs don't state this directly; the closest is …",
 * `uncertain` in its answer). It counts as a refusal for an unanswerable question and as an answer
 * for an answerable one; the share of them is reported so that hedging everything cannot pass.
 */
const HEDGE = /^\s*(?:the docs don['’]t state this directly|文档中没有直接说明|ドキュメントには直接の記載がありません|문서에 직접 나와 있지 않습니다)/i;

export function isUncertain(text, flag) {
  return flag ?? HEDGE.test(text);
}

/** The key fact: the first code span of a fact (`` `cc_pair_id` `` in "Include a `cc_pair_id` …"). */
export function keyOf(fact) {
  return fact?.match(/`([^`]+)`/)?.[1].trim() || null;
}

/**
 * Does the answer hold `key`, ignoring case and how whitespace runs (a key written on one line,
 * `[gateway] disable_… = true`, is stated by the two lines of a quoted TOML block)? Link targets and
 * the sources list are left out: a page's address is no statement. A URL quoted in the answer's text
 * (a `curl` line) is.
 */
export function keyStated(text, key) {
  const flat = (s) => s.toLowerCase().replace(/\s+/g, ' ');
  const prose = answerBody(text).replace(/\]\([^)\s]*\)/g, ']');
  return flat(prose).includes(flat(key));
}

/** The answer without its closing "Sources:" list (or a refusal's list of the closest pages). */
export function answerBody(text) {
  return text.split(/\n\n(?:Sources:|来源：|出典：|출처:)/)[0].split(/ (?:The closest pages I found:|最接近的页面：|最も近いページ：)/)[0];
}

/**
 * One question's scores. `retrieved`: page paths in rank order; `cited`: the answer's cited pages;
 * `text`: the answer. For an answerable question: `hit1`, `hit5`, `rr` (reciprocal rank of the first
 * expected page within RANK_DEPTH distinct pages), citation `precision` (share of cited pages that
 * are expected; 0 when it cites nothing) and `recall` (1 when an expected page is cited: `pages` lists
 * alternatives, each of which answers), `fact` (null without a fact) and `refused` (a wrong refusal).
 * For an unanswerable one: `refused` (the right outcome).
 */
export function scoreQuestion(q, { retrieved, cited, text, uncertain: flag }) {
  const pages = distinctPages(retrieved).slice(0, RANK_DEPTH);
  const citedPages = distinctPages(cited);
  const uncertain = !isRefusal(text, citedPages) && isUncertain(text, flag);
  const length = answerBody(text).length;
  if (q.unanswerable) return { refused: isRefusal(text, citedPages) || uncertain, outright: isRefusal(text, citedPages), uncertain, length };
  const refused = isRefusal(text, citedPages);
  const key = keyOf(q.fact);
  const expected = new Set(q.pages);
  const rank = pages.findIndex((p) => expected.has(p)) + 1;
  const good = citedPages.filter((p) => expected.has(p)).length;
  return {
    hit1: rank === 1,
    hit5: rank >= 1 && rank <= 5,
    rr: rank > 0 ? 1 / rank : 0,
    precision: citedPages.length > 0 ? good / citedPages.length : 0,
    recall: good > 0 ? 1 : 0,
    fact: q.fact === undefined ? null : factMatches(text, q.fact),
    keyFact: key === null ? null : !refused && keyStated(text, key),
    refused,
    uncertain,
    length,
  };
}

const mean = (values) => (values.length === 0 ? null : values.reduce((a, b) => a + Number(b), 0) / values.length);

function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
}

/** Totals over a set's results (each `{question, scores, firstTokenMs, totalMs}`). Rates are 0–1;
 * `refusal` is the share of unanswerable questions refused, `falseRefusal` the share of answerable
 * ones refused. Latencies in milliseconds, reported and never asserted. */
export function summarize(results) {
  const answerable = results.filter((r) => !r.question.unanswerable).map((r) => r.scores);
  const unanswerable = results.filter((r) => r.question.unanswerable).map((r) => r.scores);
  const withFact = answerable.filter((s) => s.fact !== null);
  const withKey = answerable.filter((s) => s.keyFact !== null && s.keyFact !== undefined);
  const all = results.map((r) => r.scores);
  const first = results.map((r) => r.firstTokenMs).filter(Number.isFinite);
  const total = results.map((r) => r.totalMs).filter(Number.isFinite);
  return {
    questions: results.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    hit1: mean(answerable.map((s) => s.hit1)),
    hit5: mean(answerable.map((s) => s.hit5)),
    mrr: mean(answerable.map((s) => s.rr)),
    citationPrecision: mean(answerable.map((s) => s.precision)),
    citationRecall: mean(answerable.map((s) => s.recall)),
    fact: mean(withFact.map((s) => s.fact)),
    refusal: mean(unanswerable.map((s) => s.refused)),
    refusalOutright: mean(unanswerable.map((s) => s.outright ?? s.refused)),
    falseRefusal: mean(answerable.map((s) => s.refused)),
    keyFact: mean(withKey.map((s) => s.keyFact)),
    keyFacts: withKey.length,
    uncertain: mean(all.filter((s) => s.uncertain !== undefined).map((s) => s.uncertain)),
    answerChars: mean(all.filter((s) => s.length !== undefined).map((s) => s.length)),
    firstTokenMs: { p50: percentile(first, 0.5), p95: percentile(first, 0.95) },
    totalMs: { p50: percentile(total, 0.5), p95: percentile(total, 0.95) },
  };
}

/** Totals per value of a question's field (`style`, `kind`), in first-seen order; questions without it
 * are left out. */
export function summarizeBy(results, field) {
  const groups = new Map();
  for (const r of results) {
    const value = r.question[field];
    if (value === undefined) continue;
    if (!groups.has(value)) groups.set(value, []);
    groups.get(value).push(r);
  }
  return [...groups].map(([value, rs]) => ({ value, totals: summarize(rs) }));
}
