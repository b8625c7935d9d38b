import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContextOptions, Page } from '@playwright/test';

/** A phone held upright, as a student's own device in a class. */
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 } };

/** How far the page scrolls sideways (0 when it fits the screen), with the widest elements that stick out. */
export async function sidewaysOverflow(page: Page): Promise<{ pixels: number; widest: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const outermost: Element[] = [];
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 1 && !outermost.some((outer) => outer.contains(element)))
        outermost.push(element);
    }
    return {
      pixels: document.documentElement.scrollWidth - width,
      widest: outermost
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}`),
    };
  });
}

/** axe-core's serious and critical findings on the page as it is now: rule, impact and where. */
export async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}
