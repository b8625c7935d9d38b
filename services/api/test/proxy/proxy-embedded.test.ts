import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '@origin-lab/server-kit';

const launcher = fileURLToPath(new URL('../../../../launcher/dist/start.js', import.meta.url));
let child: ReturnType<typeof spawn> | undefined;
let origins: [string, string];

beforeAll(async () => {
  if (!existsSync(launcher)) throw new Error(`${launcher} is missing: run "npm run build" first`);
  const env: Record<string, string | undefined> = { ...process.env, PORT: '0', LOG_REQUESTS: 'false' };
  delete env.UPSTREAM_URL;
  delete env.UPSTREAM_API_KEY;
  delete env.UPSTREAM_API_KEY_FILE;
  child = spawn(process.execPath, [launcher], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`npm start was not ready within 15 s:\n${seen}`)), 15_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /http:\/\/localhost:(\d+)\//.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${seen}`)));
  });
  origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
});
afterAll(async () => {
  if (child) await stopChild(child);
});

describe('npm start runs the upstream-mock behind the proxy', () => {
  it('/api/upstream/posts answers on both origins, the second call from the cache', async () => {
    const [first, second] = origins;
    const miss = await fetch(`${first}/api/upstream/posts?perPage=2`);
    expect(miss.status).toBe(200);
    expect(miss.headers.get('x-cache')).toBe('MISS');
    const missBody = await miss.text();
    expect(JSON.parse(missBody).posts).toHaveLength(2);

    const hit = await fetch(`${second}/api/upstream/posts?perPage=2`, { headers: { Origin: first } });
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.headers.get('cache-control')).toBe('public, max-age=300');
    expect(hit.headers.get('access-control-allow-origin')).toBe(first);
    expect(await hit.text()).toBe(missBody);
  });

  it('the upstream-mock itself is not reachable through the front', async () => {
    const res = await fetch(`${origins[0]}/api/upstream/_admin/calls`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not proxied');
  });
});
