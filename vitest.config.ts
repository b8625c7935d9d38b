import { fileURLToPath } from 'node:url';
import { TimingsReporter } from '@origin-lab/test-kit/vitest-timings';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Two groups, one after the other: the unit and integration tests, then the tests that drive real
 * browser engines (origin-lab check). Several browsers at once take both cores; run beside the
 * hardening tests' memory and timing checks they would measure the browsers, not the api.
 */
const ENGINE_TESTS = ['packages/cli/test/check-*.test.ts'];

/**
 * The files that take half a minute or more (the slowest list `npm test` prints), started first in
 * their group so that both workers finish together: on a clean clone vitest has no timings of its
 * own and starts the largest files first, which left one worker with a 35 s file at the end.
 */
const LONGEST = [
  'services/api/test/hardening/load.test.ts',
  'packages/cli/test/check-default-run.test.ts',
  'packages/cli/test/check-risks.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((path) => file.moduleId.endsWith(path));
      return index === -1 ? LONGEST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // The default report, then the slowest tests and files (test-kit's vitest-timings.ts).
    reporters: ['default', new TimingsReporter(fileURLToPath(new URL('.', import.meta.url)))],
    hookTimeout: 30_000,
    sequence: { sequencer: LongestFirst },
    // Test files run in parallel workers; two cores on CI.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
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
          exclude: ['**/node_modules/**', '**/dist/**'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
