import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { launchOptions } from '@origin-lab/engines';
import { selectedBrowsers, stacksInUse } from './stacks/index.js';
import { browserSettings, stackEnvName, type BrowserSettings, type StackInfo, type StackName } from './stacks/stack.js';
import type { StackOptions } from './fixtures.js';
import { matrixGaps, specsFor } from './coverage.js';

// Every spec runs where the coverage matrix says, and a spec it does not name runs nowhere: stop.
const specFiles = readdirSync(fileURLToPath(new URL('./specs/', import.meta.url))).filter((f) =>
  f.endsWith('.spec.ts'),
);
const gaps = matrixGaps(specFiles);
if (gaps.unlisted.length + gaps.missing.length > 0)
  throw new Error(
    `e2e/coverage.ts must name every spec file once: not in it: ${gaps.unlisted.join(', ') || 'none'}; no such file: ${gaps.missing.join(', ') || 'none'}`,
  );

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

/**
 * Tests at once: E2E_WORKERS, 3 by default on the two cores of the machines the suite runs on. A
 * fifth of the e2e suite's time is waiting (a stream's reconnect, a beacon after a page closes, a
 * preflight cache running out, a DNS answer expiring), which a third worker fills: beacons, events
 * and reads in three engines took 112 s with two workers, 89 s with three and 89 s with four
 * (docs/testing.md, "What the suite costs").
 */
function workers(): number {
  const raw = process.env.E2E_WORKERS ?? '3';
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > 16)
    throw new Error(`E2E_WORKERS must be a whole number from 1 to 16, not "${raw}"`);
  return count;
}

export default defineConfig<object, StackOptions>({
  testDir: './specs',
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: workers(),
  retries: 0,
  forbidOnly: !!process.env.CI,
  // The list, then the slowest tests and files (timings-reporter.ts; npm test prints both runners' at its end).
  reporter: [['list'], ['./timings-reporter.ts']],
  use: { actionTimeout: 15_000, navigationTimeout: 20_000, trace: 'off' },
  projects: stacksInUse().flatMap((stackName) => {
    const { caCerts, loopbackNames } = settingsOf(stackName);
    return selectedBrowsers().flatMap((browserName) => {
      const use = { stackName, browserName, launchOptions: launchOptions(browserName, caCerts, loopbackNames) };
      const name = `${stackName}-${browserName}`;
      const [specs, last] = [specsFor(stackName, browserName), specsFor(stackName, browserName, true)];
      // The specs that take both cores (coverage.ts, runsLast) start once the others are done.
      return [
        ...(specs.length > 0 ? [{ name, testMatch: specs, use }] : []),
        ...(last.length > 0
          ? [{ name: `${name}-last`, testMatch: last, use, dependencies: specs.length > 0 ? [name] : [] }]
          : []),
      ];
    });
  }),
});
