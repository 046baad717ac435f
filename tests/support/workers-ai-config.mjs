// wrangler configs for running the worker with its `AI` binding served by the mock in
// tests/support/mock-workers-ai: a copy of wrangler.toml that binds `AI` to the mock's RPC entrypoint
// (a real deployment writes `[ai] binding = "AI"` instead), and the mock's own config.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../scripts/lib/env.mjs';

/** Writes both configs into `dir` and returns their paths, the worker's first. */
export function workersAiConfigs(dir, llmMockUrl) {
  const base = readFileSync(join(root, 'wrangler.toml'), 'utf8')
    .replace(/^main = .*$/m, `main = ${JSON.stringify(join(root, 'worker/build/index.js'))}`)
    // Paths in wrangler.toml are relative to it; this copy lives elsewhere.
    .replace(/^directory = "(.*)"$/m, (_, dir) => `directory = ${JSON.stringify(join(root, dir))}`)
    // The worker is already built by npm test; a config outside the repository can't run the build.
    .replace(/^\[build\]\n(?:[^\[\n].*\n|\n)*/m, '');
  const worker = join(dir, 'wrangler.workers-ai.toml');
  writeFileSync(worker, `${base}\n[[services]]\nbinding = "AI"\nservice = "mock-workers-ai"\nentrypoint = "MockAi"\n`);
  const mock = join(dir, 'wrangler.mock-workers-ai.toml');
  writeFileSync(mock, [
    'name = "mock-workers-ai"',
    `main = ${JSON.stringify(join(root, 'tests/support/mock-workers-ai/index.js'))}`,
    'compatibility_date = "2025-09-01"',
    '[vars]',
    `LLM_MOCK_URL = ${JSON.stringify(llmMockUrl)}`,
    '',
  ].join('\n'));
  return [worker, mock];
}
