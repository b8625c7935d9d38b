import { test as base, expect, type Browser } from '@playwright/test';
import type { EnginePage } from './engines/engine.js';
import { openEnginePage } from './engines/open.js';
import { browserSettings, stackEnvName, type StackInfo, type StackName } from './stacks/stack.js';

/**
 * The tag of the tests that run in every engine, WebKit over WebDriver included: they drive the
 * page through the engine interface (the `enginePage` fixture, or engines/open.ts). In a webkit
 * project every other test is skipped: it drives a Playwright page, and Playwright cannot drive
 * WebKitGTK.
 */
export const EVERY_ENGINE = '@every-engine';

/** What a webkit project gets for Playwright's browser: nothing is launched, and any use says why. */
const noPlaywrightBrowser = new Proxy({} as Browser, {
  get(_target, property) {
    throw new Error(
      `Playwright drives no browser in a webkit project (browser.${String(property)}): WebKitGTK runs over WebDriver (e2e/engines/webdriver.ts)`,
    );
  },
});

export interface StackOptions {
  stackName: StackName;
}

export interface StackFixtures {
  /** The stack of this project, as the global setup started it. */
  stack: StackInfo;
  /** The page's own origin and the other origin of the stack. */
  origins: { self: string; other: string; third: string };
}

/**
 * The stack is the project's: one per worker, so a beforeAll (a page's one run of its
 * experiments, support/per-experiment.ts) can reach it too.
 */
export const test = base.extend<{ enginePage: EnginePage; _engineNeutralOnly: void }, StackFixtures & StackOptions>({
  /** A page in the project's engine, closed with everything it started when the test ends. */
  enginePage: async ({ browser, browserName, stack }, use) => {
    const page = await openEnginePage(browser, browserName, browserSettings(stack));
    try {
      await use(page);
    } finally {
      await page.close();
    }
  },
  stackName: ['embedded', { option: true, scope: 'worker' }],
  /**
   * Playwright's own browser fixture (@playwright/test 1.64: launched with the project's launch
   * options, closed at the worker's end), except in a webkit project, where it launches nothing:
   * a per-experiment run's beforeAll asks for it in every project, and in a webkit project uses
   * engines/webdriver.ts instead. Left out of the copy: connecting to a remote browser
   * (connectOptions, PW_TEST_CONNECT_WS_ENDPOINT), which this suite does not use.
   */
  browser: [
    async ({ playwright, browserName }, use) => {
      if (browserName === 'webkit') return use(noPlaywrightBrowser);
      const browser = await playwright[browserName].launch();
      await use(browser);
      await browser.close({ reason: 'Test ended.' });
    },
    { scope: 'worker', timeout: 0 },
  ],
  _engineNeutralOnly: [
    async ({ browserName }, use, testInfo) => {
      testInfo.skip(
        browserName === 'webkit' && !testInfo.tags.includes(EVERY_ENGINE),
        'drives a Playwright page (what classic WebDriver cannot do); WebKitGTK runs the tests tagged @every-engine (docs/testing.md, "WebKit")',
      );
      await use();
    },
    { auto: true },
  ],
  stack: [
    async ({ stackName }, use) => {
      const raw = process.env[stackEnvName(stackName)];
      if (!raw) throw new Error(`stack ${stackName} is not running: the global setup did not start it`);
      await use(JSON.parse(raw) as StackInfo);
    },
    { scope: 'worker' },
  ],
  origins: [
    async ({ stack }, use) => {
      await use({ self: stack.origins[0], other: stack.origins[1], third: stack.third });
    },
    { scope: 'worker' },
  ],
});

export { expect };
