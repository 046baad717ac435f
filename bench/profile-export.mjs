#!/usr/bin/env node
// A CPU profile of a static export inside the builder script's isolate under wrangler dev, taken
// through the inspector (Chrome DevTools protocol): where an export's page batches spend their time,
// which workerd's clock (advancing only across I/O) cannot tell. Writes the profile (open it in
// Chrome DevTools' Performance panel) and prints the functions with the most self time.
// Build without wasm-opt first so wasm functions keep their names:
//   DOCS_EDGE_SKIP_WASM_OPT=1 node scripts/build-worker.mjs --force
//   node bench/profile-export.mjs [--copies 4] [--out export.cpuprofile]
// Node 22 has a WebSocket of its own; on Node 20 the `ws` package wrangler depends on is used.
import { rmSync, writeFileSync } from 'node:fs';
import { adminApi, benchWorker, DOMAIN, FIXTURE } from './support.mjs';
import { writeScaleSite } from '../scripts/lib/scale-site.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const copies = Number(option('--copies', '4'));
const out = option('--out', 'export.cpuprofile');

/** A DevTools protocol session on the inspector target whose title or URL names `match`. */
async function inspect(port, match) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  console.error('inspector targets:', targets.map((t) => `${t.title} ${t.webSocketDebuggerUrl}`).join(' | '));
  const target = targets.find((t) => `${t.title} ${t.url} ${t.id}`.includes(match)) ?? targets[0];
  const WebSocketClient = globalThis.WebSocket ?? (await import('ws')).default;
  const socket = new WebSocketClient(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve);
    socket.addEventListener('error', reject);
  });
  let next = 1;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  return {
    send(method, params = {}) {
      const id = next++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => pending.set(id, resolve));
    },
    close: () => socket.close(),
  };
}

/** Self time per function name, largest first. */
function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ticks = new Map();
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    ticks.set(id, (ticks.get(id) ?? 0) + dt);
  });
  const byName = new Map();
  for (const [id, us] of ticks) {
    const frame = byId.get(id).callFrame;
    const name = frame.functionName || `(anonymous ${frame.url.split('/').pop()}:${frame.lineNumber})`;
    byName.set(name, (byName.get(name) ?? 0) + us);
  }
  return [...byName].sort((a, b) => b[1] - a[1]);
}

const bench = await benchWorker({ vars: { MAX_UPLOAD_BYTES: String(128 << 20), MAX_SOURCE_BYTES: String(128 << 20) } });
try {
  const site = writeScaleSite(FIXTURE, copies);
  try {
    await bench.publish(site.dir);
  } finally {
    rmSync(site.dir, { recursive: true, force: true });
  }
  await bench.restart();
  const session = await inspect(bench.inspectorPort, option('--target', 'builder'));
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 500 });
  await session.send('Profiler.start');
  const started = performance.now();
  const job = await adminApi(bench, 'POST', '/v1/static-export/jobs', { domain: DOMAIN });
  let status = job;
  while (status.status === 'queued' || status.status === 'running') {
    await new Promise((r) => setTimeout(r, 500));
    status = await adminApi(bench, 'GET', `/v1/static-export/jobs/${job.jobId}`);
  }
  const elapsed = performance.now() - started;
  const { result } = await session.send('Profiler.stop');
  session.close();
  writeFileSync(out, JSON.stringify(result.profile));
  const total = result.profile.endTime - result.profile.startTime;
  console.log(`export ${status.status}: ${status.pageCount} pages in ${(elapsed / 1000).toFixed(1)} s; profile ${(total / 1e6).toFixed(1)} s written to ${out}`);
  for (const [name, us] of selfTimes(result.profile).slice(0, 60)) {
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name.slice(0, 140)}`);
  }
} finally {
  await bench.stop();
}
