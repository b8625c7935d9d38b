import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Stack } from './stack.js';
import { stopChild, waitForOutput } from '@origin-lab/server-kit';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm start`'s program on a free port with the given settings; resolves with the port it printed
 * in the first address matching addressPattern (its one group is the port), and a stop().
 */
export async function startLauncher(
  env: Record<string, string>,
  addressPattern: RegExp,
  what: string,
  args: readonly string[] = [],
): Promise<{ port: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['launcher/dist/start.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => stopChild(child, 5_000);
  const match = await waitForOutput(child, addressPattern, 15_000, what).catch(async (err: Error) => {
    await stop();
    throw err;
  });
  return { port: match[1]!, stop };
}

/**
 * `npm start` as a newcomer runs it, on a free port: http://localhost:PORT and
 * http://127.0.0.1:PORT (and its third name, c.localhost), with the DNS rebinding lab (--rebind).
 */
export async function startEmbedded(): Promise<Stack> {
  const { port, stop } = await startLauncher(
    {},
    /http:\/\/localhost:(\d+)\//,
    'the embedded stack (npm start -- --rebind)',
    ['--rebind'],
  );
  return {
    name: 'embedded',
    origins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
    third: `http://c.localhost:${port}`,
    stop,
  };
}
