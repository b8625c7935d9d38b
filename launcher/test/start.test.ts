import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnWatched, type WatchedProcess } from '@origin-lab/test-kit';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: WatchedProcess[] = [];
afterEach(() => {
  for (const { child } of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `npm start`'s program, its output kept. */
function launch(env: Record<string, string>): WatchedProcess {
  const launched = spawnWatched(process.execPath, ['launcher/dist/start.js'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  children.push(launched);
  return launched;
}

/** Runs `npm start`'s program on a free port and waits for the URLs it prints. */
async function start(env: Record<string, string> = {}): Promise<WatchedProcess & { port: number }> {
  const launched = launch({ PORT: '0', LOG_REQUESTS: 'false', ...env });
  const match = await launched.waitFor(/http:\/\/localhost:(\d+)\//, 15_000, 'npm start printing its URLs');
  return { ...launched, port: Number(match[1]) };
}

describe('npm start (the embedded default)', () => {
  it("prints both origins; pages and /api/ answer on each, and each is on the other's allowlist", async () => {
    const { child, port, output, exitWithin } = await start();
    expect(output()).toContain(`http://127.0.0.1:${port}/`);
    const origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
    for (const [self, other] of [origins, [...origins].reverse()]) {
      const page = await fetch(`${self}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const api = await fetch(`${self}/api/posts`, { headers: { Origin: other! } });
      expect(api.status).toBe(200);
      expect(api.headers.get('access-control-allow-origin')).toBe(other);
    }
    child.kill('SIGTERM');
    expect(await exitWithin(5_000)).toBe(0);
  });

  it('SIGTERM ends open streams and slow requests finish; the process exits cleanly', async () => {
    const { child, port, exitWithin } = await start();
    const streamEnded = new Promise<string>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/api/stream?count=100`, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(text));
          res.on('error', reject);
          res.once('data', () => child.kill('SIGTERM'));
        })
        .on('error', reject);
    });
    const text = await streamEnded;
    expect(text).toContain('event: tick');
    expect(text).not.toContain('"n":100');
    expect(await exitWithin(5_000)).toBe(0);
  });

  it('a taken port gives a clear message and exit code 2', async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const launched = launch({ PORT: String(port) });
      expect(await launched.exitWithin(10_000)).toBe(2);
      expect(launched.stderr()).toContain(`port ${port} is taken`);
    } finally {
      blocker.close();
    }
  });

  it('a bad setting gives a clear message naming the variable and exit code 2', async () => {
    const launched = launch({ PORT: '0', FLAKY_RATE: 'often' });
    expect(await launched.exitWithin(10_000)).toBe(2);
    expect(launched.stderr()).toContain('FLAKY_RATE');
  });
});
