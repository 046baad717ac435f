// What an unpacked export bundle measures: its page sizes, and what its offline search fetches in
// Chromium. No worker needed, so the benches use it too.
import { statSync } from 'node:fs';
import { join } from 'node:path';

/** Sizes of the page files of an unpacked bundle (`.html` outside `_static/`, without 404.html), ascending. */
export function pageSizes(dir, files) {
  return files
    .filter((f) => f.endsWith('.html') && !f.startsWith('_static/') && f !== '404.html')
    .map((f) => statSync(join(dir, f)).size)
    .sort((a, b) => a - b);
}

/**
 * Types `query` into the search box of an exported page open in `page` (Playwright) and waits for
 * results; returns their links and the bytes of every search file the page fetched for them.
 */
export async function offlineSearch(page, query) {
  const fetched = [];
  const onResponse = (res) => {
    if (new URL(res.url()).pathname.includes('/_static/search/')) {
      fetched.push(res.body().then((b) => ({ path: new URL(res.url()).pathname, bytes: b.length }), () => ({ path: res.url(), bytes: 0 })));
    }
  };
  await page.waitForFunction(() => !document.querySelector('.search-input').disabled);
  const input = page.locator('.search-input');
  await input.fill('');
  await page.waitForFunction(() => !document.querySelector('.search-results a'));
  page.on('response', onResponse);
  try {
    await input.fill(query);
    await page.waitForSelector('.search-results a', { timeout: 15_000 });
  } finally {
    page.off('response', onResponse);
  }
  const files = await Promise.all(fetched);
  const links = await page.locator('.search-results a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  return { links, files, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
}
