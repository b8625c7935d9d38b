// ESLint: typescript-eslint's recommended rules everywhere, plus the type-aware rules that catch
// promises nobody awaits or handles (a forgotten await in a test or a handler fails silently).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        // The projects that own every TypeScript file: sources, tests, browser code, e2e, bench.
        project: [
          './packages/*/tsconfig.json',
          './services/*/tsconfig.json',
          './services/pages/web/tsconfig.json',
          './launcher/tsconfig.json',
          './tsconfig.tests.json',
          './e2e/tsconfig.json',
          './bench/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A handle assigned once, after closures that read it are made, stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  // The pages' frame is the bottom of the browser code: the page's composition root (page/)
  // puts it together with the server view, never the other way round.
  {
    files: ['services/pages/web/ts/frame/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['../server-view/*', '../page/*'], message: 'frame/ sits below server-view/ and page/' }],
        },
      ],
    },
  },
  // Tests read loosely shaped JSON answers.
  { files: ['**/test/**/*.ts', 'e2e/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Root-level config files belong to no project: lint them without type information.
  { files: ['*.ts'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
