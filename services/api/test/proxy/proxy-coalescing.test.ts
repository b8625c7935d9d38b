import { describe, expect, it } from 'vitest';
import { openConnections, pollUntil, sleep } from '@origin-lab/test-kit';
import { distinctiveKey, upstreamForFile, type ProxyApi } from './harness.js';

const { upstream, api, freshApi } = upstreamForFile(distinctiveKey(), { releaseHeld: true });

const CONCURRENT = 12;

/**
 * Waits until the upstream holds the first call and all the requests have reached the API, then
 * checks that the upstream still saw one call only.
 */
async function allArrived(proxy: ProxyApi): Promise<void> {
  await pollUntil('the first upstream call to be held', async () => (await upstream.calls()).held >= 1, {
    timeoutMs: 5_000,
  });
  await pollUntil(`${CONCURRENT} client connections`, async () => (await openConnections(proxy.server)) >= CONCURRENT, {
    timeoutMs: 5_000,
  });
  await sleep(200); // let the last requests reach the handler
  expect((await upstream.calls()).total).toBe(1);
}

async function concurrently(path: string) {
  return Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const res = await fetch(`${api().url}${path}`, { signal: AbortSignal.timeout(15_000) });
      return { status: res.status, cache: res.headers.get('x-cache'), body: Buffer.from(await res.arrayBuffer()) };
    }),
  );
}

describe('concurrent misses for the same target', () => {
  it(`${CONCURRENT} concurrent misses make one upstream call, and all get the same bytes`, async () => {
    const proxy = await freshApi();
    // The upstream holds its answer until released, so every request arrives while the first is in flight.
    const answers = concurrently('/api/upstream/posts?mock=hold&perPage=4');
    await allArrived(proxy);
    await upstream.release();

    const results = await answers;
    expect(results.map((result) => result.status)).toEqual(Array(CONCURRENT).fill(200));
    for (const result of results) expect(result.body.equals(results[0]!.body)).toBe(true);
    expect(results.filter((result) => result.cache === 'MISS')).toHaveLength(1);
    expect(results.filter((result) => result.cache === 'COALESCED').length).toBeGreaterThan(0);
    expect((await upstream.calls()).total).toBe(1);
    // And once stored, later requests are hits.
    expect((await fetch(`${api().url}/api/upstream/posts?mock=hold&perPage=4`)).headers.get('x-cache')).toBe('HIT');
  });

  it('different targets are not coalesced with each other', async () => {
    await freshApi();
    await Promise.all([
      fetch(`${api().url}/api/upstream/posts?page=1`),
      fetch(`${api().url}/api/upstream/posts?page=2`),
      fetch(`${api().url}/api/upstream/tags`),
    ]);
    expect((await upstream.calls()).total).toBe(3);
  });

  it('a failure is shared by the waiters (one call to a failing upstream), and nothing is cached', async () => {
    const proxy = await freshApi();
    const answers = concurrently('/api/upstream/posts?mock=hold,close');
    await allArrived(proxy);
    await upstream.release(); // the held call now ends with a closed connection

    const results = await answers;
    expect(results.map((result) => result.status)).toEqual(Array(CONCURRENT).fill(502));
    expect((await upstream.calls()).total).toBe(1);
    const again = fetch(`${api().url}/api/upstream/posts?mock=hold,close`);
    await pollUntil('the retry to reach the upstream', async () => (await upstream.calls()).held === 1, {
      timeoutMs: 5_000,
    });
    await upstream.release();
    expect((await again).status).toBe(502);
    expect((await upstream.calls()).total).toBe(2);
  });

  it("a 4xx is never handed to a waiter: once the first call's answer turns out 4xx, each waiter calls for itself", async () => {
    const proxy = await freshApi();
    const answers = concurrently('/api/upstream/posts?mock=hold&page=0');
    await allArrived(proxy);
    await upstream.release(); // the first call now answers 400 (page 0 is out of range)
    // Each waiter's own call is held too: they all reach the upstream before any is answered.
    const waiters = CONCURRENT - 1;
    await pollUntil("the waiters' own calls", async () => (await upstream.calls()).held >= waiters, {
      timeoutMs: 5_000,
    });
    await upstream.release();

    const results = await answers;
    expect(results.map((result) => result.status)).toEqual(Array(CONCURRENT).fill(400));
    expect((await upstream.calls()).total).toBe(CONCURRENT);
  });

  it('an unshareable (private) answer is never handed to a waiter: each request gets its own upstream call', async () => {
    await freshApi();
    const results = await concurrently('/api/upstream/posts?mock=slow,private&delayMs=200');
    expect(results.map((result) => result.status)).toEqual(Array(CONCURRENT).fill(200));
    expect(results.every((result) => result.cache === 'PASS')).toBe(true);
    expect((await upstream.calls()).total).toBe(CONCURRENT);
    const calls = new Set(results.map((result) => JSON.parse(result.body.toString()).upstream.call));
    expect(calls.size).toBe(CONCURRENT);
  });
});
