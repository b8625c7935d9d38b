import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContextOptions, Page } from '@playwright/test';
import type { EnginePage } from '../../engines/engine.js';

/** A phone held upright, as a student's own device in a class: its viewport (EnginePage.setViewport). */
export const PHONE_VIEWPORT = { width: 390, height: 844 } as const;

/** The same phone as a Playwright context's options. */
export const PHONE: BrowserContextOptions = { viewport: { ...PHONE_VIEWPORT } };

/**
 * How far the page scrolls sideways (0 when it fits the screen), with what sticks out, widest
 * first, each named with its text's start: the outermost elements whose box sticks out, and the
 * innermost whose box fits but whose text runs past it (a long unbroken line). An element inside
 * a box that clips or scrolls it is left out: it widens that box, not the page.
 */
export async function sidewaysOverflow(page: EnginePage): Promise<{ pixels: number; widest: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement)
        if (getComputedStyle(box).overflowX !== 'visible') return true;
      return false;
    };
    const found: { element: Element; right: number; boxOut: boolean }[] = [];
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const box = element.getBoundingClientRect();
      // What overflows a box that scrolls or clips stays inside it.
      const spills = getComputedStyle(element).overflowX === 'visible';
      const right = Math.max(box.right, spills ? box.left + element.scrollWidth : 0);
      if (box.width > 0 && right > width + 1 && !clipped(element))
        found.push({ element, right, boxOut: box.right > width + 1 });
    }
    const named = found.filter(({ element, boxOut }) =>
      boxOut
        ? !found.some((other) => other.boxOut && other.element !== element && other.element.contains(element))
        : !found.some((other) => other.element !== element && element.contains(other.element)),
    );
    return {
      pixels: document.documentElement.scrollWidth - width,
      widest: named
        .sort((one, other) => other.right - one.right)
        .slice(0, 5)
        .map(({ element, right }) => {
          const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.classList[0] ? `.${element.classList[0]}` : ''}`;
          const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
          return `${name} "${text}" to ${Math.round(right)} px`;
        }),
    };
  });
}

/**
 * The size on screen of every text in the page's SVG drawings that are shown: its computed font size times its
 * drawing's scale (the drawing's width on screen over its viewBox's width), with the drawing's class.
 */
export async function drawnTextSizes(page: EnginePage): Promise<{ drawing: string; text: string; pixels: number }[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<SVGSVGElement>('svg[viewBox]')).flatMap((drawing) => {
      if (drawing.getBoundingClientRect().width === 0) return []; // not shown
      const scale = drawing.getBoundingClientRect().width / drawing.viewBox.baseVal.width;
      return Array.from(drawing.querySelectorAll('text'), (text) => ({
        drawing: drawing.getAttribute('class') ?? 'svg',
        text: text.textContent ?? '',
        pixels: parseFloat(getComputedStyle(text).fontSize) * scale,
      }));
    }),
  );
}

/** axe-core's own browser build, injected into the page as a script (every engine runs it the same way). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical findings on the page as it is now: rule, impact and where.
 * axe runs in the page itself (axe.run on the document, its default rules), so Chromium, Firefox
 * and WebKit over WebDriver are checked alike; the pages have no frames for it to enter.
 */
export async function seriousAccessibilityProblems(page: EnginePage): Promise<string[]> {
  await page.addScript(axeSource);
  return page.evaluate(async () => {
    interface Violation {
      id: string;
      impact?: string | null;
      nodes: { target: string[] }[];
    }
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: Violation[] }> } }).axe;
    const { violations } = await axe.run(document);
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
  });
}

/** A phone with a touch screen, where the page's controls must be large enough to tap. */
export const TOUCH_PHONE: BrowserContextOptions = { ...PHONE, hasTouch: true };

/** The visible buttons, selects, inputs and summaries shorter than pixels: what a finger can miss. */
export async function controlsShorterThan(page: Page, pixels: number): Promise<string[]> {
  return page.evaluate((pixels) => {
    const short: string[] = [];
    for (const control of Array.from(document.querySelectorAll('button, select, input, summary'))) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.height >= pixels) continue;
      const label = (control as HTMLInputElement).labels?.[0]?.textContent;
      const name = (control.getAttribute('aria-label') ?? label ?? control.textContent ?? '')
        .replace(/\s+/g, ' ')
        .trim();
      short.push(
        `${control.tagName.toLowerCase()}${control.id ? `#${control.id}` : ''} "${name.slice(0, 30)}": ${box.height}px`,
      );
    }
    return short;
  }, pixels);
}

/** The widths of the tables' URL cells, and the width `rem` root-font units make on the page. */
export async function urlCellWidths(page: Page, rem: number): Promise<{ least: number; widths: number[] }> {
  return page.evaluate((rem) => {
    const rootFont = parseFloat(getComputedStyle(document.documentElement).fontSize);
    const widths = Array.from(document.querySelectorAll('td.url'))
      .map((cell) => cell.getBoundingClientRect().width)
      .filter((width) => width > 0);
    return { least: rem * rootFont, widths };
  }, rem);
}
