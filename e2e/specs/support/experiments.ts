import { expect, type Page } from '@playwright/test';

export interface ExperimentResult {
  state: string;
  observed: Record<string, any>;
}

/** Opens a demonstration page and waits until its module has built the frame. */
export async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('#origin-self')).toHaveText(new URL(url).origin);
}

/** Runs one experiment through its own Run button and returns what the page observed. */
export async function runExperiment(page: Page, id: string, timeout = 30_000): Promise<ExperimentResult> {
  const section = page.locator(`section#${id}`);
  await section.getByRole('button', { name: 'Run' }).click();
  await expect(section).not.toHaveAttribute('data-state', /idle|running/, { timeout });
  return readExperiment(page, id);
}

export async function readExperiment(page: Page, id: string): Promise<ExperimentResult> {
  const section = page.locator(`section#${id}`);
  const state = (await section.getAttribute('data-state')) ?? 'missing';
  const raw = (await section.locator('output').getAttribute('data-observed')) ?? '{}';
  return { state, observed: JSON.parse(raw) };
}

/** Clicks "Run all experiments" and returns every experiment's result by id. */
export async function runAll(page: Page, timeout = 60_000): Promise<Record<string, ExperimentResult>> {
  await page.locator('#run-all').click();
  await expect(page.locator('body')).toHaveAttribute('data-ran-all', 'true', { timeout });
  const ids = await page.locator('section.experiment').evaluateAll((sections) => sections.map((s) => s.id));
  const results: Record<string, ExperimentResult> = {};
  for (const id of ids) results[id] = await readExperiment(page, id);
  return results;
}
