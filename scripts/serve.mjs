// `npm run serve`: docs-edge-serve with ./docs-edge-serve.toml. Checked here first because cargo would
// otherwise compile for minutes before the server says the file is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/env.mjs';

const config = join(root, 'docs-edge-serve.toml');
if (!existsSync(config) && !process.env.DOCS_EDGE_CONFIG) {
  console.error(
    'docs-edge-serve.toml is missing.\n' +
    '  cp docs-edge-serve.example.toml docs-edge-serve.toml   # then set static_export.bundle_url\n' +
    'See docs/self-hosting/serve.mdx for every key (or set DOCS_EDGE_CONFIG to another file).',
  );
  process.exit(1);
}
// DOCS_EDGE_CONFIG names another file; the server reads it when no --config is given.
const args = ['run', '--release', '-p', 'docs-edge-serve', '--', ...(process.env.DOCS_EDGE_CONFIG ? [] : ['--config', config])];
const result = spawnSync('cargo', args, { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
