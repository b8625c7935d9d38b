import { writeFileSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { test, expect } from '../fixtures.js';
import { openPage, runAll } from './support/experiments.js';
import { PHONE, seriousAccessibilityProblems, sidewaysOverflow } from './support/phone.js';

/**
 * A classroom on one stack: several visitors (browser contexts: own cookies, own connections),
 * half of them on each origin, press "Run all" on every page at the same time. Each page judges
 * its own experiments; with one shared server, every one must still agree (or show a measured
 * engine difference). CLASSROOM_VISITORS sets how many; CI keeps it small, `npm run bench` runs
 * a larger class (docs/performance.md) and reads the figures from CLASSROOM_REPORT (a JSON file).
 */
const VISITORS = Number(process.env.CLASSROOM_VISITORS ?? 2);
const PAGES = ['reads', 'bodies', 'forms', 'beacons', 'events', 'outcomes', 'proxy'];
/** CLASSROOM_ONE_PAGE_AT_A_TIME=1: each visitor goes through the pages in turn, as a student would. */
const ONE_PAGE_AT_A_TIME = process.env.CLASSROOM_ONE_PAGE_AT_A_TIME === '1';
const PAGE_TIMEOUT_MS = 150_000;

/**
 * One visitor. Every second one is on a phone: after "Run all" each page must still fit the
 * screen's width, and axe-core must find nothing serious in what the experiments wrote (each is
 * reported as one more run: "agree" when it fits and is clean, else what was found).
 */
async function visitor(browser: Browser, origin: string, onPhone: boolean) {
  const context = await browser.newContext(onPhone ? PHONE : {});
  const runPage = async (name: string) => {
    const page = await context.newPage();
    await openPage(page, `${origin}/${name}.html`);
    const experiments = await runAll(page, PAGE_TIMEOUT_MS);
    const runs = Object.entries(experiments).map(([id, { state }]) => ({ page: name, id, state }));
    if (onPhone) {
      const overflow = await sidewaysOverflow(page);
      const problems = await seriousAccessibilityProblems(page);
      const fits = overflow.pixels === 0 && problems.length === 0;
      runs.push({ page: name, id: 'phone', state: fits ? 'agree' : JSON.stringify({ overflow, problems }) });
    }
    await page.close();
    return runs;
  };
  try {
    if (!ONE_PAGE_AT_A_TIME) return (await Promise.all(PAGES.map(runPage))).flat();
    const results = [];
    for (const name of PAGES) results.push(...(await runPage(name)));
    return results;
  } finally {
    await context.close();
  }
}

test('a classroom: every visitor runs every page at once, and every experiment agrees', async ({
  browser,
  browserName,
  origins,
}) => {
  test.setTimeout(PAGE_TIMEOUT_MS * (ONE_PAGE_AT_A_TIME ? PAGES.length : 1) + 60_000);
  const origin = (n: number) => (n % 2 === 0 ? origins.self : origins.other);
  const started = Date.now();
  const runs = await Promise.all(Array.from({ length: VISITORS }, (_, n) => visitor(browser, origin(n), n % 2 === 1)));
  const seconds = (Date.now() - started) / 1_000;

  const all = runs.flat();
  if (process.env.CLASSROOM_REPORT) {
    const agreeing = all.filter((run) => run.state === 'agree' || run.state === 'known-difference').length;
    const report = {
      browser: browserName,
      visitors: VISITORS,
      pages: PAGES.length,
      runs: all.length,
      agreeing,
      seconds,
    };
    writeFileSync(
      process.env.CLASSROOM_REPORT,
      JSON.stringify({ ...report, failing: all.filter((r) => r.state !== 'agree' && r.state !== 'known-difference') }),
    );
  }
  expect(all.length).toBeGreaterThan(VISITORS * PAGES.length);
  const notAgreeing = all.filter((run) => run.state !== 'agree' && run.state !== 'known-difference');
  expect(notAgreeing).toEqual([]);
});
