import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { launchOptions } from '@origin-lab/engines';
import { selectedBrowsers, stacksInUse } from './stacks/index.js';
import { browserSettings, stackEnvName, type BrowserSettings, type StackInfo, type StackName } from './stacks/stack.js';
import type { StackOptions } from './fixtures.js';
import { CHROMIUM_PROGRAMS, matrixGaps, specsFor } from './coverage.js';
import { workerCount } from './workers.js';

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
 * Debian's Chromium headless shell (package chromium-headless-shell), or CHROMIUM_SHELL_PATH: the
 * program of the <stack>-chromium-shell projects (coverage.ts). The e2e suite's alone: `check`
 * finds its engines itself (packages/engines, find-engines.ts).
 */
const CHROMIUM_SHELL = process.env.CHROMIUM_SHELL_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

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
  workers: workerCount(process.env.E2E_WORKERS),
  retries: 0,
  forbidOnly: !!process.env.CI,
  // The list, then the slowest tests and files (timings-reporter.ts; npm test prints both runners' at its end).
  reporter: [['list'], ['./timings-reporter.ts']],
  use: { actionTimeout: 15_000, navigationTimeout: 20_000, trace: 'off' },
  projects: stacksInUse().flatMap((stackName) => {
    const { caCerts, loopbackNames } = settingsOf(stackName);
    return selectedBrowsers().flatMap((browserName) => {
      // Chromium in two programs, each with its own specs (coverage.ts): <stack>-chromium is the
      // browser, <stack>-chromium-shell its headless shell. Both take one set of launch options
      // (one HOME and NSS database, made once), the shell with its own program.
      const variants = browserName === 'chromium' ? CHROMIUM_PROGRAMS : [undefined];
      const options = launchOptions(browserName, caCerts, loopbackNames);
      const projects = variants.map((program) => {
        const shell = program === 'shell';
        return {
          name: `${stackName}-${browserName}${shell ? '-shell' : ''}`,
          use: {
            stackName,
            browserName,
            launchOptions: shell ? { ...options, executablePath: CHROMIUM_SHELL } : options,
          },
          specs: specsFor(stackName, browserName, false, program),
          last: specsFor(stackName, browserName, true, program),
        };
      });
      const others = projects.filter(({ specs }) => specs.length > 0).map(({ name }) => name);
      // The specs that take both cores (coverage.ts, runsLast) start once the others of their stack
      // and engine are done.
      return projects.flatMap(({ name, use, specs, last }) => [
        ...(specs.length > 0 ? [{ name, testMatch: specs, use }] : []),
        ...(last.length > 0 ? [{ name: `${name}-last`, testMatch: last, use, dependencies: others }] : []),
      ]);
    });
  }),
});
