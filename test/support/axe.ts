import { strict as assert } from 'node:assert';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';

const checkers = new WeakMap<Browser, Promise<Page>>();

/**
 * axe-core on the page as it stands: no serious or critical violation (WCAG 2.x A and AA rules).
 * axe needs script, and the pages are tested with JavaScript off, so the page's HTML is analysed in
 * a page of its own with script on, at the same viewport (the pages carry all their CSS inline).
 */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  const browser = page.context().browser()!;
  if (!checkers.has(browser))
    checkers.set(
      browser,
      browser.newContext({ viewport: page.viewportSize() }).then((c) => c.newPage()),
    );
  const checker = await checkers.get(browser)!;
  await checker.setContent(await page.content());
  const result = await new AxeBuilder({ page: checker }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `${label}: accessibility violations`,
  );
}
