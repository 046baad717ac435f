// The repository's guide for its assistant (tests/fixtures/assistant-guide-docs: `.mintlify/Assistant.md`
// and two skills, plus one skill without a name): the instructions and the matching skill reach the
// LLM (the OpenAI-compatible stand-in), the extractive backend quotes the skill, and neither file is a
// page, a search hit, a line of llms.txt or a file of the export bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorker } from '../scripts/lib/worker-process.mjs';
import { ROOT_TOKEN, call, streamQuestion, tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles } from './support/export.mjs';
import { startLlmMock } from './support/llm-mock.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const GUIDE_DOCS = fileURLToPath(new URL('./fixtures/assistant-guide-docs', import.meta.url));
const INSTRUCTION = 'billing@harbor.example';
const ROTATE_SKILL = 'Revoke the leaked token first';
const WEBHOOK_SKILL = 'compare the signing secret';
const ROTATE_QUESTION = 'How do I rotate a leaked access token?';

let mock;
const workers = {};

before(async () => {
  mock = await startLlmMock();
  for (const name of ['extractive', 'openai']) {
    const state = scratchDir(`docs-edge-guide-${name}-`);
    const vars = name === 'openai'
      ? { ROOT_TOKEN, ASSISTANT_BACKEND: 'openai', LLM_BASE_URL: mock.baseUrl, LLM_API_KEY: 'sk-test-guide-0123456789', LLM_MODEL: 'guide-test-model' }
      : { ROOT_TOKEN, LINK_SIGNING_KEY: 'guide-test-link-signing-key' };
    const worker = await startWorker({ persistTo: state, vars });
    const t = await tenant({ base: worker.baseUrl });
    const published = await publishFolder(t.domain, t.adminKey, GUIDE_DOCS, { base: worker.baseUrl });
    assert.equal(published.status, 200, published.text);
    workers[name] = { worker, state, t, published: published.body };
  }
});

after(async () => {
  for (const { worker, state } of Object.values(workers)) {
    await worker.stop();
    rmSync(state, { recursive: true, force: true });
  }
  await mock?.close();
});

const ask = (name, question) => {
  const { worker, t } = workers[name];
  return streamQuestion({ base: worker.baseUrl, domain: t.domain, key: t.assistantKey, question });
};

/** The text parts of a v1 data stream, joined. */
const answerText = (stream) => stream.split('\n').filter((l) => l.startsWith('0:')).map((l) => JSON.parse(l.slice(2))).join('');

test('the guide files are not pages, and a skill without a name is a warning with file and line', () => {
  const site = workers.extractive.published;
  assert.equal(site.pageCount, 3, JSON.stringify(site));
  assert.ok(site.warnings.includes('.mintlify/assistant/skills/broken/skill.md:1: skill left out: its frontmatter has no `name`'), JSON.stringify(site.warnings));
});

test('no search finds the instructions or a skill, and llms.txt lists neither', async () => {
  const { worker, t } = workers.extractive;
  for (const query of ['rotate leaked access token', 'billing workspace', 'webhook signing secret', 'mintlify assistant skills']) {
    const res = await call('POST', `/discovery/v1/search/${t.domain}`, { token: t.assistantKey, json: { query }, base: worker.baseUrl });
    assert.equal(res.status, 200, res.text);
    for (const hit of res.body) {
      assert.ok(!hit.path.includes('mintlify') && !/assistant|skill/i.test(hit.path), `${query}: ${hit.path}`);
    }
    assert.ok(!res.text.includes(INSTRUCTION) && !res.text.includes(ROTATE_SKILL), `${query}: ${res.text}`);
  }
  for (const file of ['llms.txt', 'llms-full.txt']) {
    const res = await call('GET', `/discovery/v1/llms/${t.domain}/${file}`, { token: t.assistantKey, base: worker.baseUrl });
    assert.equal(res.status, 200, res.text);
    assert.match(res.text, /Access tokens/);
    for (const secret of ['.mintlify', INSTRUCTION, ROTATE_SKILL, 'Rotate access tokens']) {
      assert.ok(!res.text.includes(secret), `${file} carries ${secret}`);
    }
  }
});

test('the extractive answer quotes the matching skill, cites no page for it, and stays grounded elsewhere', async () => {
  const res = await ask('extractive', ROTATE_QUESTION);
  assert.equal(res.status, 200);
  const text = answerText(res.text);
  assert.match(text, new RegExp(ROTATE_SKILL), text);
  assert.ok(!text.includes(']()'), `a skill is named, never linked: ${text}`);
  assert.ok(!text.includes(WEBHOOK_SKILL), text);
  const pages = answerText((await ask('extractive', 'Which scopes can a token carry?')).text);
  assert.match(pages, /`read`, `write` or `admin`/, pages);
  assert.ok(!pages.includes(ROTATE_SKILL), pages);
});

test('the LLM gets the instructions after the rules, and only the matching skill', async () => {
  const before = mock.requests.length;
  const res = await ask('openai', ROTATE_QUESTION);
  assert.equal(res.status, 200);
  const sent = mock.requests.slice(before).at(-1).body;
  const system = sent.messages[0];
  assert.equal(system.role, 'system');
  const rules = system.content.indexOf('Answer the user\'s question using only');
  assert.ok(rules >= 0 && system.content.indexOf(INSTRUCTION) > rules, system.content);
  const question = sent.messages.at(-1).content;
  assert.ok(question.includes(ROTATE_SKILL), question);
  assert.ok(!question.includes(WEBHOOK_SKILL), question);
  assert.ok(question.indexOf(ROTATE_SKILL) < question.indexOf('Documentation passages:'), question);

  const next = mock.requests.length;
  await ask('openai', 'My webhook deliveries never arrive');
  const webhooks = mock.requests.slice(next).at(-1).body;
  const asked = webhooks.messages.at(-1).content;
  assert.ok(asked.includes(WEBHOOK_SKILL) && !asked.includes(ROTATE_SKILL), asked);
  assert.ok(webhooks.messages[0].content.includes(INSTRUCTION));
});

test('the export bundle carries neither the instructions nor a skill', async () => {
  const { worker, t } = workers.extractive;
  const start = await startExport(t.adminKey, { domain: t.domain }, worker.baseUrl);
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId, { base: worker.baseUrl });
  assert.equal(job.status, 'completed', JSON.stringify(job));
  const link = await requestBundle(t.adminKey, job.jobId, worker.baseUrl);
  assert.equal(link.status, 200, link.text);
  const { dir } = await downloadBundle(link.body.bundleUrl);
  const files = listFiles(dir);
  assert.ok(files.some((f) => f.startsWith('tokens')), files.join(' '));
  assert.deepEqual(files.filter((f) => /mintlify|assistant|skill/i.test(f)), []);
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    for (const secret of [INSTRUCTION, ROTATE_SKILL, WEBHOOK_SKILL]) {
      assert.ok(!bytes.includes(secret), `${file} carries ${secret}`);
    }
  }
});
