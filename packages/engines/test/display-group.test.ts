import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DisplayGroup, runningInGroup } from '../src/display-group.js';

// A real group (Xvfb, a session bus) around a small shell program in place of a browser.
// Starting Xvfb and a bus takes a second on a quiet machine and longer beside three engine test
// files on two cores: each test's bound is a minute.
const GROUP_TEST_MS = 60_000;

const running = (group: number) => runningInGroup(group) ?? [];

/** The first line the group writes that matches pattern (dbus-daemon writes its own first); fails, with what it wrote, if it ends first. */
const lineOf = (group: DisplayGroup, pattern: RegExp) =>
  new Promise<string>((resolve, reject) => {
    const ended = setInterval(() => {
      if (!group.exited()) return;
      clearInterval(ended);
      // What it wrote just before it ended may not have reached onLine yet.
      const last = group
        .lastOutput()
        .split('\n')
        .find((line) => pattern.test(line));
      if (last !== undefined) return resolve(last);
      reject(new Error(`the group ended before a line matched ${pattern}; it wrote:\n${group.lastOutput()}`));
    }, 200);
    group.onLine((line) => {
      if (!pattern.test(line)) return;
      clearInterval(ended);
      resolve(line);
    });
  });

/**
 * The display a group's program says it was given, matched anywhere in a line: dbus-daemon writes
 * a warning of its own in pieces, and the program's line can land after its "dbus-daemon[pid]: "
 * (measured under load: a test anchored at the line's start waited for good, twice on CI).
 */
const displayOf = async (group: DisplayGroup) => /display (:\d+)/.exec(await lineOf(group, /display :\d+/))![1]!;
const SAY_DISPLAY = 'echo "display $DISPLAY" >&2; sleep 30';

describe('a display group', { timeout: GROUP_TEST_MS }, () => {
  it('hands on each line its program writes, with a display to run on', async () => {
    const group = DisplayGroup.start('sh', ['-c', SAY_DISPLAY]);
    try {
      expect(await displayOf(group)).toMatch(/^:\d+$/);
    } finally {
      await group.stop();
    }
  });

  it('groups started at once get a display each, and their programs can open it', async () => {
    const groups = [1, 2, 3].map(() =>
      DisplayGroup.start('sh', ['-c', 'xdpyinfo >/dev/null && echo "display $DISPLAY" >&2; sleep 30']),
    );
    try {
      const displays = await Promise.all(groups.map(displayOf));
      expect(new Set(displays).size).toBe(3);
    } finally {
      await Promise.all(groups.map((group) => group.stop()));
    }
  });

  it("lets in only the group's own key", async () => {
    const group = DisplayGroup.start('sh', [
      '-c',
      'XAUTHORITY=/dev/null xdpyinfo >/dev/null 2>&1; echo "without key $?" >&2; sleep 30',
    ]);
    try {
      expect(await lineOf(group, /without key \d+/)).not.toMatch(/without key 0$/);
    } finally {
      await group.stop();
    }
  });

  it('says so when Xvfb is not installed, and ends', async () => {
    // A PATH with every program the group runs but Xvfb.
    const bin = mkdtempSync(join(tmpdir(), 'no-xvfb-'));
    for (const program of ['sh', 'xauth', 'dbus-run-session', 'sleep'])
      symlinkSync(execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim(), join(bin, program));
    const group = DisplayGroup.start('sh', ['-c', SAY_DISPLAY], { PATH: bin });
    try {
      expect(await lineOf(group, /Xvfb/)).toBe('Xvfb did not start (is it installed? the package is xvfb)');
    } finally {
      await group.stop();
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('says how far it got: the display Xvfb gave, then whether its program still runs', async () => {
    const group = DisplayGroup.start('sh', ['-c', 'echo "display $DISPLAY" >&2; sleep 2']);
    try {
      const display = await displayOf(group);
      expect(group.progress()).toBe(`Xvfb on display ${display}, then the command started; it is still running`);
      await vi.waitFor(() => expect(group.exited()).toBe(true), { timeout: 30_000, interval: 200 });
      expect(group.progress()).toBe(`Xvfb on display ${display}, then the command started; it has exited`);
    } finally {
      await group.stop();
    }
  });

  it('says so while Xvfb has given no display', async () => {
    // An Xvfb that never says which display it took: the group waits on it.
    const bin = mkdtempSync(join(tmpdir(), 'slow-xvfb-'));
    writeFileSync(join(bin, 'Xvfb'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const group = DisplayGroup.start('sh', ['-c', SAY_DISPLAY], { PATH: `${bin}:${process.env.PATH}` });
    try {
      expect(group.progress()).toBe('Xvfb had given no display yet; it is still running');
    } finally {
      await group.stop();
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('once stopped, leaves no process running, no HOME and no display socket behind', async () => {
    const group = DisplayGroup.start('sh', ['-c', SAY_DISPLAY]);
    const display = await displayOf(group);
    const pid = (group as unknown as { child: { pid: number } }).child.pid;
    expect(running(pid).length).toBeGreaterThan(2);
    await group.stop();
    expect(running(pid)).toEqual([]);
    expect(existsSync(group.home)).toBe(false);
    expect(existsSync(`/tmp/.X11-unix/X${display.slice(1)}`)).toBe(false);
  });
});
