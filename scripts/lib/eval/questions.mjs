// Question sets: one JSON object a line, `{question, pages, fact}` or `{question, unanswerable: true}`
// (eval/sets/README.md). A malformed line is an error naming the file and line, not a skipped question:
// a set that silently lost questions would measure something else.
import { readFileSync } from 'node:fs';

/** The questions of a JSONL set; `name` labels errors (`name:line: message`). */
export function parseQuestions(text, name = 'questions') {
  const questions = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const where = `${name}:${i + 1}`;
    let q;
    try {
      q = JSON.parse(line);
    } catch (err) {
      throw new Error(`${where}: not JSON (${err.message})`);
    }
    if (typeof q.question !== 'string' || !q.question.trim()) throw new Error(`${where}: "question" must be a non-empty string`);
    const pages = q.pages ?? [];
    if (!Array.isArray(pages) || pages.some((p) => typeof p !== 'string' || !p)) throw new Error(`${where}: "pages" must be an array of page paths`);
    if (q.unanswerable === true) {
      if (pages.length > 0) throw new Error(`${where}: an unanswerable question lists no pages`);
    } else if (pages.length === 0) {
      throw new Error(`${where}: an answerable question needs "pages" (or "unanswerable": true)`);
    }
    if (q.fact !== undefined && (typeof q.fact !== 'string' || !q.fact.trim())) throw new Error(`${where}: "fact" must be a non-empty string`);
    questions.push({
      line: i + 1,
      question: q.question,
      pages: pages.map((p) => p.replace(/^\//, '').replace(/\.mdx?$/, '')),
      fact: q.fact,
      unanswerable: q.unanswerable === true,
      filter: q.filter,
    });
  });
  if (questions.length === 0) throw new Error(`${name}: no questions`);
  return questions;
}

export function loadQuestions(file) {
  return parseQuestions(readFileSync(file, 'utf8'), file);
}

/**
 * A development set of several sites in one JSON file: `{corpora: {<name>: [{q, pages, fact, kind,
 * style, unanswerable?}]}}`, each site's docs in `<folder>/<name>`. Returns `[{name, questions}]`,
 * each question as `parseQuestions` gives it plus its `kind` and `style` (short, medium, long).
 */
export function parseCorpora(text, name = 'corpora') {
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${name}: not JSON (${err.message})`);
  }
  if (!data || typeof data.corpora !== 'object') throw new Error(`${name}: needs {"corpora": {<name>: [questions]}}`);
  return Object.entries(data.corpora).map(([corpus, list]) => {
    const lines = list.map((q) => JSON.stringify({ question: q.q, pages: q.pages ?? [], fact: q.fact, unanswerable: q.unanswerable }));
    const questions = parseQuestions(lines.join('\n'), `${name}:${corpus}`);
    questions.forEach((q, i) => Object.assign(q, { kind: list[i].kind, style: list[i].style }));
    return { name: corpus, questions };
  });
}

export function loadCorpora(file) {
  return parseCorpora(readFileSync(file, 'utf8'), file);
}
