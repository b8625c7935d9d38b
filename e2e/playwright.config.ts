import { defineConfig } from '@playwright/test';
import { launchOptions } from '@origin-lab/engines';
import { browsersOn, selectedStacks } from './stacks/index.js';
import { browserSettings, stackEnvName, type BrowserSettings, type StackInfo, type StackName } from './stacks/stack.js';
import type { StackOptions } from './fixtures.js';

/**
 * What a stack tells its browsers (stacks/stack.ts). The global setup publishes the stack before
 * the workers start, and each worker evaluates this file, so the browsers a worker launches have
 * them from the start. (The runner's own evaluation, before the setup, launches no browser and
 * needs none.) WebKit gets the same settings through the stack fixture (engines/open.ts).
 */
function settingsOf(stackName: StackName): BrowserSettings {
  const raw = process.env[stackEnvName(stackName)];
  return browserSettings(raw ? (JSON.parse(raw) as StackInfo) : undefined);
}

export default defineConfig<object, StackOptions>({
  testDir: './specs',
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // The list, then the slowest tests and files (timings-reporter.ts; npm test prints both runners' at its end).
  reporter: [['list'], ['./timings-reporter.ts']],
  use: { actionTimeout: 15_000, navigationTimeout: 20_000, trace: 'off' },
  projects: selectedStacks().flatMap((stackName) => {
    const { caCerts, loopbackNames } = settingsOf(stackName);
    return browsersOn(stackName).map((browserName) => ({
      name: `${stackName}-${browserName}`,
      use: { stackName, browserName, launchOptions: launchOptions(browserName, caCerts, loopbackNames) },
    }));
  }),
});
