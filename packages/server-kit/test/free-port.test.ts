import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBounded } from '@origin-lab/test-kit';

// Each run is its own Node process, as the suite's workers and the launcher are, with its own
// TMPDIR so that the picks written down there are this test's alone.
const picker = (count: number) => `
  import { freePort } from '@origin-lab/server-kit';
  const ports = [];
  for (let i = 0; i < ${count}; i += 1) ports.push(await freePort());
  console.log(JSON.stringify(ports));
`;

const FIRST = 20_000;
const LAST = 32_767;

describe('freePort across processes', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pick = (count: number) =>
    runBounded(process.execPath, ['--input-type=module', '-e', picker(count)], {
      env: { ...process.env, TMPDIR: dir },
      timeoutMs: 30_000,
    });

  it('never hands one port to two processes that pick at once, and leaves nothing behind', async () => {
    dir = mkdtempSync(join(tmpdir(), 'free-port-'));
    const runs = await Promise.all([pick(150), pick(150), pick(150), pick(150)]);
    const ports = runs.flatMap((run) => {
      expect(run.stderr).toBe('');
      return JSON.parse(run.stdout) as number[];
    });
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
