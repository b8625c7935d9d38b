import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { BenchOptions } from '../lib/options.js';
import type { Figure } from '../lib/report.js';
import { repoRoot } from '../lib/processes.js';
import { BENCH_ORIGIN, startApi } from '../lib/servers.js';
import { median } from '../lib/stats.js';

/** Every engine `check` can drive, as --engines names them. */
const ENGINES = ['chromium', 'firefox', 'webkit'];

/** Seconds one `origin-lab check` run takes, end to end (the program, as a user starts it). */
function timeCheck(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'packages/cli/bin/origin-lab.js'), 'check', ...args, '--quiet', '--fail-on', 'never'],
      { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, _stdout, stderr) =>
        error
          ? reject(new Error(`check failed: ${stderr.trim().split('\n').at(-1)}`))
          : resolve((performance.now() - started) / 1000),
    );
  });
}

/**
 * The default matrix of `check` (every cell of one origin of yours, every attacker origin) against
 * one target, the api's /api/posts, in the three engines at once; beside it the same run in
 * Chromium alone, to show what two more engines cost.
 */
export async function checkBench(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const api = await startApi();
  const runs = options.quick ? 1 : 3;
  const args = [`${api.url}/api/posts`, '--from', BENCH_ORIGIN, '--local-network', 'public'];
  const three: number[] = [];
  const one: number[] = [];
  for (let run = 1; run <= runs; run++) {
    three.push(await timeCheck([...args, '--engines', ENGINES.join(',')]));
    one.push(await timeCheck([...args, '--engines', 'chromium']));
    log(`[check] run ${run}: three engines ${three.at(-1)!.toFixed(1)} s, Chromium alone ${one.at(-1)!.toFixed(1)} s`);
  }
  const value = median(three);
  return [
    {
      bench: 'check',
      name: 'default matrix, one origin, three engines',
      value,
      unit: 's',
      baseline: { label: 'Chromium alone', value: median(one) },
      ratio: value / median(one),
      target: '< 60 s',
      met: value < 60,
      note: `the median of ${runs} run(s): one origin of yours (6 requests), every attacker origin (2 requests each), Chromium, Firefox and WebKit in parallel`,
    },
  ];
}
