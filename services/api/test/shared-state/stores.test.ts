import { describe, expect, it } from 'vitest';
import type { BeaconJournalEntry } from '@origin-lab/contract';
import { pollUntil } from '@origin-lab/test-kit';
import { MemoryBeaconStore, type BeaconStore } from '../../src/beacon/beacon-store.js';
import { RedisBeaconStore } from '../../src/beacon/redis-beacon-store.js';
import { MemoryHoldings, NOTHING_HELD, type HoldingStore } from '../../src/fair-share/holdings.js';
import { RedisHoldings } from '../../src/fair-share/redis-holdings.js';
import { RedisVisitorJournals } from '../../src/journal/redis-visitor-journals.js';
import {
  VisitorJournals,
  type JournalLimits,
  type JournalStore,
  type Stored,
} from '../../src/journal/visitor-journals.js';
import { MemoryPostStore, SEED_POSTS, type PostStore } from '../../src/posts/post-store.js';
import { RedisPostStore } from '../../src/posts/redis-post-store.js';
import {
  ProxyCache,
  type AnswerCache,
  type CachedAnswer,
  type ProxyCacheOptions,
} from '../../src/proxy/proxy-cache.js';
import { RedisProxyCache } from '../../src/proxy/redis-proxy-cache.js';
import { MemoryIdpCodes, RedisIdpCodes, type IdpCodes } from '../../src/lab/idp/idp-codes.js';
import { BACKENDS, redisClusterForFile, redisForFile, type BackendName } from './backends.js';

// Every case below runs against every home of the state: one process's memory, a real Redis and
// a real Redis Cluster of three primaries (the stores unchanged: keys placed by hash tags).
const single = redisForFile();
const cluster = redisClusterForFile();
const connect = (backend: BackendName) => (backend === 'redis cluster' ? cluster : single).connect();

/** A clock that moves one millisecond each time it is read, so every event has its own time. */
function tickingClock() {
  let now = 1_000_000;
  return { now: () => (now += 1), jump: (ms: number) => (now += ms) };
}

async function postStore(backend: BackendName, max: number): Promise<PostStore> {
  return backend === 'memory' ? new MemoryPostStore(max) : new RedisPostStore(await connect(backend), max);
}

async function beaconStore(backend: BackendName, max: number): Promise<BeaconStore> {
  return backend === 'memory' ? new MemoryBeaconStore(max) : new RedisBeaconStore(await connect(backend), max);
}

async function answerCache(backend: BackendName, options: ProxyCacheOptions): Promise<AnswerCache> {
  return backend === 'memory' ? new ProxyCache(options) : new RedisProxyCache(await connect(backend), options);
}

async function journalStore(
  backend: BackendName,
  limits: JournalLimits,
  now?: () => number,
): Promise<JournalStore<string>> {
  if (backend === 'memory') return new VisitorJournals<string>(limits, now);
  return new RedisVisitorJournals<string>(await connect(backend), limits, () => {}, now);
}

async function holdingStore(backend: BackendName): Promise<HoldingStore> {
  return backend === 'memory' ? new MemoryHoldings() : new RedisHoldings(await connect(backend), 60_000, () => {});
}

const newPost = (title: string) => ({ title, author: 'Test', tags: '', attachments: [] });
const beaconOf = (body: string): BeaconJournalEntry => ({
  receivedAt: '2026-11-23T00:00:00.000Z',
  contentType: 'text/plain;charset=UTF-8',
  bytes: body.length,
  body,
  origin: null,
});
/** Every byte value, so a body that is not text is seen to come back untouched. */
const BINARY_BODY = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
const answerOf = (body: Buffer = BINARY_BODY): CachedAnswer => ({
  status: 200,
  headers: { 'Content-Type': 'application/octet-stream', ETag: '"v1"' },
  body,
});

describe.each(BACKENDS)('the post store (%s)', (backend) => {
  it('starts with the seed posts, numbered from 1, oldest first', async () => {
    const store = await postStore(backend, 100);
    const posts = await store.list();
    expect(posts.map((post) => [post.id, post.title])).toEqual(SEED_POSTS.map((post, i) => [i + 1, post.title]));
  });

  it('gives a new post the next id and a creation time, and lists it last', async () => {
    const store = await postStore(backend, 100);
    const post = await store.add(newPost('Fourth'));
    expect(post).toMatchObject({ id: SEED_POSTS.length + 1, title: 'Fourth', author: 'Test' });
    expect(Date.parse(post.createdAt)).not.toBeNaN();
    expect((await store.list()).at(-1)).toEqual(post);
  });

  it('keeps at most its bound, dropping the oldest, ids still increasing', async () => {
    const store = await postStore(backend, 4);
    for (const title of ['a', 'b', 'c']) await store.add(newPost(title));
    expect((await store.list()).map((post) => [post.id, post.title])).toEqual([
      [3, SEED_POSTS[2]!.title],
      [4, 'a'],
      [5, 'b'],
      [6, 'c'],
    ]);
  });
});

describe.each(BACKENDS)('the beacon journal (%s)', (backend) => {
  it('lists beacons newest first, at most its bound', async () => {
    const store = await beaconStore(backend, 2);
    for (const body of ['one', 'two', 'three']) await store.add(beaconOf(body));
    expect((await store.list()).map((entry) => entry.body)).toEqual(['three', 'two']);
    expect((await store.list())[0]).toEqual(beaconOf('three'));
  });

  it('keeps nothing with a bound of 0', async () => {
    const store = await beaconStore(backend, 0);
    await store.add(beaconOf('kept nowhere'));
    expect(await store.list()).toEqual([]);
  });
});

describe.each(BACKENDS)('the proxy cache (%s)', (backend) => {
  const options = (overrides: Partial<ProxyCacheOptions> = {}): ProxyCacheOptions => ({
    ttlMs: 60_000,
    maxEntries: 10,
    maxBytes: 1_000_000,
    now: tickingClock().now,
    ...overrides,
  });

  it('gives back what was stored, byte for byte, and nothing for a key never stored', async () => {
    const cache = await answerCache(backend, options());
    expect(await cache.get('http://upstream/v1/quote?x=1')).toBeUndefined();
    expect(await cache.set('http://upstream/v1/quote?x=1', answerOf())).toBe(true);
    const hit = await cache.get('http://upstream/v1/quote?x=1');
    expect(hit?.answer.status).toBe(200);
    expect(hit?.answer.headers).toEqual(answerOf().headers);
    expect(Buffer.compare(hit!.answer.body, BINARY_BODY)).toBe(0);
    expect(hit?.ageSeconds).toBe(0);
  });

  it('says how old an answer is, in whole seconds', async () => {
    const clock = tickingClock();
    const cache = await answerCache(backend, options({ now: clock.now }));
    await cache.set('k', answerOf());
    clock.jump(2_500);
    expect((await cache.get('k'))?.ageSeconds).toBe(2);
  });

  it('forgets an answer once its time to live is over', async () => {
    const cache = await answerCache(backend, options({ ttlMs: 200, now: Date.now }));
    await cache.set('k', answerOf());
    await pollUntil('the entry to expire', async () => (await cache.get('k')) === undefined, { timeoutMs: 5_000 });
  });

  it('drops the least recently used entries past its entry bound', async () => {
    const cache = await answerCache(backend, options({ maxEntries: 3 }));
    for (const key of ['a', 'b', 'c']) await cache.set(key, answerOf(Buffer.from(key)));
    await cache.get('a');
    await cache.set('d', answerOf(Buffer.from('d')));
    const present = await Promise.all(['a', 'b', 'c', 'd'].map(async (key) => (await cache.get(key)) !== undefined));
    expect(present).toEqual([true, false, true, true]);
  });

  it('drops the oldest entries past its byte bound, and refuses an answer larger than the bound', async () => {
    const body = Buffer.alloc(400, 'x');
    const cache = await answerCache(backend, options({ maxBytes: 1_000 }));
    for (const key of ['a', 'b', 'c']) await cache.set(key, answerOf(body));
    const present = await Promise.all(['a', 'b', 'c'].map(async (key) => (await cache.get(key)) !== undefined));
    expect(present).toEqual([false, true, true]);
    expect(await cache.set('huge', answerOf(Buffer.alloc(2_000)))).toBe(false);
    expect(await cache.get('huge')).toBeUndefined();
  });

  it('stores nothing with a time to live of 0', async () => {
    const cache = await answerCache(backend, options({ ttlMs: 0 }));
    expect(await cache.set('k', answerOf())).toBe(false);
    expect(await cache.get('k')).toBeUndefined();
  });
});

describe.each(BACKENDS)('the visitors’ journals (%s)', (backend) => {
  const limits: JournalLimits = { entriesPerVisitor: 3, visitors: 2, idleMs: 60_000 };
  const ids = (stored: Stored<string>[]) => stored.map((s) => s.id);
  const entries = (stored: Stored<string>[]) => stored.map((s) => s.entry);

  it('numbers a visitor’s entries from 1 and reads them back in order', async () => {
    const journals = await journalStore(backend, limits);
    journals.record('visitor-a', 'GET /api/posts');
    journals.record('visitor-a', 'OPTIONS /api/echo');
    expect(await journals.entriesAfter('visitor-a')).toEqual([
      { id: 1, entry: 'GET /api/posts' },
      { id: 2, entry: 'OPTIONS /api/echo' },
    ]);
  });

  it('keeps only the newest entries past its cap, and resumes after the last id a reader saw', async () => {
    const journals = await journalStore(backend, limits);
    for (const n of [1, 2, 3, 4, 5]) journals.record('visitor-a', `request ${n}`);
    expect(ids(await journals.entriesAfter('visitor-a'))).toEqual([3, 4, 5]);
    expect(entries(await journals.entriesAfter('visitor-a', 4))).toEqual(['request 5']);
    expect(await journals.entriesAfter('visitor-a', 5)).toEqual([]);
  });

  it('shows a visitor none of another visitor’s entries; an unknown visitor has none', async () => {
    const journals = await journalStore(backend, limits);
    journals.record('visitor-a', 'a request');
    journals.record('visitor-b', 'b request');
    expect(entries(await journals.entriesAfter('visitor-b'))).toEqual(['b request']);
    expect(await journals.entriesAfter('nobody-here-yet')).toEqual([]);
  });

  it('drops the visitor seen least recently to make room for a new one, ending its readers', async () => {
    const journals = await journalStore(backend, limits, tickingClock().now);
    let ended = false;
    const reading = journals.subscribe('visitor-b', { entry: () => {}, end: () => (ended = true) });
    await reading.ready;
    journals.record('visitor-a', 'a1');
    journals.record('visitor-b', 'b1');
    journals.record('visitor-a', 'a2');
    journals.record('visitor-c', 'c1');
    expect(await journals.entriesAfter('visitor-b')).toEqual([]);
    expect(entries(await journals.entriesAfter('visitor-a'))).toEqual(['a1', 'a2']);
    await pollUntil('the dropped visitor’s reader to be ended', () => ended, { timeoutMs: 5_000 });
    reading.stop();
  });

  // The reader keeps its visitor alive every third of the idle time; an idle time of 300 ms lost
  // the visitor on CI, whose two cores held the keep-alive back that long (Redis Cluster, with
  // three engine test files beside it). Three seconds leave two for a late timer.
  it('drops a visitor idle past the limit, but not while it has a reader', async () => {
    const journals = await journalStore(backend, { ...limits, visitors: 10, idleMs: 3_000 }, Date.now);
    journals.record('idle-visitor', 'old');
    journals.record('reading-visitor', 'old too');
    const reading = journals.subscribe('reading-visitor', { entry: () => {}, end: () => {} });
    await reading.ready;
    await pollUntil(
      'the idle visitor to be dropped',
      async () => (await journals.entriesAfter('idle-visitor')).length === 0,
      {
        timeoutMs: 20_000,
      },
    );
    expect(entries(await journals.entriesAfter('reading-visitor'))).toEqual(['old too']);
    reading.stop();
    await pollUntil(
      'the visitor to be dropped once its reader left',
      async () => (await journals.entriesAfter('reading-visitor')).length === 0,
      { timeoutMs: 20_000 },
    );
  }, 60_000);

  it('hands live readers each new entry of their visitor only, until they stop', async () => {
    const journals = await journalStore(backend, limits);
    const seen: Stored<string>[] = [];
    const reading = journals.subscribe('visitor-a', { entry: (stored) => seen.push(stored), end: () => {} });
    await reading.ready;
    journals.record('visitor-a', 'first');
    journals.record('visitor-b', 'someone else');
    journals.record('visitor-a', 'second');
    await pollUntil('both entries to reach the reader', () => seen.length === 2, { timeoutMs: 5_000 });
    reading.stop();
    journals.record('visitor-a', 'after stopping');
    await journals.entriesAfter('visitor-a'); // the record has been through the store
    expect(seen).toEqual([
      { id: 1, entry: 'first' },
      { id: 2, entry: 'second' },
    ]);
  });
});

describe.each(BACKENDS)('the fair-share counts (%s)', (backend) => {
  const limits = { inFlight: 2, streams: 1, slow: 0 };

  it('takes within the limits, refuses the kind at its limit taking nothing, and gives back', async () => {
    const store = await holdingStore(backend);
    expect(await store.take('visitor-a', ['inFlight', 'streams'], limits)).toBeNull();
    expect(await store.take('visitor-a', ['inFlight', 'streams'], limits)).toBe('streams');
    expect(await store.holding('visitor-a')).toEqual({ inFlight: 1, streams: 1, slow: 0 });
    expect(await store.take('visitor-a', ['inFlight'], limits)).toBeNull();
    expect(await store.take('visitor-a', ['inFlight'], limits)).toBe('inFlight');
    store.release('visitor-a', ['inFlight', 'streams']);
    store.release('visitor-a', ['inFlight']);
    await pollUntil('everything given back', async () => (await store.holding('visitor-a')).inFlight === 0, {
      timeoutMs: 5_000,
    });
    expect(await store.holding('visitor-a')).toEqual(NOTHING_HELD);
  });

  it('counts each visitor apart, and a limit of 0 is no limit', async () => {
    const store = await holdingStore(backend);
    for (let i = 0; i < 5; i++) expect(await store.take('visitor-a', ['slow'], limits)).toBeNull();
    expect(await store.take('visitor-b', ['inFlight', 'streams'], limits)).toBeNull();
    expect(await store.holding('visitor-b')).toEqual({ inFlight: 1, streams: 1, slow: 0 });
  });

  it('never takes a count below zero, so a release with nothing to give back frees no extra room', async () => {
    const store = await holdingStore(backend);
    expect(await store.take('visitor-a', ['inFlight', 'streams'], limits)).toBeNull();
    expect(await store.take('visitor-a', ['inFlight'], limits)).toBeNull();
    store.release('visitor-a', ['inFlight', 'streams']);
    // A second release of the stream: nothing is held any more to give back.
    store.release('visitor-a', ['streams']);
    await pollUntil('the releases applied', async () => (await store.holding('visitor-a')).inFlight === 1, {
      timeoutMs: 5_000,
    });
    expect(await store.holding('visitor-a')).toEqual({ inFlight: 1, streams: 0, slow: 0 });
    expect(await store.take('visitor-a', ['streams'], limits)).toBeNull();
    expect(await store.take('visitor-a', ['streams'], limits)).toBe('streams');
  });
});

describe('the fair-share counts in Redis', () => {
  it("forget a visitor some time after its last request, so a dead replica's holdings do not stay", async () => {
    const countTtlMs = 300;
    const store = new RedisHoldings(await single.connect(), countTtlMs, () => {});
    const limits = { inFlight: 1, streams: 0, slow: 0 };
    expect(await store.take('visitor-a', ['inFlight'], limits)).toBeNull();
    expect(await store.take('visitor-a', ['inFlight'], limits)).toBe('inFlight');
    // Never released, as by a replica that died: the count goes with the visitor's hash.
    await pollUntil('the count to expire', async () => (await store.holding('visitor-a')).inFlight === 0, {
      timeoutMs: 10_000,
    });
    expect(await store.take('visitor-a', ['inFlight'], limits)).toBeNull();
  });
});

async function idpCodes(backend: BackendName, ttlMs = 60_000): Promise<IdpCodes> {
  const limits = { ttlMs, max: 100 };
  return backend === 'memory' ? new MemoryIdpCodes(limits) : new RedisIdpCodes(await connect(backend), limits);
}

// OAuth 2.0 (RFC 6749, 4.1.2): an authorization code is short-lived and used at most once.
describe.each(BACKENDS)('the identity provider’s codes (%s)', (backend) => {
  const grant = { redirectUri: 'http://a.localhost/sign-in-callback.html', user: 'student-0123456789abcdef' };

  it('gives a grant back once for the code issued for it, and nothing the second time', async () => {
    const codes = await idpCodes(backend);
    const code = await codes.issue(grant);
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await codes.redeem(code)).toEqual(grant);
    expect(await codes.redeem(code)).toBeNull();
  });

  it('knows no code it did not issue', async () => {
    const codes = await idpCodes(backend);
    expect(await codes.redeem('not-a-code-it-gave')).toBeNull();
  });

  it('forgets a code once its time is over', async () => {
    const codes = await idpCodes(backend, 100);
    const code = await codes.issue(grant);
    // Twice its lifetime later (a wait, not a measurement: the store's own clock decides).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await codes.redeem(code)).toBeNull();
  });
});

it('the identity provider’s codes in memory: the oldest is forgotten past the most it holds', () => {
  const codes = new MemoryIdpCodes({ ttlMs: 60_000, max: 2 });
  const grant = { redirectUri: 'http://a.localhost/sign-in-callback.html', user: 'student-0123456789abcdef' };
  const [first, second, third] = [codes.issue(grant), codes.issue(grant), codes.issue(grant)];
  expect([codes.redeem(first), codes.redeem(second), codes.redeem(third)]).toEqual([null, grant, grant]);
});
