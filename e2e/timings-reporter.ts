import { dirname, join, relative, resolve } from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { slowestLines, writeTimings, type Timing } from '@origin-lab/test-kit/slowest';

/**
 * Keeps every test's time, writes them to the timings file and prints the slowest at the end of
 * the run. Beside the list reporter. A test's time is what its worker spent since the test before
 * it there ended: its own run, and the hooks and fixtures that ran for it (a page's one run for
 * its experiments' tests is a beforeAll, which Playwright counts in no test's duration).
 */
export default class TimingsReporter implements Reporter {
  private root = process.cwd();
  private testDir = process.cwd();
  private started = Date.now();
  private readonly tests: Timing[] = [];
  /** When the last test on each worker slot ended. */
  private readonly lastEnd = new Map<number, number>();

  onBegin(config: FullConfig): void {
    // The repository: the config sits in e2e/.
    if (config.configFile) this.root = resolve(dirname(config.configFile), '..');
    this.testDir = config.projects[0]?.testDir ?? this.root;
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const started = result.startTime.getTime();
    const ended = started + result.duration;
    const since = Math.min(this.lastEnd.get(result.parallelIndex) ?? started, started);
    this.lastEnd.set(result.parallelIndex, ended);
    if (result.status === 'skipped') return;
    // ['', project, the spec file (from testDir), ...describes, title]: the spec, not the helper
    // that called test() (support/per-experiment.ts for every page's experiments).
    const [, project, specFile, ...titles] = test.titlePath();
    this.tests.push({
      title: `[${project}] ${titles.filter(Boolean).join(' › ')}`,
      file: relative(this.root, join(this.testDir, specFile ?? '')),
      ms: ended - since,
    });
  }

  onEnd(): void {
    const timings = { runner: 'playwright' as const, wallMs: Date.now() - this.started, tests: this.tests };
    writeTimings(this.root, timings);
    console.log(`\n${slowestLines(timings).join('\n')}`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
