import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeScript, type StartedProcess } from '@origin-lab/test-kit';

const launcher = fileURLToPath(new URL('../../../../launcher/dist/start.js', import.meta.url));
let started: StartedProcess | undefined;
let origins: [string, string];

beforeAll(async () => {
  const env: Record<string, string | undefined> = { ...process.env, PORT: '0', LOG_REQUESTS: 'false' };
  delete env.UPSTREAM_URL;
  delete env.UPSTREAM_API_KEY;
  delete env.UPSTREAM_API_KEY_FILE;
  started = await startNodeScript(launcher, {
    env,
    ready: /http:\/\/localhost:(\d+)\//,
    timeoutMs: 15_000,
    what: 'npm start',
  });
  const port = started.ready[1]!;
  origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
});
afterAll(async () => {
  await started?.stop();
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
