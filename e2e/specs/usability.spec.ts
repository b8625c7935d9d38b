import { EVERY_ENGINE } from '../fixtures.js';
import { test, expect } from './support/server.js';
import { openPage, runExperiment } from '../engines/experiments.js';
import { PAGES, PAGES_WITH_EXPERIMENTS } from './support/pages.js';
import { sendCase } from './support/playground-case.js';
import {
  PHONE_VIEWPORT,
  TOUCH_PHONE,
  controlsShorterThan,
  drawnTextSizes,
  seriousAccessibilityProblems,
  sidewaysOverflow,
  urlCellWidths,
} from './support/phone.js';
import type { EnginePage } from '../engines/engine.js';

test('the index links every topic, shows the two addresses for the room, and the strip counts loads and shows the query string', async ({
  page,
  origins,
}) => {
  await openPage(page, `${origins.self}/?from=test`);
  const links = await page.locator('#topics a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
  expect(links).toEqual(PAGES.slice(1));
  await expect(page.locator('#strip-query')).toHaveText('?from=test');
  // The two addresses for the room, this one first.
  await expect(page.locator('.room-origins li')).toHaveText([`${origins.self}/`, `${origins.other}/`]);
  const loads = Number(await page.locator('#strip-page-loads').textContent());
  await page.reload();
  await expect(page.locator('#strip-page-loads')).toHaveText(String(loads + 1));
});

test('the experiments work from the keyboard', { tag: EVERY_ENGINE }, async ({ enginePage, origins }) => {
  await enginePage.open(`${origins.self}/reads.html`);
  await enginePage.focus('#run-all');
  // The next stop after "Run all" is the first experiment's Run button.
  await enginePage.press('Tab');
  expect(
    await enginePage.evaluate(() => document.activeElement === document.querySelector('section#get-self button')),
    'focused after Tab: the first Run button',
  ).toBe(true);
  await enginePage.press('Enter');
  await enginePage.waitForVerdict('get-self', 15_000);
  expect((await enginePage.read('get-self')).state).toBe('agree');
  await expect.poll(() => enginePage.text('#strip-requests')).not.toBe('0');
  await expect.poll(() => enginePage.text('.waterfall tbody tr')).toContain('this origin');
});

test(
  'on a phone-sized screen, every page fits the width without scrolling sideways, and axe finds nothing serious',
  {
    tag: EVERY_ENGINE,
  },
  async ({ enginePage, origins }) => {
    const paths = [...PAGES, '/away.html'];
    // One page for all of them (a test per page cost a new context and load each); axe in Firefox
    // takes up to half a minute a page on a busy machine, so the budget is per page.
    test.setTimeout(paths.length * 30_000);
    await enginePage.setViewport(PHONE_VIEWPORT.width, PHONE_VIEWPORT.height);
    const findings: Record<string, unknown> = {};
    for (const path of paths) {
      if (path === '/away.html') await enginePage.navigate(`${origins.self}${path}`);
      else await enginePage.open(`${origins.self}${path}`);
      const overflow = await sidewaysOverflow(enginePage);
      const problems = await seriousAccessibilityProblems(enginePage);
      if (overflow.pixels > 0 || problems.length > 0) findings[path] = { overflow, problems };
    }
    expect(findings).toEqual({});
  },
);

/** Does what a visitor does first on a page without experiments: sends the playground's case, explains the Explain page's example. */
async function useThePage(page: EnginePage, path: string): Promise<void> {
  if (path === '/playground.html') await sendCase(page);
  if (path === '/explain.html') {
    await page.click('#example');
    await page.waitFor(
      () => document.querySelector('.explanation svg.sequence') !== null,
      20_000,
      'the example explained',
    );
  }
}

/**
 * The pages a visitor uses without experiments (the index, the playground, Explain, the
 * engines): each page with experiments is checked on a phone after its own run of them
 * (support/per-experiment.ts), not run again here.
 */
const PAGES_USED_WITHOUT_EXPERIMENTS = PAGES.filter((path) => !PAGES_WITH_EXPERIMENTS.includes(path));

test(
  'on a phone-sized screen, the pages without experiments still fit the width once used',
  { tag: EVERY_ENGINE },
  async ({ enginePage, origins }) => {
    const overflowing: Record<string, { pixels: number; widest: string[] }> = {};
    await enginePage.setViewport(PHONE_VIEWPORT.width, PHONE_VIEWPORT.height);
    for (const path of PAGES_USED_WITHOUT_EXPERIMENTS) {
      await enginePage.open(`${origins.self}${path}`);
      await useThePage(enginePage, path);
      const overflow = await sidewaysOverflow(enginePage);
      if (overflow.pixels > 0) overflowing[path] = overflow;
    }
    // Each page that scrolls sideways, by how far, and what sticks out (widest first).
    expect(overflowing, `pages wider than ${PHONE_VIEWPORT.width} px`).toEqual({});
  },
);

test(
  "on a phone-sized screen, the Explain page's sequence drawing and the server view's timeline draw no text under 10 px",
  { tag: EVERY_ENGINE },
  async ({ enginePage, origins }) => {
    await enginePage.setViewport(PHONE_VIEWPORT.width, PHONE_VIEWPORT.height);
    const small: Record<string, string[]> = {};
    // The playground's case puts the page's request and the server's entries in the timeline.
    const drawings = [
      ['/explain.html', 'sequence', () => document.querySelector('svg.sequence text') !== null],
      ['/playground.html', 'timeline', () => document.querySelector('svg.timeline rect') !== null],
    ] as const;
    for (const [path, drawing, drawn] of drawings) {
      await enginePage.open(`${origins.self}${path}`);
      await useThePage(enginePage, path);
      await enginePage.waitFor(drawn, 15_000, `the ${drawing} drawing on ${path}`);
      const texts = await drawnTextSizes(enginePage);
      expect(
        texts.filter((text) => text.drawing === drawing),
        `${path}: the ${drawing} drawing`,
      ).not.toEqual([]);
      const under = texts.filter((text) => text.pixels < 10);
      if (under.length > 0)
        small[path] = under.map((text) => `svg.${text.drawing} "${text.text}": ${text.pixels.toFixed(1)} px`);
    }
    expect(small).toEqual({});
  },
);

test.describe('on a touch screen', () => {
  test.use(TOUCH_PHONE);

  test('every control is at least 44 px tall, and a URL keeps a column at least 8rem wide', async ({
    page,
    origins,
    browserName,
  }) => {
    // (WebKit skips it too, as every test without EVERY_ENGINE: classic WebDriver cannot emulate a touch screen.)
    test.skip(browserName === 'firefox', 'Firefox does not report a coarse pointer for an emulated touch screen');
    const short: Record<string, string[]> = {};
    for (const path of PAGES) {
      await openPage(page, `${origins.self}${path}`);
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), path).toBe(true);
      const controls = await controlsShorterThan(page, 44);
      if (controls.length > 0) short[path] = controls;
    }
    expect(short).toEqual({});

    // A request of the page's own puts URLs in the waterfall and in what the server saw.
    await openPage(page, `${origins.self}/reads.html`);
    await runExperiment(page, 'cors-off-fetch');
    const cells = await urlCellWidths(page, 8);
    expect(cells.widths.length).toBeGreaterThan(1);
    // Half a pixel for layout rounding.
    expect(cells.widths.filter((width) => width < cells.least - 0.5)).toEqual([]);
  });
});
