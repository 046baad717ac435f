// Personal data is never stored verbatim: a question, a resumable question, a feedback comment and an
// exported page's search full of it leave only masked text in D1 (answers, feedback, events), in the
// thread's Durable Object, in the resumable answer's journal, in the conversations CSV and in the
// worker's log. The shared worker runs with PRIVACY_MASK_PATTERNS = "cust_*" (scripts/test.mjs).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_URL, call, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { nodeBin, root, toolEnv } from '../scripts/lib/env.mjs';
import { ANALYTICS_DATABASE } from '../scripts/lib/worker-process.mjs';
import { reportWhen } from './support/analytics.mjs';

const QUESTION = 'How do I publish as jane.doe@example.com? Card 4111 1111 1111 1111, key svc_0123456789abcdef, '
  + 'from 192.0.2.146 or 2001:db8::42, account cust_998877, IBAN DE89 3704 0044 0532 0130 00.';
const RESUMABLE = 'Can priya@example.org publish from 198.51.100.223 with Bearer abcdef123456789?';
const COMMENT = 'Call me on +44 20 7946 0958 or write to jane.doe@example.com';
const SEARCH = 'reset mo@example.net';
/** What readers wrote that must not be stored anywhere. */
const ORIGINALS = [
  'jane.doe@example.com', '4111 1111 1111 1111', 'svc_0123456789abcdef', '192.0.2.146', '2001:db8::42', 'cust_998877',
  'DE89 3704', 'priya@example.org', '198.51.100.223', 'abcdef123456789', '7946 0958', 'mo@example.net',
];

let t;
const seen = {};

const chunks = (text) => text.split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));

async function ask(text, extra = {}) {
  const res = await fetch(`${BASE_URL}/discovery/v2/assistant/${t.domain}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'visitor-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }], ...extra }),
  });
  assert.equal(res.status, 200);
  const body = await res.text();
  const start = chunks(body).find((c) => c.type === 'start');
  assert.ok(chunks(body).some((c) => c.type === 'finish'), body);
  return { threadId: res.headers.get('x-thread-id'), messageId: start.messageId, body };
}

/** Rows of the local D1 database, through wrangler. */
function d1(sql) {
  const result = spawnSync(join(nodeBin, 'wrangler'), [
    'd1', 'execute', ANALYTICS_DATABASE, '--local', '--persist-to', process.env.TEST_STATE_DIR, '--json', '--command', sql,
  ], { cwd: root, env: toolEnv({ CI: '1', FORCE_COLOR: '0' }), encoding: 'utf8' });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout)[0].results;
}

function assertMasked(place, text, labels) {
  for (const original of ORIGINALS) assert.ok(!text.includes(original), `${original} in ${place}: ${text}`);
  for (const label of labels) assert.ok(text.includes(label), `no ${label} in ${place}: ${text}`);
}

before(async () => {
  t = await tenant();
  assert.equal((await publishFolder(t.domain, t.adminKey)).status, 200);
  seen.plain = await ask(QUESTION);
  const chatId = `chat${Date.now().toString(36)}`;
  seen.resumable = await ask(RESUMABLE, { id: chatId, resumable: true });
  seen.resumed = await fetch(`${BASE_URL}/discovery/v2/assistant/${t.domain}/message/${chatId}/stream`, {
    headers: { authorization: `Bearer ${t.assistantKey}` },
  });
  const rated = await call('POST', `/discovery/v1/assistant/${t.domain}/feedback`, {
    token: t.assistantKey, json: { threadId: seen.plain.threadId, messageId: seen.plain.messageId, rating: 'down', comment: COMMENT },
  });
  assert.equal(rated.status, 200, rated.text);
  const beacon = await call('POST', `/discovery/v1/analytics/${t.domain}/events`, {
    body: JSON.stringify({ events: [{ type: 'search', path: '/index.html', query: SEARCH, resultCount: 0 }] }),
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
  });
  assert.equal(beacon.status, 204);
  await reportWhen(t.domain, t.adminKey, (r) => r.totals.questions === 2 && r.totals.searches === 1);
}, { timeout: 120_000 });

test('D1 holds only masked questions, grouping keys, comments and searches', () => {
  const where = `WHERE domain = '${t.domain}'`;
  const answers = d1(`SELECT question, question_key, answer FROM answers ${where}`);
  assert.equal(answers.length, 2);
  const feedback = d1(`SELECT comment FROM feedback ${where}`);
  const events = d1(`SELECT query, query_key FROM events ${where}`);
  assertMasked('D1 answers', JSON.stringify(answers), ['[email]', '[card]', '[secret]', '[ip]', '[masked]', '[iban]']);
  assert.ok(answers.some((a) => a.question_key.startsWith('how do i publish as email card card key secret')), JSON.stringify(answers));
  assertMasked('D1 feedback', JSON.stringify(feedback), ['[phone]', '[email]']);
  assertMasked('D1 events', JSON.stringify(events), ['[email]']);
  assert.deepEqual(events, [{ query: 'reset [email]', query_key: 'reset email' }]);
});

test('the threads and the resumable answer\'s journal hold only masked text', async () => {
  for (const answer of [seen.plain, seen.resumable]) {
    const thread = await call('GET', `/v1/threads/${answer.threadId}`, { token: t.adminKey });
    assert.equal(thread.status, 200, thread.text);
    assertMasked('the thread', thread.text, ['[email]', '[ip]']);
  }
  // The journal is what a resuming reader is sent: the answer's bytes, never the question.
  assert.equal(seen.resumed.status, 200);
  const journal = await seen.resumed.text();
  assert.ok(chunks(journal).some((c) => c.type === 'finish'), journal);
  assertMasked('the journal', journal, []);
});

test('the conversations CSV and the worker log hold only masked text', async () => {
  const csv = await call('GET', `/v1/analytics/${t.domain}/conversations.csv`, { token: t.adminKey });
  assert.equal(csv.status, 200);
  assertMasked('the CSV', csv.text, ['[email]', '[card]', '[secret]', '[ip]', '[masked]', '[iban]']);
  assertMasked('the worker log', readFileSync(process.env.WORKER_LOG, 'utf8'), []);
});
