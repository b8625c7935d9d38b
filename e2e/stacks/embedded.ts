import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Stack } from './stack.js';
import { stopChild, waitForOutput } from '@origin-lab/server-kit';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** `npm start` as a newcomer runs it, on a free port: http://localhost:PORT and http://127.0.0.1:PORT. */
export async function startEmbedded(): Promise<Stack> {
  const child = spawn(process.execPath, ['launcher/dist/start.js'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', LOG_REQUESTS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const match = await waitForOutput(child, /http:\/\/localhost:(\d+)\//, 15_000, 'the embedded stack (npm start)');
  const port = match[1];
  return {
    name: 'embedded',
    origins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
    stop: () => stopChild(child, 5_000),
  };
}
