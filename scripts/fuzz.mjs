#!/usr/bin/env node
// `npm run fuzz -- --seconds N [--cases C] [target ...]`: runs each proptest fuzz target (the `fuzz_*`
// host tests of docs-edge-core and docs-edge-sdk) for about N seconds (default 60), in rounds of C
// cases (default 2000) with a fresh random seed each round, and prints cases run and failures per
// target. `npm test` runs the same targets with their small default case counts, built with the same
// features (scripts/lib/host-tests.mjs: docs-edge-core with Mermaid's renderer).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { root, toolEnv } from './lib/env.mjs';
import { cargoPackages } from './lib/host-tests.mjs';

const TARGETS = [
  ['docs-edge-core', 'fuzz::requests::fuzz_request_validators'],
  ['docs-edge-core', 'fuzz::streams::fuzz_data_stream_decoder'],
  ['docs-edge-core', 'fuzz::streams::fuzz_ui_stream_decoder'],
  ['docs-edge-sdk', 'decoder_fuzz::fuzz_sdk_stream_decoder'],
  ['docs-edge-core', 'fuzz::archive::fuzz_docs_archive_reader'],
  ['docs-edge-core', 'fuzz::archive::fuzz_docs_archive_reader_raw'],
  ['docs-edge-core', 'fuzz::config::fuzz_docs_json'],
  ['docs-edge-core', 'fuzz::config::fuzz_frontmatter'],
  ['docs-edge-core', 'export::render::render_fuzz::fuzz_mdx_renderer'],
  ['docs-edge-core', 'export::render::render_fuzz::fuzz_redirect_stubs'],
  ['docs-edge-core', 'export::render::diagram_fuzz::fuzz_mermaid_diagrams'],
  ['docs-edge-core', 'fuzz::ranges::fuzz_byte_range'],
  ['docs-edge-core', 'fuzz::analytics::fuzz_analytics_events'],
  ['docs-edge-core', 'fuzz::analytics::fuzz_feedback'],
  ['docs-edge-core', 'fuzz::analytics::fuzz_day_range'],
  ['docs-edge-core', 'fuzz::mcp::fuzz_mcp_body'],
  ['docs-edge-core', 'fuzz::domains::fuzz_domain'],
];

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const seconds = option('seconds', 60);
const cases = option('cases', 2000);
const wanted = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const targets = TARGETS.filter(([, name]) => wanted.length === 0 || wanted.some((w) => name.includes(w)));

// Build once; every round then only runs the test binary.
for (const pkg of new Set(targets.map(([p]) => p))) {
  const built = spawnSync('cargo', ['test', ...cargoPackages([pkg]), '--lib', '--no-run', '--quiet'], { cwd: root, env: toolEnv(), stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}

let failed = 0;
for (const [pkg, name] of targets) {
  const until = Date.now() + seconds * 1000;
  let rounds = 0;
  let failure = null;
  do {
    const seed = randomBytes(6).readUIntBE(0, 6);
    const run = spawnSync('cargo', ['test', ...cargoPackages([pkg]), '--lib', '--quiet', name, '--', '--exact'], {
      cwd: root,
      env: toolEnv({ PROPTEST_CASES: String(cases), PROPTEST_RNG_SEED: String(seed) }),
      encoding: 'utf8',
    });
    // `--exact` with a name no test has runs nothing and passes: a renamed module must fail here.
    if (run.status === 0 && !/\b1 passed\b/.test(run.stdout)) {
      failure = `no test is named ${name}`;
      break;
    }
    if (run.status !== 0) {
      const lines = (run.stdout + run.stderr).split('\n');
      const found = lines.filter((l) => /minimal failing|panicked|Test failed/.test(l));
      failure = `PROPTEST_RNG_SEED=${seed}\n${(found.length ? found : lines.slice(-20)).join('\n') || `exit status ${run.status}`}`;
      break;
    }
    rounds += 1;
  } while (Date.now() < until);
  console.log(`${name}: ${rounds * cases} cases${failure !== null ? `, FAILED\n${failure}` : ', no failures'}`);
  if (failure !== null) failed += 1;
}
process.exit(failed ? 1 : 0);
