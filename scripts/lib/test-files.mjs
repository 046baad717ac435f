// Runs the integration test files, each in its own `node --test` process, a few at a time, and times
// each one. A file's output is printed whole when it ends, so two files never interleave. Files that
// read the shared worker's log or trigger its cron handlers (`serial`) run alone: another file's
// requests would show in what they read.
import { spawn } from 'node:child_process';
import { basename } from 'node:path';

/**
 * Runs `files` with at most `concurrency` at once, `serial` ones with nothing beside them. Returns
 * one `{file, seconds, ok, pass, fail, skipped}` per file, in the order they ended.
 */
export async function runTestFiles(files, { concurrency, serial, env, cwd }) {
  const queue = [...files];
  const running = new Set();
  const results = [];
  let serialRunning = false;
  return new Promise((resolve) => {
    const pump = () => {
      while (queue.length > 0 && !serialRunning) {
        const next = queue.findIndex((file) => !serial.has(basename(file)) || running.size === 0);
        if (next < 0 || running.size >= concurrency) break;
        const [file] = queue.splice(next, 1);
        if (serial.has(basename(file))) serialRunning = true;
        const job = runOne(file, { env, cwd }).then((result) => {
          running.delete(job);
          if (serial.has(basename(file))) serialRunning = false;
          results.push(result);
          report(result, results.length, files.length);
          if (queue.length === 0 && running.size === 0) resolve(results);
          else pump();
        });
        running.add(job);
      }
    };
    if (files.length === 0) resolve(results);
    else pump();
  });
}

function runOne(file, { env, cwd }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    let done = false;
    const finish = (code) => {
      if (done) return;
      done = true;
      const count = (label) => Number(output.match(new RegExp(`^ℹ ${label} (\\d+)$`, 'm'))?.[1] ?? 0);
      const fail = count('fail') + count('cancelled');
      resolve({
        file, output, seconds: (Date.now() - started) / 1000,
        ok: code === 0 && fail === 0, pass: count('pass'), fail: code === 0 ? fail : Math.max(fail, 1), skipped: count('skipped'),
      });
    };
    // 'close' comes once the pipes are drained, so the summary lines are read; a grandchild left
    // holding them must not hang the run, so 'exit' finishes it a few seconds later anyway.
    child.on('close', finish);
    child.on('exit', (code) => setTimeout(() => finish(code), 5000).unref());
    child.on('error', (err) => {
      output += `${err.stack}\n`;
      finish(1);
    });
  });
}

function report(result, done, total) {
  const status = result.ok ? 'ok' : 'FAILED';
  console.log(`\n--- ${result.file}: ${status} in ${result.seconds.toFixed(1)} s (${result.pass} passed, ${result.fail} failed, ${result.skipped} skipped; ${done} of ${total} files)`);
  process.stdout.write(result.output);
}
