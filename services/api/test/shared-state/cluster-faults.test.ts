import { describe, expect, it } from 'vitest';
import type { JournalPage } from '@origin-lab/contract';
import { pollUntil } from '@origin-lab/test-kit';
import { ALLOWED, type TestApi } from '../start-api.js';
import { readJournalOf } from '../journal/read-journal.js';
import { redisClusterForFile } from './backends.js';
import { newVisitor, postForm, replicasOn } from './replicas.js';

// Two api replicas on a Redis Cluster of three primaries without replicas; one primary is
// killed while they run. Each visitor's state sits on the node its token's hash tag names; the
// posts, the proxy cache and the journals' visitor set each on the node of their own tag.
const redis = redisClusterForFile();
const replicas = replicasOn(redis);

const journalOf = (api: TestApi, visitor: string) =>
  fetch(`${api.url}/lab/journal?visitor=${visitor}`, { headers: { Accept: 'application/json', Origin: ALLOWED } });

/** A fresh visitor whose keys sit on the node at index wanted (or on any other, with other). */
async function visitorOn(wanted: number, other = false): Promise<string> {
  for (;;) {
    const visitor = newVisitor();
    const node = await redis.cluster.nodeOf(`{${visitor}}`);
    if ((node === wanted) !== other) return visitor;
  }
}

describe('a Redis Cluster losing one primary', () => {
  it('the other nodes’ visitors keep answering, the lost node’s get 503 at once, and all recovers when it returns', async () => {
    const [one, two] = await replicas(2, {}, 300);
    const shared = await Promise.all(['{posts}', '{proxy-cache}', '{journal}'].map((tag) => redis.cluster.nodeOf(tag)));
    // The node to lose holds none of what every visitor shares (when there is such a node).
    const victim = [0, 1, 2].find((node) => !shared.includes(node)) ?? (shared[0]! + 1) % 3;
    const lost = await visitorOn(victim);
    const kept = await visitorOn(victim, true);
    for (const visitor of [lost, kept])
      expect((await fetch(`${one!.url}/api/echo?visitor=${visitor}`, { headers: { Origin: ALLOWED } })).status).toBe(
        200,
      );
    const keptStream = readJournalOf(two!.url, kept, 3, {}, 15_000);
    await pollUntil('the kept visitor’s stream open on replica two', () => two!.app.openStreamCount() === 1, {
      timeoutMs: 5_000,
    });

    await redis.cluster.nodes[victim]!.crash();
    // The kept visitor: recorded, listed, and streamed live, through either replica.
    const echo = await fetch(`${one!.url}/api/echo?visitor=${kept}`, { headers: { Origin: ALLOWED } });
    expect(echo.status).toBe(200);
    const keptPage = await journalOf(two!, kept);
    expect(keptPage.status).toBe(200);
    expect(((await keptPage.json()) as JournalPage).entries.map(({ entry }) => entry.path)).toEqual([
      '/api/echo',
      '/api/echo',
    ]);
    // The lost visitor: its journal is unavailable, said at once; its requests are still answered.
    const lostPage = await journalOf(one!, lost);
    expect(lostPage.status).toBe(503);
    expect(lostPage.headers.get('retry-after')).toBe('2');
    expect(await lostPage.json()).toMatchObject({ retryable: true });
    expect((await fetch(`${two!.url}/api/echo?visitor=${lost}`)).status).toBe(200);
    // What every visitor shares lives on the other nodes (when the cluster placed it so).
    if (!shared.includes(victim)) {
      expect((await fetch(`${one!.url}/api/posts`)).status).toBe(200);
      expect((await postForm(two!.url, 'Written while a node is down')).status).toBe(201);
    }
    await fetch(`${two!.url}/api/posts?visitor=${kept}`, { headers: { Origin: ALLOWED } });
    // The stream: the entry from before the loss, then two recorded while the node was down.
    expect((await keptStream).map(({ entry }) => entry.path)).toEqual(['/api/echo', '/api/echo', '/api/posts']);

    await redis.cluster.nodes[victim]!.startAgain();
    await redis.cluster.whenHealthy();
    await pollUntil('the lost visitor’s journal to answer again', async () => (await journalOf(one!, lost)).status, {
      timeoutMs: 15_000,
      intervalMs: 100,
      done: (status) => status === 200,
    });
    // The node came back empty (no persistence here): what it held is gone, new entries are kept.
    await fetch(`${two!.url}/api/echo?visitor=${lost}`, { headers: { Origin: ALLOWED } });
    const after = (await (await journalOf(one!, lost)).json()) as JournalPage;
    expect(after.entries.at(-1)?.entry).toMatchObject({ path: '/api/echo', replica: 'replica-2' });
  });
});
