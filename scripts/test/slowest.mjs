// The slowest tests and files of this run of npm test, both runners' (vitest, then Playwright),
// each with its share of that runner's test time. The runners' reporters wrote the timings
// (.tmp/timings/); a runner that did not run this time prints nothing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readTimings, slowestLines, timingsFile } from '@origin-lab/test-kit/slowest';

const root = fileURLToPath(new URL('../..', import.meta.url));
for (const runner of ['vitest', 'playwright']) {
  const file = timingsFile(root, runner);
  if (existsSync(file)) console.log(slowestLines(readTimings(file)).join('\n'));
}
