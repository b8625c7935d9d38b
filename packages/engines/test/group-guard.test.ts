import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '@origin-lab/test-kit';
import { killGroupWhenGone } from '../src/group-guard.js';

// A real process group (a `sleep` in a session of its own, as Playwright starts a browser) and a
// real parent that dies by SIGKILL, which no handler of its own could catch.

const guard = fileURLToPath(new URL('../dist/group-guard.js', import.meta.url));

/** Whether any process of group is left. */
const groupAlive = (group: number) => {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
};

describe('killGroupWhenGone', () => {
  it('kills the group once its parent is gone, however the parent ended', async () => {
    // The parent: starts the group, sets the guard, says the group's id, and waits.
    const parent = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { execFileSync, spawn } from 'node:child_process';
         import { killGroupWhenGone } from ${JSON.stringify(guard)};
         const group = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
         killGroupWhenGone(group.pid);
         console.log(group.pid);
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const group = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString()))),
    );
    expect(groupAlive(group)).toBe(true);
    parent.kill('SIGKILL');
    await pollUntil('the group to be killed', () => !groupAlive(group), { timeoutMs: 10_000, intervalMs: 100 });
  });

  it('leaves when the group ends first, killing nothing', async () => {
    const group = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    killGroupWhenGone(group.pid!);
    const guards = () => {
      try {
        return execFileSync('pgrep', ['-f', `group-guard ${process.pid} ${group.pid}`], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    };
    expect(groupAlive(group.pid!)).toBe(true);
    process.kill(-group.pid!, 'SIGKILL');
    await pollUntil('the guard to leave', () => guards() === '', { timeoutMs: 10_000, intervalMs: 100 });
  });
});
