import { dirname, relative, resolve } from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { slowestLines, writeTimings, type Timing } from '@origin-lab/test-kit/slowest';

/**
 * Keeps every test's time (its hooks included: a page's one run sits in its first test), writes
 * them to the timings file and prints the slowest at the end of the run. Beside the list reporter.
 */
export default class TimingsReporter implements Reporter {
  private root = process.cwd();
  private started = Date.now();
  private readonly tests: Timing[] = [];

  onBegin(config: FullConfig): void {
    // The repository: the config sits in e2e/.
    if (config.configFile) this.root = resolve(dirname(config.configFile), '..');
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') return;
    const [, project, , ...titles] = test.titlePath();
    this.tests.push({
      title: `[${project}] ${titles.filter(Boolean).join(' › ')}`,
      file: relative(this.root, test.location.file),
      ms: result.duration,
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
