import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@origin-lab/server-kit';
import type { ErrorBody } from '@origin-lab/contract';
import { pollUntil } from '@origin-lab/test-kit';
import { createApp, type UpstreamApp } from '../src/app.js';

const KEY = 'mock-test-key';
let app: UpstreamApp;
let running: RunningServer;
let url: string;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  app = createApp({ apiKey: KEY, log: (entry) => logs.push(entry), maxDelayMs: 5_000 });
  running = await serve(app.callback(), { port: 0, host: '127.0.0.1', onStopping: () => app.release() });
  url = `http://127.0.0.1:${running.port}`;
});
afterAll(() => running?.stop(500));
beforeEach(() => app.resetCalls());

const auth = { Authorization: `Bearer ${KEY}` };
const get = (path: string, headers: Record<string, string> = auth) =>
  fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });

describe('the upstream-mock', () => {
  it('demands the bearer key: missing or wrong is 401 with a JSON reason', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer nope' },
      { Authorization: `Basic ${KEY}` },
    ]) {
      const res = await get('/posts', headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await res.json()) as ErrorBody).error).toBe('unauthorized');
    }
    expect((await get('/posts', { Authorization: `bearer ${KEY}` })).status).toBe(200);
    expect(app.calls()).toMatchObject({ total: 4, unauthorized: 3 });
  });

  it('serves /posts with paging and filters, and says which call and query produced it', async () => {
    const res = await get('/posts?page=2&perPage=3&tag=cors');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      page: number;
      perPage: number;
      total: number;
      posts: { tags: string[] }[];
      upstream: { call: number; query: string };
    };
    expect(body).toMatchObject({ page: 2, perPage: 3, upstream: { call: 1, query: 'page=2&perPage=3&tag=cors' } });
    expect(body.posts).toHaveLength(3);
    for (const post of body.posts) expect(post.tags).toContain('cors');
    const byAuthor = (await (await get('/posts?author=Ada&perPage=50')).json()) as { posts: { author: string }[] };
    expect(byAuthor.posts.every((post) => post.author === 'Ada')).toBe(true);
  });

  it('serves /tags, optionally by prefix', async () => {
    const all = (await (await get('/tags')).json()) as { tags: string[] };
    expect(all.tags).toContain('cors');
    const some = (await (await get('/tags?prefix=c')).json()) as { tags: string[] };
    expect(some.tags.length).toBeGreaterThan(0);
    expect(some.tags.every((tag) => tag.startsWith('c'))).toBe(true);
  });

  it('answers bad parameters with 400, unknown paths with 404, other methods with 405', async () => {
    const cases: [method: string, path: string, status: number][] = [
      ['GET', '/posts?page=0', 400],
      ['GET', '/posts?perPage=x', 400],
      ['GET', '/posts?mock=explode', 400],
      ['GET', '/users', 404],
      ['DELETE', '/posts', 405],
    ];
    for (const [method, path, status] of cases) {
      expect(
        (await fetch(`${url}${path}`, { method, headers: auth, signal: AbortSignal.timeout(10_000) })).status,
        `${method} ${path}`,
      ).toBe(status);
    }
  });

  it('answers every error as a JSON Error object that no cache keeps', async () => {
    const unauthorized = await get('/posts', {});
    expect(unauthorized.headers.get('cache-control')).toBe('no-store');
    expect(await unauthorized.json()).toEqual({ error: 'unauthorized', detail: 'no Authorization header' });
    const failed = await get('/posts?mock=fail');
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(await failed.json()).toEqual({
      error: 'the upstream failed on purpose',
      detail: 'asked for with mock=fail',
    });
    const badPage = await get('/posts?page=0');
    expect(badPage.headers.get('cache-control')).toBe('no-store');
    expect(await badPage.json()).toMatchObject({ error: 'page must be a whole number from 1 to 1000' });
    const unknown = await get('/users');
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    expect(await unknown.json()).toEqual({ error: 'no such endpoint', path: '/users' });
    const otherMethod = await fetch(`${url}/tags`, { method: 'PUT', headers: auth });
    expect(otherMethod.status).toBe(405);
    expect(otherMethod.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(otherMethod.headers.get('cache-control')).toBe('no-store');
    expect(await otherMethod.json()).toMatchObject({ error: 'method not allowed', path: '/tags' });
    const adminMethod = await fetch(`${url}/_admin/reset`);
    expect(adminMethod.status).toBe(405);
    expect(adminMethod.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await fetch(`${url}/_admin/calls`)).headers.get('cache-control')).toBe('no-store');
  });

  it('counts every call it receives by path, with the Accept header, never the key', async () => {
    await get('/posts', { ...auth, Accept: 'application/json' });
    await get('/tags?prefix=s');
    await get('/tags', {});
    const calls = app.calls();
    expect(calls.byPath).toEqual({ '/posts': 1, '/tags': 2 });
    expect(calls.recent.map((call) => [call.path, call.query, call.authorized])).toEqual([
      ['/posts', '', true],
      ['/tags', 'prefix=s', true],
      ['/tags', '', false],
    ]);
    expect(calls.recent[0]!.accept).toBe('application/json');
    expect(JSON.stringify(calls)).not.toContain(KEY);
    const overHttp = await (await fetch(`${url}/_admin/calls`)).json();
    expect(overHttp).toEqual(JSON.parse(JSON.stringify(app.calls())));
    expect(await (await fetch(`${url}/_admin/reset`, { method: 'POST' })).json()).toEqual({ reset: true });
    expect(app.calls().total).toBe(0);
  });

  it('switches: fail, private, no-store, no-cache, cookie, redirect, big, reflect', async () => {
    const fail = await get('/posts?mock=fail');
    expect(fail.status).toBe(500);
    expect(((await fail.json()) as ErrorBody).error).toMatch(/on purpose/);
    for (const [path, cacheControl] of [
      ['/posts?mock=private', 'private, max-age=60'],
      ['/posts?mock=no-store', 'no-store'],
      ['/posts?mock=no-cache', 'no-cache'],
      ['/tags', 'max-age=60'],
    ] as const) {
      expect((await get(path)).headers.get('cache-control'), path).toBe(cacheControl);
    }
    expect((await get('/posts?mock=cookie')).headers.getSetCookie()).toHaveLength(1);
    const redirect = await fetch(`${url}/posts?mock=redirect`, { headers: auth, redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const big = (await (await get('/tags?mock=big&padBytes=1000')).json()) as { padding: string };
    expect(big.padding).toHaveLength(1_000);
    const reflect = (await (await get('/tags?mock=reflect,private')).json()) as {
      requestHeaders: Record<string, string>;
    };
    expect(reflect.requestHeaders.authorization).toBe(`Bearer ${KEY}`);
  });

  it('switch close: the connection ends without an answer', async () => {
    await expect(get('/posts?mock=close')).rejects.toThrow(TypeError);
    expect(app.calls().total).toBe(1);
  });

  it('switch slow: answers after delayMs, bounded by the longest delay allowed', async () => {
    const res = await get('/tags?mock=slow&delayMs=50');
    expect(res.status).toBe(200);
    expect((await get('/tags?mock=slow&delayMs=999999')).status).toBe(400);
  });

  it('switch hold: waits until released, and the admin route says how many it released', async () => {
    const held = get('/tags?mock=hold');
    await pollUntil('the request to be held', () => app.calls().held !== 0, { timeoutMs: 5_000, intervalMs: 10 });
    expect(app.calls().held).toBe(1);
    const released = await (await fetch(`${url}/_admin/release`, { method: 'POST' })).json();
    expect(released).toEqual({ released: 1 });
    expect((await held).status).toBe(200);
  });

  it('a slow or held request whose client leaves stops waiting', async () => {
    const controller = new AbortController();
    const gone = fetch(`${url}/tags?mock=hold`, { headers: auth, signal: controller.signal }).catch(() => 'aborted');
    await pollUntil('the request to be held', () => app.calls().held !== 0, { timeoutMs: 5_000, intervalMs: 10 });
    controller.abort();
    expect(await gone).toBe('aborted');
    await pollUntil('the held request to be let go', () => app.calls().held === 0, {
      timeoutMs: 5_000,
      intervalMs: 10,
    });
    expect(app.calls().held).toBe(0);
  });

  it('logs each request with the Authorization header redacted', () => {
    const lines = logs.map((entry) => JSON.stringify(entry));
    expect(lines.some((line) => line.includes('"upstream request"'))).toBe(true);
    expect(lines.join('\n')).not.toContain(KEY);
  });
});
