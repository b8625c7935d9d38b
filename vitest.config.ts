import { fileURLToPath } from 'node:url';
import { TimingsReporter } from '@origin-lab/test-kit/vitest-timings';
import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other: the unit and integration tests, then the tests that drive real
 * browser engines (origin-lab check). Several browsers at once take both cores; run beside the
 * hardening tests' memory and timing checks they would measure the browsers, not the api.
 */
const ENGINE_TESTS = ['packages/cli/test/check-*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // The default report, then the slowest tests and files (test-kit's vitest-timings.ts).
    reporters: ['default', new TimingsReporter(fileURLToPath(new URL('.', import.meta.url)))],
    hookTimeout: 30_000,
    // Test files run in parallel workers, three on CI's two cores: the unit and integration files
    // wait (on Redis, timers, child processes) a quarter of the time with two (that group: 80 s
    // with two, 63 s with three); the engine tests take the cores either way (151 s, 149 s). Four
    // made the engine group slower than it saved (measured).
    pool: 'forks',
    poolOptions: { forks: { maxForks: 3, minForks: 1 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit and integration',
          include: ['{packages,services,launcher,docs}/**/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', ...ENGINE_TESTS],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'engines',
          include: ENGINE_TESTS,
          // One Firefox for the whole group, which the checks connect to (shared-engines.ts).
          globalSetup: ['packages/cli/test/shared-engines.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
