import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{packages,services,launcher,docs}/**/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Test files run in parallel workers; two cores on CI.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
