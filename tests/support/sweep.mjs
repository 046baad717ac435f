// Runs a scratch worker's daily jobs (`startWorker({testScheduled: true})`) and reads what the storage
// sweep logged.
import assert from 'node:assert/strict';

/**
 * Triggers the cron with the text `cron` and answers how many objects the storage sweep deleted. Each
 * run needs its own cron text, echoed in its log line: the worker's output is kept only in part, so
 * lines are found by their run rather than counted.
 */
export async function runSweep(worker, cron) {
  const res = await fetch(`${worker.baseUrl}/__scheduled?cron=${encodeURIComponent(cron)}`);
  assert.equal(res.status, 200, await res.text());
  const mark = `"cron":${JSON.stringify(cron)}`;
  for (let i = 0; i < 100; i++) {
    const line = worker.output().split('\n').find((l) => l.includes('"job":"storage_retention"') && l.includes(mark));
    if (line) {
      const logged = JSON.parse(line.slice(line.indexOf('{')));
      assert.equal(logged.error, undefined, line);
      return logged.deleted;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the storage sweep logged nothing for ${cron}`);
}
