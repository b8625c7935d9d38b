import { errors, expect, type Page } from '@playwright/test';
import {
  FINISHED,
  noVerdict,
  waitAtAskingPace,
  whereaboutsOf,
  whereaboutsScript,
  type ExperimentResult,
} from './engine.js';

export type { ExperimentResult };

/** Opens a demonstration page and waits until its module has built the frame. */
export async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('#origin-self')).toHaveText(new URL(url).origin);
}

/**
 * Runs one experiment through its own Run button and returns what the page observed. It waits
 * and reads with scripts only, so it also runs an experiment that leaves the page and comes back
 * (the beacons page's lifecycle trips): after Firefox restores a page from the back/forward cache,
 * Playwright's locators wait for a navigation that never finishes.
 */
export async function runExperiment(page: Page, id: string, timeout = 30_000): Promise<ExperimentResult> {
  await page.locator(`section#${id}`).getByRole('button', { name: 'Run' }).click();
  await waitForVerdict(page, id, timeout);
  return readExperiment(page, id);
}

/** Waits, by script (see runExperiment), until the experiment's data-state is a verdict (FINISHED). */
export async function waitForVerdict(page: Page, id: string, timeout: number): Promise<void> {
  try {
    await waitInPage(
      page,
      ([sectionId, finished]) => new RegExp(finished).test(document.getElementById(sectionId)?.dataset.state ?? ''),
      [id, FINISHED.source] as const,
      timeout,
    );
  } catch (err) {
    throw await noVerdict(id, timeout, page.evaluate(whereaboutsScript, whereaboutsOf(id)), err);
  }
}

/** page.waitForFunction at the pace of every engine's waits (ASKING): the page's own timer asks. */
export function waitInPage<A>(
  page: Page,
  fn: Parameters<typeof page.waitForFunction<unknown, A>>[0],
  arg: A,
  timeout: number,
): Promise<void> {
  return waitAtAskingPace(
    timeout,
    (bound, polling) => page.waitForFunction(fn, arg, { timeout: bound, polling }),
    (err) => err instanceof errors.TimeoutError,
  );
}

/** What the page says of one experiment now, read by a script (see runExperiment). */
export function readExperiment(page: Page, id: string): Promise<ExperimentResult> {
  return page.evaluate((sectionId) => {
    const section = document.getElementById(sectionId);
    return {
      state: section?.dataset.state ?? 'missing',
      observed: JSON.parse(section?.querySelector('output')?.dataset.observed ?? '{}') as Record<string, any>,
    };
  }, id);
}

/** Clicks "Run all experiments" and returns the result of every experiment it runs, by id. */
export async function runAll(page: Page, timeout = 60_000): Promise<Record<string, ExperimentResult>> {
  await page.locator('#run-all').click();
  try {
    await waitInPage(page, () => document.body.dataset.ranAll === 'true', undefined, timeout);
  } catch (err) {
    // Name the experiments that never finished: the one that hangs is among them.
    const unfinished = await page
      .locator('section.experiment:not([data-manual])')
      .evaluateAll((sections) =>
        sections
          .filter((s) => /^(idle|running)$/.test(s.dataset.state ?? ''))
          .map((s) => `${s.id} (${s.dataset.state})`),
      );
    const message = `"Run all" at ${page.url()} did not finish within ${timeout} ms; not finished: ${unfinished.join(', ')}`;
    throw new Error(message, { cause: err });
  }
  const ids = await page
    .locator('section.experiment:not([data-manual])')
    .evaluateAll((sections) => sections.map((s) => s.id));
  const results: Record<string, ExperimentResult> = {};
  for (const id of ids) results[id] = await readExperiment(page, id);
  return results;
}

/** The id of every experiment on the page (those "Run all" leaves out too), in page order. */
export function experimentIds(page: Page): Promise<string[]> {
  return page.locator('section.experiment').evaluateAll((sections) => sections.map((s) => s.id));
}
