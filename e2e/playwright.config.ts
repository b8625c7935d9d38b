import { defineConfig } from '@playwright/test';
import { launchOptions } from './browsers.js';
import { selectedBrowsers, selectedStacks } from './stacks/index.js';
import { stackEnvName, type StackInfo, type StackName } from './stacks/stack.js';
import type { StackOptions } from './fixtures.js';

/**
 * The CA a stack's TLS front uses. The global setup publishes it before the workers start, and
 * each worker evaluates this file, so the browsers a worker launches trust it from the start.
 * (The runner's own evaluation, before the setup, launches no browser and needs none.)
 */
function stackCaCerts(stackName: StackName): string[] {
  const raw = process.env[stackEnvName(stackName)];
  const caCert = raw ? (JSON.parse(raw) as StackInfo).caCert : undefined;
  return caCert ? [caCert] : [];
}

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
  projects: selectedStacks().flatMap((stackName) =>
    selectedBrowsers().map((browserName) => ({
      name: `${stackName}-${browserName}`,
      use: { stackName, browserName, launchOptions: launchOptions(browserName, stackCaCerts(stackName)) },
    })),
  ),
});
