import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '@origin-lab/test-kit';
import { ALLOWED, apiForFile } from '../start-api.js';

// Small limits, so a test reaches each one with a few requests.
const api = apiForFile({ visitorLimits: { inFlight: 4, streams: 2, slow: 2 } });

const aborts: AbortController[] = [];
afterEach(() => {
  for (const abort of aborts.splice(0)) abort.abort();
});

let visitors = 0;
/** A fresh visitor token (base64url, 16 characters or more). */
const newVisitor = () => `fairshare-visitor-${String(++visitors).padStart(4, '0')}`;

/**
 * How long a test waits for the server to count (or let go of) a request: the test run's bound on
 * a busy machine, not what is tested. A clean clone's unit group, beside the load test on two
 * cores, once took over 5 s to count a new stream.
 */
const COUNTED_MS = 15_000;

/**
 * Starts a request the server holds (a stream or a slow answer); resolves once the server counts
 * it, and fails at once, with the status, if the server answers it instead (a 429 included).
 */
async function hold(path: string, visitor: string, kind: 'streams' | 'slow'): Promise<AbortController> {
  const abort = new AbortController();
  aborts.push(abort);
  const before = (await api.app.visitorHolding(visitor))[kind];
  const sep = path.includes('?') ? '&' : '?';
  let answered: number | null = null;
  // The body is left unread: the request stays held until the test aborts it.
  void fetch(`${api.url}${path}${sep}visitor=${visitor}`, { signal: abort.signal }).then(
    (response) => {
      if (response.status !== 200) answered = response.status;
    },
    () => undefined,
  );
  await pollUntil(
    `the server holding ${path} for ${visitor}`,
    async () => {
      if (answered !== null) throw new Error(`the server answered ${path} for ${visitor} with ${answered}, not held`);
      return (await api.app.visitorHolding(visitor))[kind] > before;
    },
    { timeoutMs: COUNTED_MS },
  );
  return abort;
}

const STREAM = '/api/stream?count=120';
const SLOW = '/api/slow?ms=20000';

describe('fair shares: what one visitor may hold at once', () => {
  it.each([
    ['streams', STREAM, 'VISITOR_MAX_STREAMS', /open event streams/],
    ['slow', SLOW, 'VISITOR_MAX_SLOW', /slow requests held/],
  ] as const)(
    '%s: past the limit, 429 with a JSON body naming it and its setting',
    async (kind, path, setting, words) => {
      const visitor = newVisitor();
      await hold(path, visitor, kind);
      await hold(path, visitor, kind);
      const refused = await fetch(`${api.url}${path}&visitor=${visitor}`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      const body = (await refused.json()) as Record<string, unknown>;
      expect(body).toEqual({
        error: expect.stringMatching(words),
        limit: kind,
        max: 2,
        setting,
      });
    },
  );

  // A journal is a stream unless JSON is preferred: curl's Accept (*/*), or none, gets one too.
  it.each([['text/event-stream'], ['*/*'], [null]])(
    'the journal stream counts as a stream (Accept: %s); a journal poll does not',
    async (accept) => {
      const visitor = newVisitor();
      await hold('/api/stream?count=120', visitor, 'streams');
      await hold('/api/stream?count=120', visitor, 'streams');
      const asStream = await fetch(`${api.url}/lab/journal?visitor=${visitor}`, {
        headers: accept === null ? {} : { Accept: accept },
      });
      expect(asStream.status).toBe(429);
      const asPoll = await fetch(`${api.url}/lab/journal?visitor=${visitor}`, {
        headers: { Accept: 'application/json' },
      });
      expect(asPoll.status).toBe(200);
    },
  );

  it('requests in flight: every request counts, and the fifth at once is refused', async () => {
    const visitor = newVisitor();
    await hold(STREAM, visitor, 'streams');
    await hold(STREAM, visitor, 'streams');
    await hold(SLOW, visitor, 'slow');
    await hold(SLOW, visitor, 'slow');
    const refused = await fetch(`${api.url}/api/echo?visitor=${visitor}`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ limit: 'inFlight', max: 4, setting: 'VISITOR_MAX_IN_FLIGHT' });
  });

  it('one visitor at its limit takes nothing from another, nor from requests without a token', async () => {
    const greedy = newVisitor();
    await hold(SLOW, greedy, 'slow');
    await hold(SLOW, greedy, 'slow');
    expect((await fetch(`${api.url}/api/slow?ms=1&visitor=${greedy}`)).status).toBe(429);
    expect((await fetch(`${api.url}/api/slow?ms=1&visitor=${newVisitor()}`)).status).toBe(200);
    expect((await fetch(`${api.url}/api/slow?ms=1`)).status).toBe(200);
  });

  it('a request the visitor lets go frees its place', async () => {
    const visitor = newVisitor();
    const first = await hold(STREAM, visitor, 'streams');
    await hold(STREAM, visitor, 'streams');
    expect((await fetch(`${api.url}${STREAM}&visitor=${visitor}`)).status).toBe(429);
    first.abort();
    await pollUntil('the first stream released', async () => (await api.app.visitorHolding(visitor)).streams === 1, {
      timeoutMs: COUNTED_MS,
    });
    await hold(STREAM, visitor, 'streams');
    expect(await api.app.visitorHolding(visitor)).toEqual({ inFlight: 2, streams: 2, slow: 0 });
  });

  it('a visitor holding nothing leaves nothing behind', async () => {
    const visitor = newVisitor();
    (await hold(SLOW, visitor, 'slow')).abort();
    await pollUntil('nothing held', async () => (await api.app.visitorHolding(visitor)).inFlight === 0, {
      timeoutMs: COUNTED_MS,
    });
    expect(await api.app.visitorHolding(visitor)).toEqual({ inFlight: 0, streams: 0, slow: 0 });
  });

  it('the 429 to another origin carries the CORS headers, so the page can read it; preflights are not counted', async () => {
    const visitor = newVisitor();
    await hold(SLOW, visitor, 'slow');
    await hold(SLOW, visitor, 'slow');
    const preflight = await fetch(`${api.url}${SLOW}&visitor=${visitor}`, {
      method: 'OPTIONS',
      headers: { Origin: ALLOWED, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-lab' },
    });
    expect(preflight.status).toBe(204);
    const refused = await fetch(`${api.url}${SLOW}&visitor=${visitor}`, { headers: { Origin: ALLOWED } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('the visitor sees the 429 in its own journal', async () => {
    const visitor = newVisitor();
    await hold(SLOW, visitor, 'slow');
    await hold(SLOW, visitor, 'slow');
    expect((await fetch(`${api.url}/api/slow?ms=1&visitor=${visitor}`)).status).toBe(429);
    const journal = (await (
      await fetch(`${api.url}/lab/journal?visitor=${visitor}`, { headers: { Accept: 'application/json' } })
    ).json()) as { entries: { entry: { path: string; status: number } }[] };
    expect(journal.entries.map(({ entry }) => [entry.path, entry.status])).toContainEqual(['/api/slow', 429]);
  });
});

describe('fair shares switched off', () => {
  const open = apiForFile({ visitorLimits: { inFlight: 0, streams: 0, slow: 0 } });

  it('a limit of 0 is no limit', async () => {
    const visitor = newVisitor();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${open.url}/api/slow?ms=50&visitor=${visitor}`).then((r) => r.status)),
    );
    expect(answers).toEqual(Array(20).fill(200));
  });
});
