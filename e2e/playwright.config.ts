import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from './browsers.js';
import { selectedStacks } from './stacks/index.js';
import type { StackOptions } from './fixtures.js';

export default defineConfig<StackOptions>({
  testDir: './specs',
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: { actionTimeout: 15_000, navigationTimeout: 20_000, trace: 'off' },
  projects: selectedStacks().map((stackName) => ({
    name: `${stackName}-chromium`,
    use: { stackName, browserName: 'chromium', launchOptions: chromiumLaunch() },
  })),
});
