// What a reader sees of math, views and audience-specific content in an export, in headless
// Chromium (issue 29, points 5 and 9): `$…$`, `$$…$$` and `<Latex>` as native MathML with no LaTeX
// source left in the visible text (prices keep their dollars), `View` panels behind a selector
// (all titled without script), `Visibility for="agents"` text only in the Markdown twin and
// llms-full.txt; a remote embed and remote images (Markdown, and `<img>` in a `<Frame>`) as
// click-to-load placeholders naming their host, which request nothing from it before the click; and ```mermaid blocks as SVG drawings with text labels,
// named by their title or kind, every label inside the drawing, a clickable node a working link.
// On a page written for the purpose.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tenant } from './support/api.mjs';
import { publishFolder } from './support/docs.mjs';
import { startExport, waitForJob, requestBundle, downloadBundle, listFiles, readFile } from './support/export.mjs';
import { launchChromium, serveFolder } from './support/browser.mjs';
import { axeViolations } from './support/widget.mjs';
import { openPage as openIn } from './support/export-pages.mjs';
import { scratchDir } from '../scripts/lib/scratch.mjs';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'export-media');

const PURPOSE = {
  'docs.json': JSON.stringify({ name: 'Media Test', colors: { primary: '#2563eb' }, navigation: { pages: ['index', 'guide'] } }, null, 2),
  'guide.mdx': '---\ntitle: The guide\n---\n\nWhere a diagram\'s node leads.\n',
  'index.mdx': [
    '---', 'title: Math and views', '---',
    'The Pythagorean theorem states that $(a^2 + b^2 = c^2)$ in a right triangle, and $\\frac{a}{b}$ is a fraction.',
    '$$\n{n \\choose k} = \\frac{n!}{k!(n-k)!}\n$$',
    '<Latex>\\int_0^1 x^2 \\, dx = \\frac{1}{3}</Latex>',
    'Inline <Latex>\\sqrt{x}</Latex> too. The plan costs $5 and $10, or $5-$10 a month.',
    '<View title="JavaScript" icon="js">\n\nOnly for JavaScript readers.\n\n```javascript\nconsole.log("js");\n```\n\n</View>',
    '<View title="Python" icon="python">\n\nOnly for Python readers.\n\n```python\nprint("py")\n```\n\n</View>',
    '<Visibility for="humans">\n\nClick **Get started** in the corner.\n\n</Visibility>',
    '<Visibility for="agents">\n\nAgents call `POST /v1/accounts` instead.\n\n</Visibility>',
    '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="Product tour" width="560" height="315"></iframe>',
    'Traffic over a week: ![Weekly traffic](https://cdn.example.com/charts/traffic.png) as the dashboard draws it.',
    '<Frame caption="The dashboard">\n  <img src="https://cdn.example.com/shots/dashboard.png" alt="The dashboard" width="320" height="200" />\n</Frame>',
    '```mermaid\nflowchart LR\n  Upload[Upload docs] --> Publish{Publish job}\n  Publish -->|ok| Live[Live site]\n  Publish -.->|warnings| Owner[(Owner log)]\n  click Live "javascript:alert(1)"\n  style Upload fill:#f00\n```',
    '```mermaid\nsequenceDiagram\n  participant R as Reader\n  participant E as Edge\n  R->>E: GET /page\n  E-->>R: <script>alert(1)</script> page\n  Note over R,E: cached at the edge\n```',
    '```mermaid\nflowchart TD\n  accTitle: How a reader finds a page\n  Search[Search the docs] -->|a long edge label that names every step on its way down| Guide[Read the guide]\n  Guide -->|then, for the curious, the product| Site[Product site]\n  click Guide "/guide"\n  click Site href "https://example.com/product"\n```',
    '',
  ].join('\n\n'),
};

let bundle;
let browser;

before(async () => {
  const folder = scratchDir('docs-edge-media-purpose-');
  for (const [path, text] of Object.entries(PURPOSE)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  const t = await tenant();
  const published = await publishFolder(t.domain, t.adminKey, folder);
  assert.equal(published.status, 200, published.text);
  const start = await startExport(t.adminKey, { domain: t.domain });
  assert.equal(start.status, 202, start.text);
  const { job } = await waitForJob(t.adminKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  const link = await requestBundle(t.adminKey, job.jobId);
  const { dir } = await downloadBundle(link.body.bundleUrl);
  bundle = { dir, files: listFiles(dir), server: await serveFolder(dir) };
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await bundle?.server.close();
  if (bundle) rmSync(bundle.dir, { recursive: true, force: true });
});

/** The page in light or dark, every other host blocked and counted, script errors caught. */
function openPage(scheme = 'light', javaScriptEnabled = true) {
  return openIn(browser, bundle.server, 'index.html', scheme, 200, { javaScriptEnabled });
}

/**
 * The page as a server holding the bundle sends it, under the manifest's policy, with `origin`
 * answering `stub` (`{contentType, body}`); `requests` lists what the page asked of `origin`.
 */
async function openUnderPolicy(scheme, manifest, origin, stub) {
  const opened = await openPage(scheme);
  await opened.context.route(`${bundle.server.url}/index.html`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': manifest.contentSecurityPolicy } });
  });
  const requests = [];
  await opened.context.route(`${origin}/**`, (route) => {
    requests.push(route.request().url());
    return route.fulfill({ status: 200, ...stub });
  });
  await opened.page.reload();
  return { ...opened, requests };
}

test('math is MathML laid out by the browser, with no LaTeX source in the visible text', async () => {
  const { page, context, errors, outside } = await openPage();
  const maths = await page.locator('main math').evaluateAll((ms) => ms.map((m) => ({
    block: m.getAttribute('display') === 'block',
    // MathML laid out natively has a box; an unknown element in an HTML page would be inline text.
    height: m.getBoundingClientRect().height,
    fractions: m.querySelectorAll('mfrac').length,
  })));
  assert.equal(maths.length, 5, JSON.stringify(maths));
  assert.deepEqual(maths.map((m) => m.block), [false, false, true, true, false]);
  assert.ok(maths.every((m) => m.height > 0), JSON.stringify(maths));
  assert.ok(maths[1].fractions === 1 && maths[2].fractions >= 1 && maths[3].fractions === 1, JSON.stringify(maths));
  const text = await page.locator('main').innerText();
  for (const raw of ['\\frac', '\\sqrt', '\\choose', '$$', '$(', 'Latex', '{n']) {
    assert.ok(!text.includes(raw), `visible text holds ${raw}`);
  }
  assert.ok(text.includes('costs $5 and $10, or $5-$10 a month.'), 'prices keep their dollars');
  const html = readFile(bundle.dir, 'index.html').toString().replace(/<head>.*<\/head>/s, '');
  assert.ok(!/\sstyle=/.test(html) && !html.includes('<script'), 'no inline style or script in the body');
  await page.locator('main math').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'math.png'), fullPage: true });
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await context.close();
});

test('views: one at a time through the selector, every view titled without script', async () => {
  const { page, context } = await openPage();
  const select = page.getByRole('combobox', { name: 'View' });
  assert.deepEqual(await select.locator('option').allInnerTexts(), ['JavaScript', 'Python']);
  assert.ok(await page.getByText('Only for JavaScript readers.').isVisible());
  assert.ok(await page.getByText('Only for Python readers.').isHidden());
  await select.selectOption('Python');
  assert.ok(await page.getByText('Only for JavaScript readers.').isHidden());
  assert.ok(await page.getByText('Only for Python readers.').isVisible());
  await page.screenshot({ path: join(ARTIFACTS, 'view-python.png'), fullPage: true });
  await context.close();
  const plain = await openPage('light', false);
  assert.equal(await plain.page.locator('select').count(), 0);
  assert.deepEqual(await plain.page.locator('.view-panel .view-title').allInnerTexts(), ['JavaScript', 'Python']);
  assert.ok(await plain.page.getByText('Only for Python readers.').isVisible());
  await plain.page.screenshot({ path: join(ARTIFACTS, 'view-no-script.png'), fullPage: true });
  await plain.context.close();
});

test('Mermaid blocks are SVG drawings with text labels, light and dark, and no source shows as code', async () => {
  const html = readFile(bundle.dir, 'index.html').toString().replace(/<head>.*<\/head>/s, '');
  assert.ok(!html.includes('language-mermaid') && !html.includes('javascript:'), 'no mermaid source, no script link');
  // `\sstyle=`: a drawing's `font-style="…"` attribute is presentation, not an inline style.
  assert.ok(!html.includes('<script') && !/\sstyle=/.test(html) && !html.includes('<style'), 'no script or inline style in the body');
  for (const scheme of ['light', 'dark']) {
    const { page, context, errors, outside } = await openPage(scheme);
    const diagrams = page.locator('main figure.diagram svg');
    assert.equal(await diagrams.count(), 3);
    for (const svg of await diagrams.all()) {
      const box = await svg.boundingBox();
      assert.ok(box && box.width > 100 && box.height > 40, JSON.stringify(box));
    }
    // Named for a reader's assistive technology by title, else by kind (never merman's internal id).
    assert.deepEqual(await diagrams.evaluateAll((svgs) => svgs.map((s) => s.getAttribute('aria-label'))),
      ['Flowchart', 'Sequence diagram', 'How a reader finds a page']);
    // Every label is drawn inside its drawing, none cut off by the viewBox.
    const clipped = await diagrams.evaluateAll((svgs) => svgs.flatMap((svg, i) => {
      const outer = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => [i, t.textContent, t.getBoundingClientRect()])
        .filter(([, , r]) => r.left < outer.left - 1 || r.right > outer.right + 1 || r.top < outer.top - 1 || r.bottom > outer.bottom + 1)
        .map(([i, text, r]) => `${i}: ${text} ${JSON.stringify(r)} outside ${JSON.stringify(outer)}`);
    }));
    assert.deepEqual(clipped, []);
    const labels = await diagrams.evaluateAll((svgs) => svgs.map((svg) => [...svg.querySelectorAll('text')]
      .map((t) => ({ text: t.textContent, fill: getComputedStyle(t).fill, height: t.getBBox().height }))));
    // A label may wrap onto rows of its own: compared without spaces.
    const squeeze = (ls) => ls.map((l) => l.text).join('').replace(/\s+/g, '');
    const flow = squeeze(labels[0]);
    for (const label of ['Uploaddocs', 'Publishjob', 'Livesite', 'Ownerlog', 'warnings']) assert.ok(flow.includes(label), flow);
    const sequence = squeeze(labels[1]);
    for (const label of ['Reader', 'Edge', 'GET/page', 'page', 'cachedattheedge']) assert.ok(sequence.includes(label), sequence);
    // Every label with text has a box (a drawing may hold empty <text> slots, such as unlabelled edges).
    const empty = labels.flat().filter((l) => l.text.trim() && !(l.height > 0));
    assert.deepEqual(empty, [], 'labels are laid out');
    // Labels take the page's text colour, so they stay readable on the dark background too.
    const bodyColour = await page.evaluate(() => getComputedStyle(document.body).color);
    assert.ok(labels[0].some((l) => l.fill === bodyColour), `${bodyColour} ${JSON.stringify(labels[0].slice(0, 2))}`);
    const text = await page.locator('main').innerText();
    for (const raw of ['flowchart LR', 'sequenceDiagram', '-->', '->>', 'accTitle']) assert.ok(!text.includes(raw), `visible text holds ${raw}`);
    await page.locator('main figure.diagram').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `diagrams-${scheme}.png`) });
    await page.locator('main figure.diagram').nth(2).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, `diagram-links-${scheme}.png`) });
    // A clickable node is a link a keyboard reaches: to a page of the bundle, or the author's URL.
    const links = diagrams.nth(2).locator('a');
    assert.deepEqual(await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.tabIndex, a.textContent.trim()])),
      [['guide.html', 0, 'Read the guide'], ['https://example.com/product', 0, 'Product site']]);
    await links.first().click();
    await page.waitForURL(/\/guide\.html$/);
    assert.equal(await page.locator('main h1').first().innerText(), 'The guide');
    assert.deepEqual(errors, []);
    assert.deepEqual(outside, []);
    await context.close();
  }
});

test('agent-only content is in the Markdown twin and llms-full.txt, never on the page', async () => {
  const html = readFile(bundle.dir, 'index.html').toString();
  assert.ok(!html.includes('v1/accounts') && html.includes('Get started'));
  for (const file of ['index.md', 'llms-full.txt'].filter((f) => bundle.files.includes(f))) {
    const md = readFile(bundle.dir, file).toString();
    assert.ok(md.includes('POST /v1/accounts') && !md.includes('Get started'), file);
    assert.ok(md.includes('\\frac{a}{b}'), `${file} keeps the LaTeX`);
  }
  assert.ok(bundle.files.includes('llms-full.txt'));
});

test('the page has no accessibility violations in light and dark', async () => {
  for (const scheme of ['light', 'dark']) {
    const { page, context, errors } = await openPage(scheme);
    await page.screenshot({ path: join(ARTIFACTS, `page-${scheme}.png`), fullPage: true });
    assert.deepEqual(await axeViolations(page), [], scheme);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a remote embed waits behind a placeholder naming its host; the click loads it under the bundle policy', async () => {
  const manifest = JSON.parse(readFile(bundle.dir, '_docs-edge/manifest.json').toString());
  assert.deepEqual(manifest.frameOrigins, ['https://www.youtube.com']);
  assert.ok(manifest.contentSecurityPolicy.endsWith("; frame-src 'self' https://www.youtube.com"), manifest.contentSecurityPolicy);
  for (const scheme of ['light', 'dark']) {
    const stub = { contentType: 'text/html', body: '<!DOCTYPE html><title>stub</title><p>stub player</p>' };
    const { page, context, errors, outside, requests: youtube } = await openUnderPolicy(scheme, manifest, 'https://www.youtube.com', stub);
    const load = page.getByRole('button', { name: 'Load the video from www.youtube.com' });
    await load.scrollIntoViewIfNeeded();
    await page.locator('.embed-placeholder').screenshot({ path: join(ARTIFACTS, `embed-placeholder-${scheme}.png`) });
    assert.deepEqual(outside, [], 'nothing from another host before the click');
    assert.deepEqual(youtube, []);
    if (scheme === 'light') {
      await load.click();
      const frame = page.locator('iframe.embed-frame');
      await frame.waitFor();
      assert.equal(await frame.getAttribute('title'), 'Product tour');
      await page.frameLocator('iframe.embed-frame').getByText('stub player').waitFor({ timeout: 10_000 });
      assert.deepEqual(youtube, ['https://www.youtube.com/embed/dQw4w9WgXcQ']);
      await page.locator('.embed-placeholder').screenshot({ path: join(ARTIFACTS, 'embed-loaded.png') });
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
  const plain = await openPage('light', false);
  assert.ok(await plain.page.locator('.embed-placeholder .embed-load').isHidden(), 'no button without script');
  const link = plain.page.getByRole('link', { name: 'Open it on www.youtube.com' });
  assert.equal(await link.getAttribute('href'), 'https://www.youtube.com/embed/dQw4w9WgXcQ');
  assert.deepEqual(plain.outside, []);
  await plain.context.close();
});

/** A 2x2 PNG, what the stubbed image host answers. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGNQTX4NRAwQCgAligXNFnxqAgAAAABJRU5ErkJggg==', 'base64');

test('remote images wait behind placeholders naming their host; the click shows them under the bundle policy', async () => {
  const manifest = JSON.parse(readFile(bundle.dir, '_docs-edge/manifest.json').toString());
  assert.deepEqual(manifest.imageOrigins, ['https://cdn.example.com']);
  assert.ok(manifest.contentSecurityPolicy.includes("; img-src 'self' data: https://cdn.example.com;"), manifest.contentSecurityPolicy);
  const html = readFile(bundle.dir, 'index.html').toString();
  assert.ok(!/<img[^>]+cdn\.example\.com/.test(html), 'no <img> of the remote host in the page');
  assert.match(html, /<p>Traffic over a week: <span class="image-placeholder"/, 'the Markdown image stays inline in its paragraph');
  const stub = { contentType: 'image/png', body: PNG };
  const { page, context, errors, outside, requests: cdn } = await openUnderPolicy('light', manifest, 'https://cdn.example.com', stub);
  const loads = page.getByRole('button', { name: 'Load the image from cdn.example.com' });
  assert.equal(await loads.count(), 2);
  await loads.first().scrollIntoViewIfNeeded();
  await page.locator('main p', { hasText: 'Traffic over a week' }).screenshot({ path: join(ARTIFACTS, 'image-placeholder.png') });
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(outside, [], 'nothing from another host before the click');
  assert.deepEqual(cdn, []);
  await loads.first().click();
  const chart = page.locator('main p img[src="https://cdn.example.com/charts/traffic.png"]');
  await chart.waitFor();
  assert.equal(await chart.getAttribute('alt'), 'Weekly traffic');
  // Loaded under the bundle's policy: its img-src lets the named host through.
  await page.waitForFunction((img) => img.complete && img.naturalWidth === 2, await chart.elementHandle());
  assert.equal(await page.locator('main .image-placeholder').count(), 1, 'only the pressed placeholder swapped');
  await loads.first().click();
  const shot = page.locator('main figure img[src="https://cdn.example.com/shots/dashboard.png"]');
  await shot.waitFor();
  assert.deepEqual([await shot.getAttribute('alt'), await shot.getAttribute('width'), await shot.getAttribute('height')], ['The dashboard', '320', '200']);
  await page.waitForFunction((img) => img.complete && img.naturalWidth === 2, await shot.elementHandle());
  assert.deepEqual(cdn, ['https://cdn.example.com/charts/traffic.png', 'https://cdn.example.com/shots/dashboard.png']);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(errors, []);
  await context.close();
  const plain = await openPage('light', false);
  assert.equal(await plain.page.getByRole('button', { name: 'Load the image from cdn.example.com' }).count(), 0, 'no button without script');
  assert.equal(await plain.page.getByRole('link', { name: 'Weekly traffic' }).getAttribute('href'), 'https://cdn.example.com/charts/traffic.png');
  assert.deepEqual(plain.outside, []);
  await plain.context.close();
});
