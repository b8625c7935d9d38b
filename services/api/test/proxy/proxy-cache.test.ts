import { describe, expect, it } from 'vitest';
import { ALLOWED_ORIGIN, distinctiveKey, upstreamForFile } from './harness.js';

const { upstream, api, freshApi } = upstreamForFile(distinctiveKey());

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${api().url}${path}`, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const upstreamCalls = async () => (await upstream.calls()).total;

describe('the proxy cache', () => {
  it('a miss calls the upstream once; the hit after it is served from the cache, byte for byte', async () => {
    await freshApi();
    const first = await get('/api/upstream/posts?perPage=3');
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('x-cache')).toBe('MISS');
    expect(first.res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.res.headers.get('content-type')).toMatch(/^application\/json/);

    const second = await get('/api/upstream/posts?perPage=3');
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get('x-cache')).toBe('HIT');
    expect(second.res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(second.res.headers.get('age')).toBe('0');
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(await upstreamCalls()).toBe(1);
  });

  it('the visitor token stays here: the third party never sees it, and every visitor shares one entry', async () => {
    await freshApi();
    const first = await get('/api/upstream/tags?prefix=c&visitor=visitor-one-0000000001');
    expect(first.res.headers.get('x-cache')).toBe('MISS');
    expect((JSON.parse(first.bytes.toString()) as { upstream: { query: string } }).upstream.query).toBe('prefix=c');
    const second = await get('/api/upstream/tags?visitor=visitor-two-0000000002&prefix=c');
    expect(second.res.headers.get('x-cache')).toBe('HIT');
    expect(await upstreamCalls()).toBe(1);
  });

  it.each([
    ['two tokens', 'visitor=visitor-one-0000000001&prefix=c&visitor=visitor-two-0000000002'],
    ['a value that is no token first', 'visitor=short&prefix=c&visitor=visitor-two-0000000002'],
    ['an empty one', 'prefix=c&visitor=&visitor'],
  ])('no visitor parameter reaches the third party (%s)', async (_, query) => {
    await freshApi();
    const answer = await get(`/api/upstream/tags?${query}`);
    expect(answer.res.status).toBe(200);
    expect((JSON.parse(answer.bytes.toString()) as { upstream: { query: string } }).upstream.query).toBe('prefix=c');
  });

  it('the key is the target URL: another path or another query (cors=off too) is another entry', async () => {
    await freshApi();
    const targets = [
      '/api/upstream/posts',
      '/api/upstream/posts?page=2',
      '/api/upstream/posts?page=3',
      '/api/upstream/posts?cors=off',
      '/api/upstream/tags',
      '/api/upstream/tags?prefix=c',
    ];
    for (const path of targets) expect((await get(path)).res.headers.get('x-cache'), path).toBe('MISS');
    for (const path of targets) expect((await get(path)).res.headers.get('x-cache'), path).toBe('HIT');
    expect(await upstreamCalls()).toBe(targets.length);
    const page2 = JSON.parse((await get('/api/upstream/posts?page=2')).bytes.toString()) as {
      page: number;
      upstream: { query: string };
    };
    expect(page2.page).toBe(2);
    expect(page2.upstream.query).toBe('page=2');
  });

  it('entries live 300 s by default (moved with the injected clock), and Age counts up', async () => {
    const proxy = await freshApi();
    const first = await get('/api/upstream/tags');
    proxy.clock.advance(120_000);
    const aged = await get('/api/upstream/tags');
    expect(aged.res.headers.get('x-cache')).toBe('HIT');
    expect(aged.res.headers.get('age')).toBe('120');
    proxy.clock.advance(179_999);
    expect((await get('/api/upstream/tags')).res.headers.get('x-cache')).toBe('HIT');
    expect(await upstreamCalls()).toBe(1);

    proxy.clock.advance(1);
    const expired = await get('/api/upstream/tags');
    expect(expired.res.headers.get('x-cache')).toBe('MISS');
    expect(await upstreamCalls()).toBe(2);
    // A new upstream call: the body says which call produced it.
    expect(JSON.parse(expired.bytes.toString()).upstream.call).toBe(
      JSON.parse(first.bytes.toString()).upstream.call + 1,
    );
  });

  it('the lifetime is configurable (PROXY_CACHE_TTL_SECONDS), and max-age follows it', async () => {
    const proxy = await freshApi({ cacheTtlSeconds: 60 });
    expect((await get('/api/upstream/tags')).res.headers.get('cache-control')).toBe('public, max-age=60');
    proxy.clock.advance(59_000);
    expect((await get('/api/upstream/tags')).res.headers.get('x-cache')).toBe('HIT');
    proxy.clock.advance(1_000);
    expect((await get('/api/upstream/tags')).res.headers.get('x-cache')).toBe('MISS');
  });

  it('a lifetime of 0 turns the cache off', async () => {
    await freshApi({ cacheTtlSeconds: 0 });
    expect((await get('/api/upstream/tags')).res.headers.get('x-cache')).toBe('MISS');
    expect((await get('/api/upstream/tags')).res.headers.get('x-cache')).toBe('MISS');
    expect(await upstreamCalls()).toBe(2);
  });

  it('is bounded in entries: the least recently used entry goes first', async () => {
    await freshApi({ cacheMaxEntries: 2 });
    await get('/api/upstream/posts?page=1');
    await get('/api/upstream/posts?page=2');
    await get('/api/upstream/posts?page=1'); // page 1 is now the most recently used
    await get('/api/upstream/posts?page=3'); // evicts page 2
    expect((await get('/api/upstream/posts?page=1')).res.headers.get('x-cache')).toBe('HIT');
    expect((await get('/api/upstream/posts?page=3')).res.headers.get('x-cache')).toBe('HIT');
    expect((await get('/api/upstream/posts?page=2')).res.headers.get('x-cache')).toBe('MISS');
    expect(await upstreamCalls()).toBe(4);
  });

  it('is bounded in bytes: an answer larger than the whole cache is served but never stored', async () => {
    await freshApi({ cacheMaxBytes: 4_000 });
    const big = await get('/api/upstream/posts?mock=big&padBytes=5000');
    expect(big.res.status).toBe(200);
    expect(big.res.headers.get('cache-control')).toBe('public, max-age=300');
    expect((await get('/api/upstream/posts?mock=big&padBytes=5000')).res.headers.get('x-cache')).toBe('MISS');
    // Two answers of about 2.5 KB do not fit together: the second evicts the first.
    await get('/api/upstream/posts?mock=big&padBytes=1500&n=1');
    await get('/api/upstream/posts?mock=big&padBytes=1500&n=2');
    expect((await get('/api/upstream/posts?mock=big&padBytes=1500&n=2')).res.headers.get('x-cache')).toBe('HIT');
    expect((await get('/api/upstream/posts?mock=big&padBytes=1500&n=1')).res.headers.get('x-cache')).toBe('MISS');
  });

  it('CORS still applies to cached answers: the stored copy carries no per-origin header', async () => {
    await freshApi();
    const allowed = await get('/api/upstream/tags', { Origin: ALLOWED_ORIGIN });
    expect(allowed.res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowed.res.headers.get('vary')).toMatch(/Origin/);

    const stranger = await get('/api/upstream/tags', { Origin: 'https://evil.example' });
    expect(stranger.res.headers.get('x-cache')).toBe('HIT');
    expect(stranger.res.headers.get('access-control-allow-origin')).toBeNull();
    expect(stranger.res.headers.get('vary')).toMatch(/Origin/);

    const allowedAgain = await get('/api/upstream/tags', { Origin: ALLOWED_ORIGIN });
    expect(allowedAgain.res.headers.get('x-cache')).toBe('HIT');
    expect(allowedAgain.res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowedAgain.bytes.equals(stranger.bytes)).toBe(true);
  });
});
