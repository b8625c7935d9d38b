import type { Browser, BrowserContext, Page } from '@playwright/test';
import { experimentIds, openPage, readExperiment, runAll, runExperiment, waitForVerdict } from './experiments.js';
import type { EnginePage, ExperimentResult } from './engine.js';

/** A page in a browser context of its own, in a browser Playwright launched (Chromium, Firefox). */
export class PlaywrightPage implements EnginePage {
  /** Console lines since the last consoleMessages(). */
  private console: string[] = [];

  private constructor(
    readonly label: string,
    readonly version: string,
    /** What close() ends: the page's own context, or the page alone in a context shared with others. */
    private readonly end: () => Promise<void>,
    /** The Playwright page: what only Playwright sees (network events) is read here. */
    readonly page: Page,
  ) {
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') this.console.push(message.text());
    });
    page.on('pageerror', (error) => this.console.push(error.name ? `${error.name}: ${error.message}` : error.message));
  }

  consoleMessages(): Promise<string[]> {
    const lines = this.console;
    this.console = [];
    return Promise.resolve(lines);
  }

  static async open(browser: Browser, label: string): Promise<PlaywrightPage> {
    const context = await browser.newContext();
    try {
      return new PlaywrightPage(label, browser.version(), () => context.close(), await context.newPage());
    } catch (err) {
      await context.close();
      throw err;
    }
  }

  /** A page in a context that others share (a visitor's pages: one cookie jar); close() closes the page only. */
  static async inContext(context: BrowserContext, label: string): Promise<PlaywrightPage> {
    const page = await context.newPage();
    return new PlaywrightPage(label, context.browser()?.version() ?? '', () => page.close(), page);
  }

  async navigate(url: string): Promise<void> {
    await this.page.goto(url);
  }

  async addScript(source: string): Promise<void> {
    await this.page.evaluate(source);
  }

  setViewport(width: number, height: number): Promise<void> {
    return this.page.setViewportSize({ width, height });
  }

  focus(selector: string): Promise<void> {
    return this.page.locator(selector).first().focus();
  }

  press(key: string): Promise<void> {
    return this.page.keyboard.press(key);
  }

  open(url: string): Promise<void> {
    return openPage(this.page, url);
  }

  text(selector: string): Promise<string | null> {
    return this.page.locator(selector).first().textContent();
  }

  evaluate<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.page.evaluate(fn) as Promise<T>;
  }

  click(selector: string): Promise<void> {
    return this.page.locator(selector).first().click();
  }

  async select(selector: string, value: string): Promise<void> {
    await this.page.locator(selector).first().selectOption(value);
  }

  chooseFiles(selector: string, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    return this.page.locator(selector).first().setInputFiles(files);
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

  url(): Promise<string> {
    return Promise.resolve(this.page.url());
  }

  waitForVerdict(id: string, timeout: number): Promise<void> {
    return waitForVerdict(this.page, id, timeout);
  }

  read(id: string): Promise<ExperimentResult> {
    return readExperiment(this.page, id);
  }

  ids(): Promise<string[]> {
    return experimentIds(this.page);
  }

  close(): Promise<void> {
    return this.end();
  }
}
