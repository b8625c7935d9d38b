import { fileURLToPath } from 'node:url';
import { longestFirst } from '@origin-lab/test-kit/vitest-sequencer';
import { TimingsReporter } from '@origin-lab/test-kit/vitest-timings';
import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other: the unit and integration tests, then the tests that drive real
 * browser engines (origin-lab check). Several browsers at once take both cores; run beside the
 * hardening tests' memory and timing checks they would measure the browsers, not the api.
 */
const ENGINE_TESTS = ['packages/cli/test/check-*.test.ts'];

/**
 * The engine files that take longest (the slowest files of the last clean-clone runs, in
 * docs/testing.md), started first in this order so that the three forks end together. Without it
 * a clean clone, which has no vitest cache of times, starts the largest files first and the
 * default run (one file of one long test) last, alone: the group alone took 290 s so, 254 s
 * longest first. Last measured (a clean clone of ee9062d): risks 205 s, reach 179 s, default-run
 * 118 s, package 105 s, refusals 87 s, mcp-profile 65 s, local-profile 63 s, session 46 s.
 */
const LONGEST_ENGINE_FILES = [
  'check-risks.test.ts',
  'check-reach.test.ts',
  'check-default-run.test.ts',
  'check-package.test.ts',
  'check-refusals.test.ts',
  'check-mcp-profile.test.ts',
  'check-local-profile.test.ts',
  'check-session.test.ts',
].map((name) => `packages/cli/test/${name}`);

/**
 * Test files share their worker's modules (isolate: false): a fresh module graph for each of the
 * 105 unit and integration files cost about a third of that group's time and a third of its CPU
 * (alone on an idle machine: 92 s and 165 s of CPU isolated, 64 s and 104 s shared). A file must
 * then leave nothing behind for the next (docs/decisions.md). These need a process that has
 * loaded nothing before them, and run in one of their own.
 */
const NEED_A_FRESH_PROCESS = [
  // Asserts that the Redis client library is not loaded until an api keeps its state in Redis.
  'services/api/test/shared-state/redis-client-loading.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // The default report, then the slowest tests and files (test-kit's vitest-timings.ts).
    reporters: ['default', new TimingsReporter(fileURLToPath(new URL('.', import.meta.url)))],
    hookTimeout: 30_000,
    sequence: { sequencer: longestFirst(LONGEST_ENGINE_FILES) },
    // Test files run in parallel workers, three on CI's two cores: the unit and integration files
    // wait (on Redis, timers, child processes) a quarter of the time with two (that group: 80 s
    // with two, 63 s with three); the engine tests take the cores either way (151 s, 149 s). Four
    // made the engine group slower than it saved (measured).
    pool: 'forks',
    // As many forks kept as allowed: with fewer kept, a shared worker ended while idle failed the
    // run with "Terminating worker thread" (vitest-dev/vitest#8133).
    poolOptions: { forks: { maxForks: 3, minForks: 3, isolate: false } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit and integration',
          include: ['{packages,services,launcher,docs}/**/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', ...ENGINE_TESTS, ...NEED_A_FRESH_PROCESS],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: 'unit, isolated', include: NEED_A_FRESH_PROCESS, sequence: { groupOrder: 1 } },
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
