// ESLint: typescript-eslint's recommended rules everywhere, plus the type-aware rules that catch
// promises nobody awaits or handles (a forgotten await in a test or a handler fails silently).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// The api's layers (docs/architecture.md, "Wiring at the top"): the wiring beside app.ts, the
// feature folders, and the shared folders every feature uses. Arrows point down only.
const API = 'services/api/src';
const API_WIRING = `${API}/*.ts`;
const API_FEATURES = `${API}/{bad-json,beacon,echo,fair-share,flaky,journal,lab,posts,proxy,slow,stream}/**`;
const API_SHARED = `${API}/{http,middleware,shared-state}/**`;
// The shared packages sit below everything that runs them: the services, the launcher, e2e and
// bench use packages/*, never the other way round. Their tests may start a real service.
const PACKAGE_SOURCES = 'packages/*/src/**';
const ABOVE_PACKAGES = ['services', 'launcher', 'e2e', 'bench'];
// The command's layers (docs/architecture.md, "origin-lab check"): main.ts on top, the two commands
// side by side, the drivers under check, and the common files (options, terminal, lab-link) under all.
const CLI = 'packages/cli/src';
const CLI_COMMON = `${CLI}/{options,terminal,lab-link}.ts`;

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'packages/cli/bin/**',
      '**/node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
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
  // No arrow up in the api's layers, nor from the packages to what runs them. Import circles are
  // `npm run check:cycles`'s (madge, type-only imports included, over sources, tests, e2e and bench).
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['./tsconfig.json', './tsconfig.tests.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: API_SHARED,
              from: [API_FEATURES, API_WIRING],
              message: 'a shared folder (http/, middleware/, shared-state/) imports no feature and no wiring',
            },
            {
              target: API_FEATURES,
              from: [API_WIRING],
              message:
                'a feature is handed its options by the wiring (app.ts, config.ts, stores.ts); it never imports them',
            },
            {
              target: PACKAGE_SOURCES,
              from: ABOVE_PACKAGES,
              message: 'a package (packages/*) never imports the services, the launcher, e2e or bench',
            },
            {
              target: `${CLI}/explain/**`,
              from: `${CLI}/check/**`,
              message: 'explain sits beside check: what both use belongs in options.ts, terminal.ts or lab-link.ts',
            },
            {
              target: `${CLI}/check/**`,
              from: `${CLI}/explain/**`,
              message: 'check sits beside explain: what both use belongs in options.ts, terminal.ts or lab-link.ts',
            },
            {
              target: `${CLI}/drivers/**`,
              from: [`${CLI}/check/**`, `${CLI}/explain/**`],
              message: 'the drivers sit under the commands: they take what they need as arguments',
            },
            {
              target: CLI_COMMON,
              from: [`${CLI}/check/**`, `${CLI}/explain/**`, `${CLI}/drivers/**`, `${CLI}/{main,bin}.ts`],
              message: "the command's common files sit under everything in the command",
            },
          ],
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
