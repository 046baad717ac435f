// The assistant widget in Chromium, for the tests that drive it (tests/widget.test.mjs on a plain
// page, tests/widget-export.test.mjs on exported pages, tests/web-demo.test.mjs): locators inside its
// Shadow DOM, asking a question, the page's CSP violations and widget events, and axe-core.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const panel = (page) => page.locator('docs-assistant .panel');
export const answers = (page) => page.locator('docs-assistant article.answer');

/** Before the page loads: `window.violations` collects its CSP violations. */
export async function recordViolations(page) {
  await page.addInitScript(() => {
    window.violations = [];
    window.widgetEvents = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

/** Once the widget is mounted: `window.widgetEvents` collects its events. */
export async function recordWidgetEvents(page) {
  await page.waitForFunction(() => window.DocsAssistant);
  await page.evaluate(() => {
    for (const type of ['open', 'close', 'answer', 'error', 'feedback', 'source-click']) {
      window.DocsAssistant.on(type, (detail) => window.widgetEvents.push({ type, detail: JSON.parse(JSON.stringify(detail ?? {})) }));
    }
  });
}

/** Asks through the question box; waits until the answer is complete (the log is no longer busy). */
export async function ask(page, question) {
  const before = await answers(page).count();
  await page.locator('docs-assistant textarea').fill(question);
  await page.locator('docs-assistant textarea').press('Enter');
  await answers(page).nth(before).waitFor();
  await page.waitForFunction(() => document.querySelector('docs-assistant').shadowRoot.querySelector('.log').getAttribute('aria-busy') === 'false');
  return answers(page).nth(before);
}

/** axe-core's violations on the page as it is now, one line each; `within`: a CSS selector to check
 * only that part (axe's context). Evaluated through the debugging protocol rather than added as a
 * script element, which a strict page policy would block. */
export async function axeViolations(page, within) {
  await page.evaluate(AXE);
  const result = await page.evaluate((selector) => window.axe.run(selector ? { include: [selector] } : document, { resultTypes: ['violations'] }), within);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
}
