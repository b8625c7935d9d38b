import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { perSecondLimit } from '../src/per-second-limit.js';

/** Each call's answer and every count reported, for calls at the given times (ms). */
function run(perSecond: number, times: number[]) {
  const reports: number[] = [];
  const admit = perSecondLimit(perSecond, (refused) => reports.push(refused));
  const answers = times.map((now) => admit(now));
  return { answers, reports };
}

describe('perSecondLimit: at most n a second, the rest counted and reported once their second is over', () => {
  it.each([
    { perSecond: 2, times: [0, 1, 2], answers: [true, true, false], reports: [] },
    { perSecond: 2, times: [0, 1, 2, 3, 1000], answers: [true, true, false, false, true], reports: [2] },
    {
      perSecond: 1,
      times: [10, 20, 1010, 1020, 1030, 5000],
      answers: [true, false, true, false, false, true],
      reports: [1, 2],
    },
    { perSecond: 3, times: [0, 999, 1000, 1999, 2000], answers: [true, true, true, true, true], reports: [] },
    { perSecond: 0, times: [0, 0, 0, 0], answers: [true, true, true, true], reports: [] },
  ])('$perSecond a second, calls at $times ms', ({ perSecond, times, answers, reports }) => {
    expect(run(perSecond, times)).toEqual({ answers, reports });
  });

  it('reports the count when no call comes after its second', async () => {
    const reported = new Promise<number>((resolve) => {
      const admit = perSecondLimit(1, resolve);
      // Half a millisecond before the second ends, so the timer is due almost at once.
      admit(999.5);
      admit(999.5);
      admit(999.5);
    });
    expect(await reported).toBe(2);
  });

  it('reports the count still pending when the process exits, through the stdout log', () => {
    const serverKit = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = [
      `const { perSecondLimit, stdoutLog } = await import(${JSON.stringify(serverKit)});`,
      `stdoutLog({ msg: 'started' });`,
      `const admit = perSecondLimit(1, (refused) => stdoutLog({ msg: 'refused', refused }));`,
      // The middle of a second far away: its timer cannot fire before the script ends.
      `for (let i = 0; i < 4; i++) admit(5_000_500);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.status).toBe(0);
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; refused?: number });
    expect(lines.map(({ msg, refused }) => ({ msg, refused }))).toEqual([
      { msg: 'started', refused: undefined },
      { msg: 'refused', refused: 3 },
    ]);
  });
});
