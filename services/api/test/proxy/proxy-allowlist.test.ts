import { describe, expect, it } from 'vitest';
import { distinctiveKey, proxyStackForFile } from './harness.js';
import { rawGet as rawGetOn } from '@origin-lab/test-kit';

const key = distinctiveKey();
const stack = proxyStackForFile(key, {}, { resetEachTest: true });

const rawGet = (target: string) => rawGetOn(stack.api.port, target);

describe('the allowed upstream paths', () => {
  it('forwards /api/upstream/posts and /api/upstream/tags to the pinned upstream, with the bearer key and Accept: application/json', async () => {
    const posts = await fetch(`${stack.api.url}/api/upstream/posts`);
    expect(posts.status).toBe(200);
    expect(((await posts.json()) as { posts: unknown[] }).posts.length).toBeGreaterThan(0);
    const tags = await fetch(`${stack.api.url}/api/upstream/tags`);
    expect(tags.status).toBe(200);
    expect(((await tags.json()) as { tags: string[] }).tags).toContain('cors');

    const calls = await stack.upstream.calls();
    expect(calls.byPath).toEqual({ '/posts': 1, '/tags': 1 });
    expect(calls.unauthorized).toBe(0);
    for (const call of calls.recent) expect(call.accept).toBe('application/json');
  });

  it('passes the query string on unchanged, so paging and filters reach the upstream', async () => {
    const res = await fetch(`${stack.api.url}/api/upstream/posts?page=2&perPage=5&tag=cors`);
    const body = (await res.json()) as { page: number; perPage: number; posts: { tags: string[] }[] };
    expect(body.page).toBe(2);
    expect(body.perPage).toBe(5);
    for (const post of body.posts) expect(post.tags).toContain('cors');
    expect((await stack.upstream.calls()).recent.map((call) => call.query)).toEqual(['page=2&perPage=5&tag=cors']);
  });

  it('keeps the host pinned whatever the query holds', async () => {
    for (const query of [
      '@evil.example',
      '//evil.example/x',
      'url=http://evil.example/',
      'a=%2F%2E%2E%2F',
      'x=\\..\\tags',
      'x={}|^`',
    ]) {
      const res = await rawGet(`/api/upstream/posts?${query}`);
      expect(res.status, query).toBe(200);
    }
    const calls = await stack.upstream.calls();
    expect(calls.total).toBe(6);
    expect(Object.keys(calls.byPath)).toEqual(['/posts']);
  });

  it('refuses a query with a "#" (400) and one past PROXY_MAX_QUERY_CHARS (414), as JSON, without calling upstream', async () => {
    const hash = await rawGet('/api/upstream/posts?a=1#x');
    expect(hash.status).toBe(400);
    expect(JSON.parse(hash.text)).toMatchObject({ error: expect.any(String), detail: expect.any(String) });
    const long = await rawGet(`/api/upstream/posts?q=${'a'.repeat(1_100)}`);
    expect(long.status).toBe(414);
    expect(JSON.parse(long.text).detail).toMatch(/PROXY_MAX_QUERY_CHARS/);
    expect((await stack.upstream.calls()).total).toBe(0);
  });

  it('answers HEAD like GET without a body, and other methods with 405', async () => {
    // A query of its own, so the answer is not already in the proxy cache.
    const head = await fetch(`${stack.api.url}/api/upstream/tags?prefix=head`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // The third party is always called with GET (docs/decisions.md), even for a HEAD.
    expect((await stack.upstream.calls()).recent.map(({ method, path, query }) => ({ method, path, query }))).toEqual([
      { method: 'GET', path: '/tags', query: 'prefix=head' },
    ]);
    const post = await fetch(`${stack.api.url}/api/upstream/posts`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const deleteUnknown = await fetch(`${stack.api.url}/api/upstream/secret`, { method: 'DELETE' });
    expect(deleteUnknown.status).toBe(404);
    expect(await deleteUnknown.text()).toBe('Not proxied');
  });
});

/** Every one of these must answer 404 "Not proxied" and never reach the upstream. */
const ESCAPES = [
  // not on the list, near misses, the bare prefix
  '/api/upstream',
  '/api/upstream/',
  '/api/upstream?x=1',
  '/api/upstream/post',
  '/api/upstream/postsx',
  '/api/upstream/posts.json',
  '/api/upstream/users',
  '/api/upstream/_admin/calls',
  // trailing slashes, dots, parameters
  '/api/upstream/posts/',
  '/api/upstream/posts//',
  '/api/upstream/posts/.',
  '/api/upstream/./posts',
  '/api/upstream/posts;x=1',
  '/api/upstream/posts%00',
  '/api/upstream/posts%20',
  // dot-dot, raw and encoded, single and double
  '/api/upstream/../upstream/posts',
  '/api/upstream/posts/../tags',
  '/api/upstream/posts/../../_admin/calls',
  '/api/upstream/%2e%2e/posts',
  '/api/upstream/%2E%2E/_admin/calls',
  '/api/upstream/posts/%2e%2e/tags',
  '/api/upstream/%252e%252e/posts',
  '/api/upstream/%25252e%25252e/posts',
  // encoded slashes and letters
  '/api/upstream/%2fposts',
  '/api/upstream/%2Fposts',
  '/api/upstream/posts%2f..%2ftags',
  '/api/upstream/%252fposts',
  '/api/upstream/%70osts',
  '/api/upstream/%2e/posts',
  // backslashes
  '/api/upstream/\\posts',
  '/api/upstream/posts\\..\\tags',
  '/api/upstream/%5cposts',
  // another host: //host, absolute URLs, @ and : tricks
  '/api/upstream//posts',
  '/api/upstream//evil.example/posts',
  '/api/upstream/http://evil.example/posts',
  '/api/upstream/https:%2f%2fevil.example/posts',
  '/api/upstream/@evil.example/posts',
  '/api/upstream/posts@evil.example',
  '/api/upstream/user:pass@evil.example/posts',
  '/api/upstream/:443/posts',
  '/api/upstream/posts:80',
  '/api/upstream/evil.example:80/posts',
  // case variants
  '/api/upstream/POSTS',
  '/api/upstream/Posts',
  '/api/upstream/Tags',
  // very long paths
  `/api/upstream/${'a'.repeat(8_000)}`,
  `/api/upstream/posts/${'../'.repeat(2_000)}`,
  `/api/upstream/posts${'/'.repeat(4_000)}`,
];

describe('everything else under /api/upstream/', () => {
  it.each(
    ESCAPES.map((target) => [
      target.length > 80 ? `${target.slice(0, 60)}... (${target.length} chars)` : target,
      target,
    ]),
  )('%s answers 404 "Not proxied" as plain text', async (_label, target) => {
    const res = await rawGet(target);
    expect(res.status).toBe(404);
    expect(res.text).toBe('Not proxied');
    expect(res.header('content-type')).toMatch(/^text\/plain/);
  });

  it('absolute-form request targets are not proxied, whatever host they name', async () => {
    for (const target of [
      `http://evil.example/api/upstream/posts`,
      `http://127.0.0.1:${stack.api.port}/api/upstream/posts`,
    ]) {
      const res = await rawGet(target);
      expect(res.status, target).toBe(404);
      expect(res.text).toBe('Not proxied');
    }
  });

  it('none of them reached the upstream', async () => {
    for (const target of ESCAPES) await rawGet(target);
    // Not under /api/upstream/ at all: the API's JSON 404 for unknown paths.
    for (const target of [
      '/api/upstreamposts',
      '/api/upstream\\posts',
      '/api/UPSTREAM/posts',
      '/api/Upstream/tags',
      '/API/upstream/posts',
      '/api/%75pstream/posts',
      '/api/./upstream/posts',
    ]) {
      const res = await rawGet(target);
      expect(res.status, target).toBe(404);
    }
    expect((await stack.upstream.calls()).total).toBe(0);
  });

  it('a preflight to the proxy is answered by the CORS rules, not forwarded', async () => {
    const res = await fetch(`${stack.api.url}/api/upstream/posts`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://allowed.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect((await stack.upstream.calls()).total).toBe(0);
  });
});
