import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { DisplayGroup } from '../src/display-group.js';

// A real group (xvfb-run, Xvfb, a session bus) around a small shell program in place of a browser.
// Starting Xvfb and a bus takes a second on a quiet machine and far longer beside three engine
// test files on two cores (CI timed out at 20 s): each test's bound is a minute.
const GROUP_TEST_MS = 60_000;

/** The processes of a group that still run (a zombie has ended: it only waits to be reaped). */
function running(group: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === group && state !== 'Z' ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

/** The first line the group writes that matches pattern (dbus-daemon writes its own first). */
const lineOf = (group: DisplayGroup, pattern: RegExp) =>
  new Promise<string>((resolve) => group.onLine((line) => pattern.test(line) && resolve(line)));

const xvfbFolders = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('xvfb-run.')));

describe('a display group', { timeout: GROUP_TEST_MS }, () => {
  it('hands on each line its program writes, with a display to run on', async () => {
    const group = DisplayGroup.start('sh', ['-c', 'echo "display $DISPLAY" >&2; sleep 30']);
    try {
      expect(await lineOf(group, /^display /)).toMatch(/^display :\d+$/);
    } finally {
      await group.stop();
    }
  });

  it('once stopped, leaves no process running, no HOME and no folder of xvfb-run behind', async () => {
    const before = xvfbFolders();
    const group = DisplayGroup.start('sh', ['-c', 'echo up >&2; sleep 30']);
    await lineOf(group, /^up$/);
    const pid = (group as unknown as { child: { pid: number } }).child.pid;
    expect(running(pid).length).toBeGreaterThan(2);
    await group.stop();
    expect(running(pid)).toEqual([]);
    expect(existsSync(group.home)).toBe(false);
    expect([...xvfbFolders()].filter((name) => !before.has(name))).toEqual([]);
  });
});
