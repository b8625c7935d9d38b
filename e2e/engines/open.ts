import type { Browser } from '@playwright/test';
import type { BrowserSettings } from '../stacks/stack.js';
import type { EnginePage } from './engine.js';
import { PlaywrightPage } from './playwright.js';

/**
 * A page in the project's engine: a context of Playwright's browser for chromium and firefox, a
 * WebKitGTK of its own over WebDriver for webkit. The caller closes it (close() stops everything
 * it started). settings are the stack's (stacks/stack.ts browserSettings): Playwright's browsers
 * were launched with them (playwright.config.ts); WebKit gets them here, per session.
 */
export async function openEnginePage(
  browser: Browser,
  browserName: string,
  settings: BrowserSettings,
): Promise<EnginePage> {
  if (browserName === 'webkit')
    // Loaded only here: chromium and firefox runs never load webdriverio.
    return (await import('./webdriver.js')).WebDriverPage.open(settings);
  return PlaywrightPage.open(browser, browserName);
}
