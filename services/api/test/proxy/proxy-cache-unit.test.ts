import { describe, expect, it } from 'vitest';
import { ProxyCache, type CachedAnswer } from '../../src/proxy/proxy-cache.js';
import { SingleFlight } from '../../src/proxy/proxy-single-flight.js';

const answer = (bytes: number): CachedAnswer => ({
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  body: Buffer.alloc(bytes, 'x'),
});

describe('ProxyCache (the store behind the proxy)', () => {
  it('keeps its byte count exact through replacement, eviction and expiry', () => {
    let now = 0;
    const cache = new ProxyCache({ ttlMs: 1_000, maxEntries: 10, maxBytes: 1_000, now: () => now });
    cache.set('a', answer(100));
    const one = cache.bytes;
    cache.set('a', answer(100));
    expect(cache.bytes).toBe(one);
    cache.set('b', answer(100));
    expect(cache.bytes).toBe(2 * one);
    now = 1_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(one);
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it('drops least recently used entries until both bounds hold', () => {
    const cache = new ProxyCache({ ttlMs: 1_000, maxEntries: 3, maxBytes: 10_000, now: () => 0 });
    for (const key of ['a', 'b', 'c']) cache.set(key, answer(10));
    cache.get('a');
    cache.set('d', answer(10));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key) !== undefined)).toEqual([true, true, true]);
    expect(cache.set('huge', answer(20_000))).toBe(false);
    expect(cache.size).toBe(3);
  });

  it('treats a clock that went backwards as expiry, never as eternal freshness', () => {
    let now = 10_000;
    const cache = new ProxyCache({ ttlMs: 1_000, maxEntries: 3, maxBytes: 10_000, now: () => now });
    cache.set('a', answer(1));
    now = 5_000;
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('SingleFlight', () => {
  it('runs the work once for concurrent callers and forgets it when settled', async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    let finish: (value: number) => void = () => {};
    const work = () => {
      runs += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const first = flights.run('k', work);
    const second = flights.run('k', work);
    expect([first.joined, second.joined]).toEqual([false, true]);
    finish(7);
    expect(await Promise.all([first.result, second.result])).toEqual([7, 7]);
    expect(runs).toBe(1);
    expect(flights.size).toBe(0);
    const failing = flights.run('k', () => Promise.reject(new Error('boom')));
    await expect(failing.result).rejects.toThrow('boom');
    expect(flights.size).toBe(0);
  });
});
