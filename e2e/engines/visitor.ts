import type { Browser } from '@playwright/test';
import type { BrowserSettings } from '../stacks/stack.js';
import type { EnginePage } from './engine.js';
import { PlaywrightPage } from './playwright.js';

/** One person at the class: several pages open at once, with one cookie jar where the engine allows. */
export interface EngineVisitor {
  /** A new page of this visitor's (in the viewport given at the start, if any). */
  newPage(): Promise<EnginePage>;
  /** Ends every page and everything started for them; safe to call twice. */
  close(): Promise<void>;
}

/**
 * A visitor in the project's engine. Chromium and Firefox: a browser context (own cookies, own
 * connections) whose pages share it. WebKit: a WebDriver session drives one page at a time, so
 * each page is a MiniBrowser of its own (engines/webdriver.ts), with its own cookies: pages run at
 * once as in the other engines, but do not share the visitor's cookies.
 */
export async function openVisitor(
  browser: Browser,
  browserName: string,
  settings: BrowserSettings,
  viewport?: { width: number; height: number },
): Promise<EngineVisitor> {
  const pages: EnginePage[] = [];
  const closeAll = async () => {
    await Promise.allSettled(pages.splice(0).map((page) => page.close()));
  };
  if (browserName === 'webkit') {
    const { WebDriverPage } = await import('./webdriver.js');
    return {
      async newPage() {
        const page = await WebDriverPage.open(settings);
        pages.push(page);
        if (viewport) await page.setViewport(viewport.width, viewport.height);
        return page;
      },
      close: closeAll,
    };
  }
  const context = await browser.newContext(viewport ? { viewport } : {});
  return {
    async newPage() {
      const page = await PlaywrightPage.inContext(context, browserName);
      pages.push(page);
      return page;
    },
    async close() {
      await closeAll();
      await context.close();
    },
  };
}
