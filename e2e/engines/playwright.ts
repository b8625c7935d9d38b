import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { firefoxLaunch } from '@origin-lab/engines';
import {
  experimentIds,
  openPage,
  readExperiment,
  runAll,
  runExperiment,
  waitForVerdict,
  waitInPage,
} from './experiments.js';
import { writeChosenFiles, type EnginePage, type ExperimentResult } from './engine.js';

/** A page in a browser context of its own, in a browser Playwright launched (Chromium, Firefox). */
export class PlaywrightPage implements EnginePage {
  /** Console lines since the last consoleMessages(). */
  private console: string[] = [];
  /** Requests sent and not yet answered or failed, with when each was sent: a hang names them. */
  private readonly waiting = new Map<Request, number>();
  /** Where chooseFiles wrote the files it chose, if it did: removed on close(). */
  private filesFolder: string | undefined;

  private constructor(
    readonly label: string,
    readonly version: string,
    /** What close() ends: the page's own context, or the page alone in a context shared with others. */
    private readonly end: () => Promise<void>,
    /** The Playwright page: what only Playwright sees (network events) is read here. */
    readonly page: Page,
    /** Launched with the answer to a storage access prompt set (Firefox: firefoxAllowingStorageAccess). */
    private readonly storageAccessAnswered = false,
  ) {
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') this.console.push(message.text());
    });
    page.on('pageerror', (error) => this.console.push(error.name ? `${error.name}: ${error.message}` : error.message));
    page.on('request', (request) => this.waiting.set(request, Date.now()));
    page.on('requestfinished', (request) => this.waiting.delete(request));
    page.on('requestfailed', (request) => this.waiting.delete(request));
  }

  /** The requests this page still waits for, oldest first, each with how long it has waited. */
  private stillWaiting(): string[] {
    const now = Date.now();
    return [...this.waiting]
      .sort(([, a], [, b]) => a - b)
      .map(([request, sent]) => `${request.method()} ${request.url()} (${Math.round((now - sent) / 1_000)} s)`);
  }

  consoleMessages(): Promise<string[]> {
    const lines = this.console;
    this.console = [];
    return Promise.resolve(lines);
  }

  static async open(browser: Browser, label: string, storageAccessAnswered = false): Promise<PlaywrightPage> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      return new PlaywrightPage(label, browser.version(), () => context.close(), page, storageAccessAnswered);
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

  clickInFrame(frame: string, selector: string, timeout: number): Promise<void> {
    return this.page.frameLocator(frame).first().locator(selector).first().click({ timeout });
  }

  /**
   * Chromium: the storage-access permission of the page's context, over CDP. Firefox: only a
   * browser launched with the answer set (firefoxAllowingStorageAccess); WebDriver BiDi's set
   * permission answers that "storage-access" is unsupported (measured, Firefox 153).
   */
  async allowStorageAccess(): Promise<boolean> {
    if (this.label === 'firefox') return this.storageAccessAnswered;
    if (this.label !== 'chromium') return false;
    await this.page.context().grantPermissions(['storage-access']);
    return true;
  }

  async select(selector: string, value: string): Promise<void> {
    await this.page.locator(selector).first().selectOption(value);
  }

  /**
   * Handed over as paths, written under a folder of this page's (removed when it closes): the
   * browser is local, so Playwright passes it the paths alone, where file contents would cross the
   * protocol in one message (the Explain page's HAR of megabytes took past an action's bound on a
   * loaded machine).
   */
  async chooseFiles(selector: string, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    this.filesFolder ??= mkdtempSync(join(tmpdir(), 'origin-lab-files-'));
    await this.page.locator(selector).first().setInputFiles(writeChosenFiles(this.filesFolder, files));
  }

  async waitFor(fn: () => boolean, timeout: number, what: string): Promise<void> {
    try {
      await waitInPage(this.page, fn, undefined, timeout);
    } catch (err) {
      throw new Error(`${what}: not within ${timeout} ms`, { cause: err });
    }
  }

  async runAll(timeout: number): Promise<Record<string, ExperimentResult>> {
    try {
      return await runAll(this.page, timeout);
    } catch (err) {
      const waiting = this.stillWaiting();
      if (err instanceof Error && waiting.length > 0)
        err.message += `; requests still waiting: ${waiting.slice(0, 10).join(', ')}`;
      throw err;
    }
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

  async close(): Promise<void> {
    try {
      await this.end();
    } finally {
      if (this.filesFolder) rmSync(this.filesFolder, { recursive: true, force: true });
    }
  }
}

/**
 * A Firefox whose storage access prompts answer Allow by themselves, with the prefs Firefox's own
 * tests use (dom.storage_access.prompt.testing and .allow), and whose driver's clicks reach a
 * cross-origin frame: with each site in a process of its own (Fission), a click that WebDriver
 * BiDi sends over such a frame never reaches the frame's document (measured, Firefox 153: the
 * click returns, no handler runs). fission.webContentIsolationStrategy 0 keeps web content in
 * shared processes; what a page may do, and so every rule of storage access, is the same.
 */
export function firefoxAllowingStorageAccess(caCerts: readonly string[], loopbackNames: readonly string[]) {
  return firefoxLaunch(caCerts, loopbackNames, {
    'dom.storage_access.prompt.testing': true,
    'dom.storage_access.prompt.testing.allow': true,
    'fission.webContentIsolationStrategy': 0,
  });
}
