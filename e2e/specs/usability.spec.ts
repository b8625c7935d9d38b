import { EVERY_ENGINE } from '../fixtures.js';
import { test, expect } from './support/server.js';
import { openPage, runExperiment } from '../engines/experiments.js';
import { PAGES } from './support/pages.js';
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
import { PlaywrightPage } from '../engines/playwright.js';
import { inTurns } from './support/turns.js';

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

/** The longest "Run all" of a page (reads), with room for a busy machine. */
const RUN_ALL_MS = 120_000;

/**
 * Does what a visitor does first on the page: runs every experiment ("Run all", where the page
 * has one), sends the playground's case, explains the Explain page's example.
 */
async function useThePage(page: EnginePage, path: string): Promise<void> {
  if (await page.evaluate(() => document.getElementById('run-all') !== null)) await page.runAll(RUN_ALL_MS);
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
 * How many pages run their experiments at once in Chromium and Firefox, each in a context of its
 * own (its own connections: six per host over HTTP/1.1). WebKit runs them one after another in
 * one MiniBrowser: each more is a MiniBrowser, an Xvfb and a session bus.
 */
const PAGES_AT_ONCE = 4;

test(
  'on a phone-sized screen, every page still fits the width once its experiments have run',
  { tag: EVERY_ENGINE },
  async ({ enginePage, browser, browserName, origins }) => {
    const atOnce = browserName === 'webkit' ? 1 : PAGES_AT_ONCE;
    test.setTimeout(Math.ceil(PAGES.length / atOnce) * RUN_ALL_MS);
    const overflowing: Record<string, { pixels: number; widest: string[] }> = {};
    await inTurns(PAGES, atOnce, async (path) => {
      const page = atOnce === 1 ? enginePage : await PlaywrightPage.open(browser, browserName);
      try {
        await page.setViewport(PHONE_VIEWPORT.width, PHONE_VIEWPORT.height);
        await page.open(`${origins.self}${path}`);
        await useThePage(page, path);
        const overflow = await sidewaysOverflow(page);
        if (overflow.pixels > 0) overflowing[path] = overflow;
      } finally {
        if (page !== enginePage) await page.close();
      }
    });
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
