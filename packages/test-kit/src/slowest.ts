/**
 * The slowest tests and files of a run, and their share of the whole: what `npm test` prints at
 * the end of each runner (vitest and Playwright) and once more, for both, at the very end
 * (scripts/test/slowest.mjs), so the next test added can see what it costs. Both runners write
 * their timings to one JSON file each (timingsFile); this module only reads and formats them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One test as a runner timed it. */
export interface Timing {
  /** The test's title, with its project (`[caddy-firefox] …`) where the runner has projects. */
  title: string;
  /** The file it is in, relative to the repository. */
  file: string;
  /** How long it ran, its hooks included (a page's one run sits in its first test). */
  ms: number;
}

/** One runner's timings, as written to its file. */
export interface RunTimings {
  runner: 'vitest' | 'playwright';
  /** The run's wall-clock time, start to end. */
  wallMs: number;
  tests: Timing[];
}

/**
 * Where a runner's timings go: .tmp/timings/<runner>.json under the repository (not under
 * test-results/, which Playwright empties when it starts).
 */
export function timingsFile(root: string, runner: RunTimings['runner']): string {
  return join(root, '.tmp', 'timings', `${runner}.json`);
}

export function writeTimings(root: string, timings: RunTimings): string {
  const file = timingsFile(root, timings.runner);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(timings)}\n`);
  return file;
}

export function readTimings(file: string): RunTimings {
  return JSON.parse(readFileSync(file, 'utf8')) as RunTimings;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
const share = (ms: number, whole: number) => `${whole > 0 ? ((100 * ms) / whole).toFixed(1) : '0.0'}%`.padStart(6);

/** The `count` slowest tests and files of a run, one line each, with their share of all test time. */
export function slowestLines({ runner, wallMs, tests }: RunTimings, count = 10): string[] {
  const whole = tests.reduce((sum, test) => sum + test.ms, 0);
  const byFile = new Map<string, { ms: number; tests: number }>();
  for (const test of tests) {
    const file = byFile.get(test.file) ?? { ms: 0, tests: 0 };
    file.ms += test.ms;
    file.tests += 1;
    byFile.set(test.file, file);
  }
  const slowTests = [...tests].sort((a, b) => b.ms - a.ms).slice(0, count);
  const slowFiles = [...byFile].sort(([, a], [, b]) => b.ms - a.ms).slice(0, count);
  return [
    `${runner}: ${tests.length} tests, ${seconds(whole).trim()} of test time in ${seconds(wallMs).trim()} of wall time`,
    `  the ${slowTests.length} slowest tests (share of all test time):`,
    ...slowTests.map((test) => `  ${share(test.ms, whole)} ${seconds(test.ms)}  ${test.file} › ${test.title}`),
    `  the ${slowFiles.length} slowest files:`,
    ...slowFiles.map(
      ([file, { ms, tests: n }]) => `  ${share(ms, whole)} ${seconds(ms)}  ${file} (${n} test${n === 1 ? '' : 's'})`,
    ),
  ];
}
