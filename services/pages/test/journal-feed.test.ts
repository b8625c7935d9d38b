import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalFeed } from '../web/ts/server-view/journal-feed.js';
import { entry } from './journal-entry.fixture.js';

// The page's journal feed against a real HTTP server that holds some reads without answering,
// as a stalled connection does: each read is given up after its bound (5 s), so no read holds a
// wait or a pause for good. The tests wait out that bound side by side.

// The feed listens for the page's pagehide and pageshow; Node has no window.
beforeAll(() => {
  (globalThis as { window?: EventTarget }).window ??= new EventTarget();
});

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A journal whose first `held` reads never answer; every later one returns one entry. */
async function journal(held: number): Promise<{ fetchFn: typeof fetch; afters: string[] }> {
  const afters: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    afters.push(new URL(request.url ?? '/', 'http://x').searchParams.get('after') ?? '');
    if (afters.length <= held) return; // Held: no answer, the connection stays open.
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ entries: [{ id: 7, entry: entry({ path: '/api/me' }) }] }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The page's reads are same-origin paths; here they go to the test's server.
  const fetchFn: typeof fetch = (input, init) => fetch(new URL(String(input), base), init);
  return { fetchFn, afters };
}

describe.concurrent("the page's journal feed", () => {
  it('a read that never answers is given up, and the next asks from the same id and gets the entry', async () => {
    const { fetchFn, afters } = await journal(1);
    const feed = new JournalFeed('visitor-1', fetchFn);
    const found = await feed.waitFor((seen) => seen.path === '/api/me', 15_000);
    expect(found?.id).toBe(7);
    expect(afters.slice(0, 2)).toEqual(['0', '0']);
  });

  it('a wait whose read outlasts it asks once more after it, and sees what was filed meanwhile', async () => {
    const { fetchFn, afters } = await journal(1);
    const feed = new JournalFeed('visitor-3', fetchFn);
    // The first read is held past the whole wait; the entry is there for the next one.
    const found = await feed.waitFor((seen) => seen.path === '/api/me', 1_000);
    expect(found?.id).toBe(7);
    expect(afters).toEqual(['0', '0']);
  });

  it('pause() ends once a read that never answers is given up, and does not reject', async () => {
    const { fetchFn } = await journal(Infinity);
    const feed = new JournalFeed('visitor-2', fetchFn);
    const pending = feed.refresh().catch((err: unknown) => err);
    await expect(feed.pause()).resolves.toBeUndefined();
    expect(await pending).toMatchObject({ name: 'TimeoutError' });
  });
});
