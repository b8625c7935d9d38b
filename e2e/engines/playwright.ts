import type { Browser, BrowserContext, Page } from '@playwright/test';
import { experimentIds, openPage, readExperiment, runAll, runExperiment } from '../specs/support/experiments.js';
import type { EnginePage, ExperimentResult } from './engine.js';

/** A page in a browser context of its own, in a browser Playwright launched (Chromium, Firefox). */
export class PlaywrightPage implements EnginePage {
  private constructor(
    readonly label: string,
    readonly version: string,
    private readonly context: BrowserContext,
    /** The Playwright page: what only Playwright sees (network events) is read here. */
    readonly page: Page,
  ) {}

  static async open(browser: Browser, label: string): Promise<PlaywrightPage> {
    const context = await browser.newContext();
    try {
      return new PlaywrightPage(label, browser.version(), context, await context.newPage());
    } catch (err) {
      await context.close();
      throw err;
    }
  }

  open(url: string): Promise<void> {
    return openPage(this.page, url);
  }

  text(selector: string): Promise<string | null> {
    return this.page.locator(selector).first().textContent();
  }

  evaluate<T>(fn: () => T): Promise<T> {
    return this.page.evaluate(fn) as Promise<T>;
  }

  click(selector: string): Promise<void> {
    return this.page.locator(selector).first().click();
  }

  async waitFor(fn: () => boolean, timeout: number, what: string): Promise<void> {
    try {
      await this.page.waitForFunction(fn, undefined, { timeout, polling: 250 });
    } catch (err) {
      throw new Error(`${what}: not within ${timeout} ms`, { cause: err });
    }
  }

  runAll(timeout: number): Promise<Record<string, ExperimentResult>> {
    return runAll(this.page, timeout);
  }

  runExperiment(id: string, timeout: number): Promise<ExperimentResult> {
    return runExperiment(this.page, id, timeout);
  }

  read(id: string): Promise<ExperimentResult> {
    return readExperiment(this.page, id);
  }

  ids(): Promise<string[]> {
    return experimentIds(this.page);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
