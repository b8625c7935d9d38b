// The slowest tests and files of this run of npm test, each runner's (vitest's groups, then
// Playwright), each with its share of that runner's test time. The runners' reporters wrote the
// timings (.tmp/timings/); a runner that did not run this time prints nothing.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTimings, slowestLines, timingsFolder } from '@origin-lab/test-kit/slowest';

const folder = timingsFolder(fileURLToPath(new URL('../..', import.meta.url)));
const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')) : [];
// vitest's before Playwright's, as they ran.
const order = (name) => (name.startsWith('playwright') ? 1 : 0);
for (const name of files.sort((a, b) => order(a) - order(b) || a.localeCompare(b)))
  console.log(slowestLines(readTimings(join(folder, name))).join('\n'));
