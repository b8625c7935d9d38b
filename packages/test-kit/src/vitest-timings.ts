/**
 * A vitest reporter that keeps every test's time, writes them (slowest.ts's timings file) and
 * prints the slowest at the end of the run. Beside the default reporter, not instead of it.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { slowestLines, writeTimings, type Timing } from './slowest.js';

export class TimingsReporter implements Reporter {
  private started = Date.now();

  constructor(private readonly root: string) {}

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const tests: Timing[] = [];
    for (const module of modules) {
      const file = relative(this.root, module.moduleId);
      let inTests = 0;
      for (const test of module.children.allTests()) {
        const ms = test.diagnostic()?.duration ?? 0;
        inTests += ms;
        tests.push({ title: `[${module.project.name}] ${test.fullName}`, file, ms });
      }
      // A file's servers and engines start in its hooks: counted apart, so the file's total is its real time.
      const setUp = module.diagnostic().duration - inTests;
      if (setUp > 0) tests.push({ title: `[${module.project.name}] (the file's hooks and set-up)`, file, ms: setUp });
    }
    const timings = { runner: 'vitest' as const, wallMs: Date.now() - this.started, tests };
    writeTimings(this.root, timings);
    console.log(`\n${slowestLines(timings).join('\n')}`);
  }
}
