import { spawn } from 'node:child_process';

/** The guard: waits while the parent lives and the group has a member, then kills the group. */
const GUARD = `while kill -0 "$1" 2>/dev/null && kill -0 "-$2" 2>/dev/null; do sleep 1; done
kill -KILL "-$2" 2>/dev/null`;

/**
 * Kills process group `group` once process `parent` is gone, however it ended (SIGKILL too), and
 * ends by itself when the group is gone first. Playwright runs a browser in a process group of its
 * own, which outlives a run stopped by a signal before its teardown (vitest on Ctrl-C). The guard
 * is a shell in a session of its own, so the signal that stops the parent's group spares it.
 */
export function killGroupWhenGone(group: number, parent: number = process.pid): void {
  spawn('sh', ['-c', GUARD, 'group-guard', String(parent), String(group)], {
    detached: true,
    stdio: 'ignore',
  }).unref();
}
