// The browser's tokenizer (core/src/export/static/site.js, between its analyzer:begin and
// analyzer:end markers) against the OfflineShard vectors the crate's text::tests check on the Rust
// side (core/src/text/vectors.json). Needs no worker: the block runs in a bare vm context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = fileURLToPath(new URL('..', import.meta.url));
const siteJs = readFileSync(`${root}core/src/export/static/site.js`, 'utf8');
const vectors = JSON.parse(readFileSync(`${root}core/src/text/vectors.json`, 'utf8'));

/** The analyzer block of site.js, evaluated alone: it must not reach for the page. */
function loadTokens() {
  const begin = siteJs.indexOf('// analyzer:begin');
  const end = siteJs.indexOf('// analyzer:end');
  assert.ok(begin >= 0 && end > begin, 'site.js marks its analyzer block');
  const block = siteJs.slice(begin, end);
  const context = vm.createContext({});
  return vm.runInContext(`${block}\ntokens;`, context, { filename: 'site.js#analyzer' });
}

test('site.js tokenizes the OfflineShard vectors as the Rust analyzer does', () => {
  const tokens = loadTokens();
  assert.equal(typeof tokens, 'function');
  assert.ok(vectors.offline_shard.length > 10);
  for (const { name, text, terms } of vectors.offline_shard) {
    // Through JSON: the vm context's arrays are another realm's.
    assert.deepEqual(JSON.parse(JSON.stringify(tokens(text))), terms, name);
  }
});

test('site.js calls the block\'s tokenizer for queries', () => {
  assert.match(siteJs, /words = tokens\(q\)/);
});
