import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Runs `npm start`'s program on a free port and waits for the URLs it prints. */
async function start(env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(process.execPath, ['launcher/dist/start.js'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URLs printed:\n${output}`)), 15_000);
    const check = () => {
      const match = /http:\/\/localhost:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { child, port, output: () => output };
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error('did not exit in time')), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('npm start (the embedded default)', () => {
  it('prints both origins; pages and /api/ answer on each, and each is on the other\'s allowlist', async () => {
    const { child, port, output } = await start();
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
    expect(await exited(child, 5_000)).toBe(0);
  });

  it('SIGTERM ends open streams and slow requests finish; the process exits cleanly', async () => {
    const { child, port } = await start();
    const streamEnded = new Promise<string>((resolve, reject) => {
      http.get(`http://127.0.0.1:${port}/api/stream?count=100`, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
        res.on('error', reject);
        res.once('data', () => child.kill('SIGTERM'));
      }).on('error', reject);
    });
    const text = await streamEnded;
    expect(text).toContain('event: tick');
    expect(text).not.toContain('"n":100');
    expect(await exited(child, 5_000)).toBe(0);
  });

  it('a taken port gives a clear message and exit code 2', async () => {
    const blocker = http.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, ['launcher/dist/start.js'], { cwd: repoRoot, env: { ...process.env, PORT: String(port) } });
      children.push(child);
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      expect(await exited(child, 10_000)).toBe(2);
      expect(stderr).toContain(`port ${port} is taken`);
    } finally {
      blocker.close();
    }
  });

  it('a bad setting gives a clear message naming the variable and exit code 2', async () => {
    const child = spawn(process.execPath, ['launcher/dist/start.js'], { cwd: repoRoot, env: { ...process.env, PORT: '0', FLAKY_RATE: 'often' } });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await exited(child, 10_000)).toBe(2);
    expect(stderr).toContain('FLAKY_RATE');
  });
});
