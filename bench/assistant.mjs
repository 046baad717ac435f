#!/usr/bin/env node
// Assistant v1 latency with the extractive backend on a published docs folder (default: the fixture):
// time to the first text byte (`0:` part) and total time, p50/p99, for 1 and 16 concurrent clients,
// beside /health on the same run and at the same concurrency, with analytics off and on (each answer's
// row is written to D1 after its stream closes: this shows what that costs). Prints figures; asserts nothing.
//   node bench/assistant.mjs [docs folder] [requests per client]
import { benchWorker, docsFolder, DOMAIN, ms, pct, timeAnswer } from './support.mjs';

const folder = docsFolder(process.argv[2]);
const PER_CLIENT = Number(process.argv[3] ?? 20);
const QUESTIONS = [
  'How do I set up a custom domain?', 'How do I start a static export?', 'What is the rate limit of the assistant API?',
  'How do I add redirects?', 'Can I hide a page from the sidebar?', 'How do I add an OpenAPI playground?',
  'How do I export analytics as CSV?', 'How do I configure single sign-on?', 'What does the bundle URL expire after?',
  'How do I add a changelog?',
];

/** One question over raw HTTP; times the first byte of the first text part and the end of the stream. */
async function ask(bench, question, client) {
  const started = performance.now();
  const res = await fetch(`${bench.baseUrl}/discovery/v1/assistant/${DOMAIN}/message`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bench.assistantKey}`,
      'content-type': 'application/json',
      // One address per simulated client, as real traffic has: the per-IP limit is not what is measured.
      'cf-connecting-ip': `198.51.100.${client + 1}`,
    },
    body: JSON.stringify({ fp: 'bench', messages: [{ id: 'm1', role: 'user', content: question, parts: [{ type: 'text', text: question }] }] }),
  });
  if (!res.ok) throw new Error(`assistant answered ${res.status}: ${await res.text()}`);
  return timeAnswer(res, started);
}

async function health(bench) {
  const t = performance.now();
  await (await fetch(`${bench.baseUrl}/health`)).arrayBuffer();
  return performance.now() - t;
}

/** `clients` loops run at once, each sending `PER_CLIENT` requests one after another. */
async function level(clients, request) {
  const results = [];
  await Promise.all(Array.from({ length: clients }, async (_, client) => {
    for (let i = 0; i < PER_CLIENT; i++) results.push(await request(client, i));
  }));
  return results;
}

const summary = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return `p50 ${ms(pct(sorted, 0.5))}, p99 ${ms(pct(sorted, 0.99))}`;
};

for (const analytics of ['false', 'true']) {
  const bench = await benchWorker({ vars: { FEATURE_ANALYTICS: analytics, ANALYTICS_SALT: 'bench-salt' } });
  try {
    console.log(`\n== FEATURE_ANALYTICS=${analytics}`);
    console.log(`docs folder: ${folder}`);
    console.log(`published in ${(await bench.publish(folder)).toFixed(0)} ms; ${PER_CLIENT} requests per client; extractive backend`);
    await ask(bench, 'warm up the isolate caches', 0);
    for (const clients of [1, 16]) {
      const answers = await level(clients, (client, i) => ask(bench, QUESTIONS[(client + i) % QUESTIONS.length], client));
      const healthTimes = await level(clients, () => health(bench));
      console.log(`${clients} client${clients > 1 ? 's' : ''} (${answers.length} answers):`);
      console.log(`  first text byte ${summary(answers.map((a) => a.firstText))}`);
      console.log(`  total           ${summary(answers.map((a) => a.total))}`);
      console.log(`  /health         ${summary(healthTimes)}`);
    }
  } finally {
    await bench.stop();
  }
}
