import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBounded, spawnWatched } from '@origin-lab/test-kit';

// Each run is its own Node process, as the suite's workers and the launcher are, with its own
// TMPDIR so that the picks written down there are this test's alone. It prints its picks, then
// holds them until it is stopped: a process that has ended gives its picks back.
const picker = (count: number, hold: boolean) => `
  import { freePort } from '@origin-lab/server-kit';
  if (${hold}) process.on('SIGTERM', () => process.exit(0));
  const ports = [];
  for (let i = 0; i < ${count}; i += 1) ports.push(await freePort());
  console.log(JSON.stringify(ports));
  if (${hold}) setInterval(() => undefined, 1_000);
`;

const FIRST = 20_000;
const LAST = 32_767;

describe('freePort across processes', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pick = (count: number) =>
    runBounded(process.execPath, ['--input-type=module', '-e', picker(count, false)], {
      env: { ...process.env, TMPDIR: dir },
      timeoutMs: 30_000,
    });

  /** Four pickers at once, each holding its picks until all four have printed theirs. */
  async function pickTogether(count: number): Promise<number[][]> {
    const pickers = Array.from({ length: 4 }, () =>
      spawnWatched(process.execPath, ['--input-type=module', '-e', picker(count, true)], {
        env: { ...process.env, TMPDIR: dir },
      }),
    );
    try {
      const printed = await Promise.all(pickers.map((run) => run.waitFor(/\[[\d,]*\]\n/, 30_000, 'its picks')));
      return printed.map((line) => JSON.parse(line[0]) as number[]);
    } finally {
      await Promise.all(pickers.map((run) => run.stop()));
    }
  }

  it('never hands one port to two processes that pick at once, and leaves nothing behind', async () => {
    dir = mkdtempSync(join(tmpdir(), 'free-port-'));
    const ports = (await pickTogether(150)).flat();
    expect(ports).toHaveLength(600);
    expect(new Set(ports).size).toBe(600);
    for (const port of ports) expect(port).toBeGreaterThanOrEqual(FIRST);
    for (const port of ports) expect(port).toBeLessThanOrEqual(LAST);
    expect(readdirSync(join(dir, 'origin-lab-ports'))).toEqual([]);
  });

  it('skips a port another process picked lately, and reuses one a crashed process left long ago', async () => {
    dir = mkdtempSync(join(tmpdir(), 'free-port-'));
    const reservations = join(dir, 'origin-lab-ports');
    mkdirSync(reservations);
    for (let port = FIRST; port <= LAST; port += 1) writeFileSync(join(reservations, String(port)), '');
    const taken = await pick(1);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`no free port among ${FIRST}-${LAST} after 50 tries`);

    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (let port = FIRST; port <= LAST; port += 1) utimesSync(join(reservations, String(port)), anHourAgo, anHourAgo);
    const stale = await pick(1);
    expect(stale.stderr).toBe('');
    expect(JSON.parse(stale.stdout)).toEqual([expect.any(Number)]);
  });
});
