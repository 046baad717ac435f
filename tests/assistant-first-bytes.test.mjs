// The first bytes of an answer go out before retrieval ends (issue #13: streams that survive proxies
// and slow models). A worker of its own holds retrieval back (`TEST_RETRIEVAL_DELAY_MS`); each answer
// logs a `retrieval` line when retrieval has finished, so the order is read from the worker itself: when
// the client holds the answer's first part, that answer's retrieval line is not yet in the log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { logLines } from '../scripts/lib/worker-log.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const state = scratchDir('docs-edge-first-bytes-');
const logFile = join(state, 'worker.log');
let worker;
let t;

before(async () => {
  worker = await startWorker({
    persistTo: join(state, 'state'),
    logFile,
    vars: { ROOT_TOKEN, LINK_SIGNING_KEY: 'unused-here', TEST_RETRIEVAL_DELAY_MS: '2500' },
  });
  t = await tenant({ base: worker.baseUrl });
  const published = await publishFolder(t.domain, t.adminKey, undefined, { base: worker.baseUrl });
  assert.equal(published.status, 200, published.text);
});

after(async () => {
  await worker?.stop();
  rmSync(state, { recursive: true, force: true });
});

function retrievalLogged(requestId) {
  return logLines(logFile).some((l) => l.event === 'retrieval' && l.requestId === requestId);
}

/** Streams one answer; at its first chunk, records whether retrieval had already been logged. */
function ask(version) {
  const question = 'How do I start a static export?';
  const body = JSON.stringify({
    fp: 'anonymous',
    messages: [{ id: 'q1', role: 'user', content: question, parts: [{ type: 'text', text: question }] }],
  });
  return new Promise((resolve, reject) => {
    const req = request(`${worker.baseUrl}/discovery/${version}/assistant/${t.domain}/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
    }, (res) => {
      const requestId = res.headers['x-request-id'];
      const chunks = [];
      let retrievedAtFirstChunk;
      res.on('data', (chunk) => {
        if (chunks.length === 0) retrievedAtFirstChunk = retrievalLogged(requestId);
        chunks.push(chunk.toString('utf8'));
      });
      res.on('end', () => resolve({ status: res.statusCode, requestId, chunks, text: chunks.join(''), retrievedAtFirstChunk }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('v1: the start part arrives before retrieval has finished; the answer follows whole', async () => {
  const answer = await ask('v1');
  assert.equal(answer.status, 200);
  assert.equal(answer.retrievedAtFirstChunk, false, 'the first bytes went out before retrieval ended');
  assert.match(answer.chunks[0], /^f:\{"messageId":"msg_/, 'the first chunk starts with the start part');
  assert.ok(retrievalLogged(answer.requestId), 'retrieval ran, and logged its line');
  assert.match(answer.text, /\n0:"/, 'text parts follow');
  assert.match(answer.text, /\nd:\{"finishReason":"stop"/, 'and the finish part');
});

test('v2: the start chunk arrives before retrieval has finished; the answer follows whole', async () => {
  const answer = await ask('v2');
  assert.equal(answer.status, 200);
  assert.equal(answer.retrievedAtFirstChunk, false, 'the first bytes went out before retrieval ended');
  assert.match(answer.chunks[0], /^data: \{"type":"start","messageId":"msg_/, 'the first chunk is the start chunk');
  assert.ok(retrievalLogged(answer.requestId), 'retrieval ran, and logged its line');
  assert.match(answer.text, /"type":"source-url"/, 'sources follow');
  assert.match(answer.text, /data: \[DONE\]\n\n$/, 'and the end');
});
