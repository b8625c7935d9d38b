import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { pollUntil } from '@origin-lab/test-kit';
import { apiConfig } from '../../src/config.js';
import { ALLOWED, type TestApi } from '../start-api.js';
import { readJournalOf } from '../journal/read-journal.js';
import { distinctiveKey, startUpstreamProcess } from '../proxy/harness.js';
import { redisForFile } from './backends.js';
import { newVisitor, postForm, replicasOn } from './replicas.js';

// Redis with every write on disk before it is acknowledged (appendonly, appendfsync always), as
// in docker-compose.yml; it is shut down, crashed and paused under a running api.
const redis = redisForFile({ persistence: true });
const replicas = replicasOn(redis);
// A test that fails while Redis is down leaves it down: the next test starts with it up.
afterEach(() => redis.server.startAgain());
const titles = async (api: TestApi) =>
  ((await (await fetch(`${api.url}/api/posts`)).json()) as { posts: { title: string }[] }).posts.map(
    (post) => post.title,
  );

/** Waits until the api's state answers again, without restarting anything. */
const recovered = (api: TestApi) =>
  pollUntil('the api to answer from Redis again', async () => (await fetch(`${api.url}/api/posts`)).status, {
    timeoutMs: 15_000,
    intervalMs: 100,
    done: (status) => status === 200,
  });

describe('when Redis is down', () => {
  it('state answers 503 with a JSON error saying so; the stateless endpoints answer as usual; it recovers on its own with nothing acknowledged lost', async () => {
    const apiKey = distinctiveKey();
    const upstream = await startUpstreamProcess(apiKey);
    try {
      const [api] = await replicas(1, { upstream: { ...apiConfig().upstream, url: upstream.url, apiKey } });
      expect((await postForm(api!.url, 'Acknowledged before the outage')).status).toBe(201);
      await redis.server.shutDown();

      const visitor = newVisitor();
      const answers = {
        list: await fetch(`${api!.url}/api/posts`, { headers: { Origin: ALLOWED } }),
        create: await postForm(api!.url, 'Sent during the outage'),
        beacon: await fetch(`${api!.url}/api/beacon`, { method: 'POST', body: 'during the outage' }),
        beacons: await fetch(`${api!.url}/api/beacon`),
        journal: await fetch(`${api!.url}/lab/journal?visitor=${visitor}`, { headers: { Accept: 'application/json' } }),
        journalStream: await fetch(`${api!.url}/lab/journal?visitor=${visitor}`),
      };
      for (const [what, answer] of Object.entries(answers)) {
        expect(answer.status, what).toBe(503);
        expect(answer.headers.get('retry-after'), what).toBe('2');
        const body = (await answer.json()) as { error: string; retryable: boolean };
        expect(body.error, what).toMatch(/^the shared .+ is unavailable: Redis did not answer$/);
        expect(body.retryable, what).toBe(true);
      }
      // Readable cross-origin: the page can tell "unavailable" from a CORS refusal.
      expect(answers.list.headers.get('access-control-allow-origin')).toBe(ALLOWED);

      // Needs no shared state: answered as SPEC.md says. The fair share is counted per replica meanwhile.
      const echo = await fetch(`${api!.url}/api/echo?visitor=${visitor}`, { headers: { Origin: ALLOWED } });
      expect(echo.status).toBe(200);
      const proxied = await fetch(`${api!.url}/api/upstream/posts?perPage=1`);
      expect(proxied.status).toBe(200);
      expect(proxied.headers.get('x-cache')).toBe('PASS');
      const health = await fetch(`${api!.url}/lab/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', state: 'redis', redis: 'unavailable' });

      await redis.server.startAgain();
      await recovered(api!);
      expect(await titles(api!)).toContain('Acknowledged before the outage');
      expect(await titles(api!)).not.toContain('Sent during the outage');
      expect(await (await fetch(`${api!.url}/lab/health`)).json()).toMatchObject({ redis: 'ready' });
    } finally {
      await upstream.stop();
    }
  });

  it('a crash loses nothing that was acknowledged (appendfsync always)', async () => {
    const [api] = await replicas(1);
    for (const n of [1, 2, 3]) expect((await postForm(api!.url, `Acknowledged ${n}`)).status).toBe(201);
    await redis.server.crash();
    expect((await fetch(`${api!.url}/api/posts`)).status).toBe(503);
    await redis.server.startAgain();
    await recovered(api!);
    expect(await titles(api!)).toEqual(expect.arrayContaining(['Acknowledged 1', 'Acknowledged 2', 'Acknowledged 3']));
  });

  it('an open journal stream gets entries again once Redis is back, without reconnecting', async () => {
    const [api] = await replicas(1);
    const visitor = newVisitor();
    const reading = readJournalOf(api!.url, visitor, 1, {}, 20_000);
    await pollUntil('the journal stream open', () => api!.app.openStreamCount() === 1, { timeoutMs: 5_000 });
    await redis.server.shutDown();
    await redis.server.startAgain();
    await recovered(api!);
    // The subscription comes back a moment after the command connection: ask until one arrives.
    const asking = setInterval(() => void fetch(`${api!.url}/api/echo?visitor=${visitor}`).catch(() => {}), 200);
    try {
      const [first] = await reading;
      expect(first?.entry.path).toBe('/api/echo');
    } finally {
      clearInterval(asking);
    }
  });
});

describe('when Redis is slow', () => {
  it('a request needing state is answered 503 once the command timeout passes, never left hanging', async () => {
    const [api] = await replicas(1, {}, 300);
    const admin = new Redis(redis.server.url, { maxRetriesPerRequest: 1 });
    try {
      // Every client's commands wait 2 s, as behind a Redis busy with a slow command.
      expect(await admin.call('CLIENT', 'PAUSE', '2000', 'ALL')).toBe('OK');
      const answer = await fetch(`${api!.url}/api/posts`);
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(/timed? ?out/i);
      await recovered(api!);
    } finally {
      admin.disconnect();
    }
  });
});
