// Answer feedback and analytics against the worker and its local D1: a scripted set of questions,
// ratings, page views and searches gives exact report numbers and CSV rows; bad input is refused with
// nothing stored; the retention job (the `scheduled` handler, run through /__scheduled) deletes old rows.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BASE_URL, call, assertError, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { nodeBin, root, toolEnv } from '../scripts/lib/env.mjs';
import { ANALYTICS_DATABASE } from '../scripts/lib/worker-process.mjs';
import { parseCsv } from './support/csv.mjs';
import { reportWhen as reportWhenReady } from './support/analytics.mjs';

let t; // the tenant under test, demo docs published
let other; // another organization, for the 404s

/** One v2 answer over raw HTTP: the thread id (header) and the message id (the `start` chunk). */
async function ask(question, threadId) {
  const res = await fetch(`${BASE_URL}/discovery/v2/assistant/${t.domain}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      fp: 'visitor-1',
      ...(threadId ? { threadId } : {}),
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: question }] }],
    }),
  });
  assert.equal(res.status, 200);
  const chunks = (await res.text()).split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
  const start = chunks.find((c) => c.type === 'start');
  assert.ok(start?.messageId, 'the start chunk names the answer');
  assert.ok(chunks.some((c) => c.type === 'finish'), 'the answer finished');
  const finish = chunks.find((c) => c.type === 'finish');
  return {
    threadId: res.headers.get('x-thread-id'),
    messageId: start.messageId,
    sources: chunks.filter((c) => c.type === 'source-url'),
    uncertain: finish?.messageMetadata?.uncertain === true,
  };
}

const rate = (json, key = t.assistantKey, domain = t.domain) =>
  call('POST', `/discovery/v1/assistant/${domain}/feedback`, { token: key, json });
const report = (query = '') => call('GET', `/v1/analytics/${t.domain}${query}`, { token: t.adminKey });
const beacon = (events, headers = {}) =>
  call('POST', `/discovery/v1/analytics/${t.domain}/events`, {
    body: JSON.stringify({ events }),
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
  });

const reportWhen = (ready) => reportWhenReady(t.domain, t.adminKey, ready);

function sqlite(sql) {
  const result = spawnSync(join(nodeBin, 'wrangler'), [
    'd1', 'execute', ANALYTICS_DATABASE, '--local', '--persist-to', process.env.TEST_STATE_DIR, '--command', sql,
  ], { cwd: root, env: toolEnv({ CI: '1', FORCE_COLOR: '0' }), encoding: 'utf8' });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
}

const answers = {};

before(async () => {
  [t, other] = await Promise.all([tenant(), tenant()]);
  assert.equal((await publishFolder(t.domain, t.adminKey)).status, 200);
  assert.equal((await publishFolder(other.domain, other.adminKey)).status, 200);
  // Three wordings of one question (three conversations), a follow-up in the first conversation,
  // a question the docs do not cover, and one they answer only with the closest passage.
  answers.first = await ask('How do I publish my docs?');
  answers.followUp = await ask('What are the rate limits?', answers.first.threadId);
  answers.second = await ask('how do I publish my docs');
  answers.third = await ask('How do I PUBLISH my docs??');
  answers.gap = await ask('Zyxwvut quantum pottery glaze recipe');
  answers.hedged = await ask('Can I schedule a publish to run every night?');
  assert.equal(answers.gap.sources.length, 0, 'the uncovered question cites nothing');
  assert.ok(answers.first.sources.length > 0);
  assert.equal(answers.hedged.uncertain, true, 'the scheduling question gets the closest passage, said so');
  await reportWhen((r) => r.totals.questions === 6);
}, { timeout: 120_000 });

test('feedback: one rating per answer, the later one wins; other organizations get 404', async () => {
  const up = await rate({ threadId: answers.first.threadId, messageId: answers.first.messageId, rating: 'up' });
  assert.equal(up.status, 200, up.text);
  assert.equal(up.body.rating, 'up');
  const down = await rate({ threadId: answers.first.threadId, messageId: answers.first.messageId, rating: 'down', comment: 'Too short' });
  assert.equal(down.status, 200, down.text);
  const again = await rate({ threadId: answers.second.threadId, messageId: answers.second.messageId, rating: 'up' });
  assert.equal(again.status, 200, again.text);

  // Another organization's key, on its own domain, naming this organization's thread and message.
  const foreign = await rate({ threadId: answers.first.threadId, messageId: answers.first.messageId, rating: 'up' }, other.assistantKey, other.domain);
  assertError(foreign, 404, 'not_found');
  // A real message, named with the wrong thread.
  const mismatched = await rate({ threadId: answers.first.threadId, messageId: answers.second.messageId, rating: 'up' });
  assertError(mismatched, 404, 'not_found');
  assertError(await rate({ threadId: 'thr_nope', messageId: answers.first.messageId, rating: 'up' }), 404, 'not_found');
});

test('bad input is refused naming the field, and nothing is stored', async () => {
  const target = { threadId: answers.third.threadId, messageId: answers.third.messageId };
  const unknown = await rate({ ...target, rating: 'meh' });
  assertError(unknown, 400, 'invalid_request');
  assert.match(unknown.body.error, /^rating: must be one of up, down/);
  const long = await rate({ ...target, rating: 'up', comment: 'x'.repeat(2001) });
  assertError(long, 400, 'invalid_request');
  assert.match(long.body.error, /^comment: must be at most 2000 characters/);
  for (const [query, field] of [['?from=2026-02-30', 'from'], ['?to=yesterday', 'to'], ['?from=2026-03-02&to=2026-03-01', 'to']]) {
    const res = await report(query);
    assertError(res, 400, 'invalid_request');
    assert.ok(res.body.error.startsWith(`${field}:`), res.body.error);
  }
  const badEvent = await beacon([{ type: 'click', path: '/' }]);
  assertError(badEvent, 400, 'invalid_request');
  assert.match(badEvent.body.error, /^events\[0\]\.type:/);
  // The third answer stays unrated: the CSV below shows it so.
});

test('the report counts exactly what happened', { timeout: 60_000 }, async () => {
  // Two views of one page, one of another, a search with no results, and one view sent with DNT.
  for (const events of [
    [{ type: 'pageview', path: '/quickstart.html' }],
    [{ type: 'pageview', path: '/quickstart.html' }, { type: 'search', path: '/quickstart.html', query: 'Kubernetes', resultCount: 0 }],
    [{ type: 'pageview', path: '/index.html' }, { type: 'search', path: '/index.html', query: 'publish', resultCount: 3 }],
  ]) {
    assert.equal((await beacon(events)).status, 204);
  }
  assert.equal((await beacon([{ type: 'pageview', path: '/index.html' }], { dnt: '1' })).status, 204);
  assert.equal((await beacon([{ type: 'pageview', path: '/index.html' }], { 'sec-gpc': '1' })).status, 204);

  const r = await reportWhen((r) => r.totals.pageViews >= 3 && r.totals.searches >= 2);
  assert.deepEqual(r.totals, { conversations: 5, questions: 6, unanswered: 1, uncertain: 1, feedbackUp: 1, feedbackDown: 1, searches: 2, pageViews: 3, supportShown: 0, supportFollowed: 0 });
  assert.equal(r.days.length, 30);
  const today = r.days.at(-1);
  assert.equal(today.day, new Date().toISOString().slice(0, 10));
  assert.deepEqual(
    { conversations: today.conversations, questions: today.questions, up: today.feedbackUp, down: today.feedbackDown },
    { conversations: 5, questions: 6, up: 1, down: 1 },
  );
  assert.equal(r.topQuestions[0].count, 3, JSON.stringify(r.topQuestions));
  assert.match(r.topQuestions[0].question, /publish my docs/i);
  // The newest first among equal counts: the hedged answer's question, then the unanswered one.
  assert.deepEqual(r.coverageGaps, [
    { question: 'Can I schedule a publish to run every night?', count: 1 },
    { question: 'Zyxwvut quantum pottery glaze recipe', count: 1 },
  ]);
  assert.ok(r.topCitedPages.length > 0 && r.topCitedPages.every((p) => p.count >= 1));
  assert.deepEqual(r.zeroResultSearches, [{ query: 'Kubernetes', count: 1 }]);
  assert.deepEqual(r.pageViews, [{ path: 'quickstart', count: 2 }, { path: 'index', count: 1 }]);
  assert.ok(Number.isInteger(r.firstByteMs.p50) && r.firstByteMs.p95 >= r.firstByteMs.p50);
  // Another organization's admin key cannot read it.
  assertError(await call('GET', `/v1/analytics/${t.domain}`, { token: other.adminKey }), 404, 'not_found');
});

test('the conversations CSV parses to one row per answered question', async () => {
  const res = await fetch(`${BASE_URL}/v1/analytics/${t.domain}/conversations.csv`, { headers: { authorization: `Bearer ${t.adminKey}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/csv/);
  const [header, ...rows] = parseCsv(await res.text());
  assert.deepEqual(header, ['conversation_id', 'time', 'question', 'answer', 'sources', 'rating']);
  assert.equal(rows.length, 6);
  const byQuestion = Object.fromEntries(rows.map((r) => [r[2], r]));
  const first = byQuestion['How do I publish my docs?'];
  assert.equal(first[0], answers.first.threadId);
  assert.equal(first[5], 'down');
  assert.ok(first[3].length > 0 && first[4].length > 0);
  assert.equal(byQuestion['how do I publish my docs'][5], 'up');
  assert.equal(byQuestion['How do I PUBLISH my docs??'][5], '');
  assert.equal(byQuestion['Zyxwvut quantum pottery glaze recipe'][4], '');
  assert.ok(rows.every((r) => !Number.isNaN(Date.parse(r[1]))));
});

test('the retention job deletes rows older than ANALYTICS_RETENTION_DAYS and keeps the rest', async () => {
  // Rows from 2020, written straight into the local database as if they had aged there.
  const old = Date.UTC(2020, 0, 2);
  sqlite(
    `INSERT INTO events (org_id, domain, created_at, day, kind, path) VALUES ('${t.org.orgId}', '${t.domain}', ${old}, '2020-01-02', 'pageview', 'old-page');` +
    `INSERT INTO feedback (message_id, thread_id, org_id, domain, rating, created_at, day) VALUES ('msg_old_${t.org.orgId}', 'thr_old', '${t.org.orgId}', '${t.domain}', 'up', ${old}, '2020-01-02');` +
    // The answer rows hold questions and answer text: the rows retention matters most for.
    `INSERT INTO answers (message_id, thread_id, org_id, domain, created_at, day, question, question_key, answer, scores, sources, found, backend, first_byte_ms, total_ms, fingerprint, new_thread) VALUES ('msg_old_${t.org.orgId}', 'thr_old', '${t.org.orgId}', '${t.domain}', ${old}, '2020-01-02', 'An old question?', 'an old question', 'An old answer.', '[]', '[]', 0, 'extractive', 5, 9, NULL, 1);`,
  );
  const window = '?from=2020-01-01&to=2020-01-03';
  const before = (await report(window)).body.totals;
  assert.deepEqual([before.pageViews, before.feedbackUp, before.questions], [1, 1, 1]);
  const csv = (range) => call('GET', `/v1/analytics/${t.domain}/conversations.csv${range}`, { token: t.adminKey });
  assert.match((await csv(window)).text, /An old question\?/);

  const res = await fetch(`${BASE_URL}/__scheduled?cron=${encodeURIComponent('17 3 * * *')}`);
  assert.equal(res.status, 200, await res.text());

  const after = (await report(window)).body.totals;
  assert.deepEqual([after.pageViews, after.feedbackUp, after.questions], [0, 0, 0]);
  assert.doesNotMatch((await csv(window)).text, /An old question/);
  const recent = (await report()).body.totals;
  assert.equal(recent.questions, 6);
  assert.equal(recent.pageViews, 3);
});
