import { describe, expect, it } from 'vitest';
import type { BeaconJournal } from '@origin-lab/contract';
import { pollUntil } from '@origin-lab/test-kit';
import { apiConfig } from '../../src/config.js';
import { ALLOWED } from '../start-api.js';
import { readJournalOf } from '../journal/read-journal.js';
import { distinctiveKey, startUpstreamProcess } from '../proxy/harness.js';
import { redisClusterForFile, redisForFile } from './backends.js';
import { newVisitor, postForm, replicasOn } from './replicas.js';

// Two api processes on one Redis, then on a Redis Cluster of three primaries: whatever replica a
// request reaches, the visitor sees one server.
const homes = { 'one Redis': replicasOn(redisForFile()), 'a Redis Cluster': replicasOn(redisClusterForFile()) };
describe.each(Object.keys(homes) as (keyof typeof homes)[])('replicas sharing state in %s', (home) => {
  const replicas = homes[home];
  it('a post created through one replica is listed by the other, with the next id', async () => {
    const [one, two] = await replicas(2);
    const created = await postForm(one!.url, 'Made on replica one');
    expect(created.status).toBe(201);
    const { post } = (await created.json()) as { post: { id: number } };
    const listed = (await (await fetch(`${two!.url}/api/posts`)).json()) as { posts: { id: number; title: string }[] };
    expect(listed.posts.at(-1)).toMatchObject({ id: post.id, title: 'Made on replica one' });
    const next = (await (await postForm(two!.url, 'Made on replica two')).json()) as { post: { id: number } };
    expect(next.post.id).toBe(post.id + 1);
  });

  it('a beacon received by one replica is listed by the other', async () => {
    const [one, two] = await replicas(2);
    const sent = await fetch(`${one!.url}/api/beacon`, { method: 'POST', body: 'left through replica one' });
    expect(sent.status).toBe(202);
    const journal = (await (await fetch(`${two!.url}/api/beacon`)).json()) as BeaconJournal;
    expect(journal.beacons[0]?.body).toBe('left through replica one');
  });

  it('a visitor’s journal stream on one replica shows live entries handled by both, each naming its replica', async () => {
    const [one, two] = await replicas(2);
    const visitor = newVisitor();
    const reading = readJournalOf(two!.url, visitor, 2);
    await pollUntil('the journal stream open on replica two', () => two!.app.openStreamCount() === 1, {
      timeoutMs: 5_000,
    });
    await fetch(`${one!.url}/api/echo?visitor=${visitor}`, { headers: { Origin: ALLOWED } });
    await fetch(`${two!.url}/api/posts?visitor=${visitor}`, { headers: { Origin: ALLOWED } });
    const delivered = await reading;
    expect(delivered.map(({ id, entry }) => [id, entry.path, entry.replica])).toEqual([
      [1, '/api/echo', 'replica-1'],
      [2, '/api/posts', 'replica-2'],
    ]);
  });

  it('a proxy answer fetched through one replica is a cache hit on the other', async () => {
    const apiKey = distinctiveKey();
    const upstream = await startUpstreamProcess(apiKey);
    try {
      const [one, two] = await replicas(2, {
        upstream: { ...apiConfig().upstream, url: upstream.url, apiKey },
      });
      const first = await fetch(`${one!.url}/api/upstream/posts?perPage=2`);
      const firstBody = await first.text();
      expect(first.headers.get('x-cache')).toBe('MISS');
      const second = await fetch(`${two!.url}/api/upstream/posts?perPage=2`);
      expect(second.headers.get('x-cache')).toBe('HIT');
      expect(await second.text()).toBe(firstBody);
      expect((await upstream.calls()).total).toBe(1);
    } finally {
      await upstream.stop();
    }
  });

  it('a visitor’s fair share counts what it holds on every replica', async () => {
    const [one, two] = await replicas(2, { visitorLimits: { inFlight: 64, streams: 1, slow: 16 } });
    const visitor = newVisitor();
    const holding = new AbortController();
    try {
      const held = await fetch(`${one!.url}/api/stream?count=120&visitor=${visitor}`, { signal: holding.signal });
      expect(held.status).toBe(200);
      const refused = await fetch(`${two!.url}/api/stream?count=1&visitor=${visitor}`);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ limit: 'streams', max: 1, setting: 'VISITOR_MAX_STREAMS' });
    } finally {
      holding.abort();
    }
    await pollUntil('the stream given back', async () => (await two!.app.visitorHolding(visitor)).streams === 0, {
      timeoutMs: 5_000,
    });
  });
});
