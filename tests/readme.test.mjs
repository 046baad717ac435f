// README.md is a front page: at most 150 lines of at most 100 characters, and its links into docs/
// (the docs site) name files that exist, publishing, the widget, self-hosting and the API reference
// among them. Reads files only: no worker needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');
const lines = README.replace(/\n$/, '').split('\n');

test('README.md has at most 150 lines of at most 100 characters', () => {
  assert.ok(lines.length <= 150, `${lines.length} lines`);
  const long = lines.map((l, i) => [i + 1, [...l].length]).filter(([, n]) => n > 100);
  assert.deepEqual(long, [], 'lines over 100 characters: [line, length]');
});

test("README.md's links into docs/ resolve to files, and reach the four pages a newcomer needs", () => {
  const links = [...README.matchAll(/\]\((docs\/[^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]);
  assert.ok(links.length > 0, 'no links into docs/');
  const missing = links.filter((l) => !existsSync(fileURLToPath(new URL(l, ROOT))));
  assert.deepEqual(missing, []);
  for (const page of ['docs/publish/index.mdx', 'docs/assistant/widget.mdx', 'docs/self-hosting/serve.mdx', 'docs/api/index.mdx']) {
    assert.ok(links.includes(page), `README does not link ${page}`);
  }
});
