import { describe, expect, it } from 'vitest';
import { distinctiveKey, proxyStackForFile } from './harness.js';

const key = distinctiveKey();
const stack = proxyStackForFile(key, {}, { resetEachTest: true });

/** Asks twice: an answer that must not be shared reaches the upstream both times. */
async function twice(path: string) {
  const answers = [];
  for (let i = 0; i < 2; i += 1) {
    const res = await fetch(`${stack.api.url}${path}`);
    answers.push({ res, body: await res.text() });
  }
  return answers;
}

describe('what the proxy never stores', () => {
  it.each([
    ['Cache-Control: private', 'mock=private', 200, 'private, max-age=60'],
    ['Cache-Control: no-store', 'mock=no-store', 200, 'no-store'],
    ['Cache-Control: no-cache', 'mock=no-cache', 200, 'no-cache'],
    ['Set-Cookie', 'mock=cookie', 200, 'no-store'],
    ['Vary: *', 'mock=vary-star', 200, 'no-store'],
    ['an error status (400)', 'page=0', 400, 'no-store'],
  ])(
    'an answer with %s is passed on, not stored, without the public cache headers',
    async (_what, query, status, cacheControl) => {
      for (const { res, body } of await twice(`/api/upstream/posts?${query}`)) {
        expect(res.status).toBe(status);
        expect(res.headers.get('x-cache')).toBe('PASS');
        expect(res.headers.get('cache-control')).toBe(cacheControl);
        expect(res.headers.get('cache-control')).not.toMatch(/public|max-age=300/);
        expect(res.headers.get('set-cookie')).toBeNull();
        expect(body.length).toBeGreaterThan(0);
      }
      expect((await stack.upstream.calls()).total).toBe(2);
    },
  );

  it('an upstream 5xx is the third party failing: a 502 JSON naming its status, never stored', async () => {
    for (const { res, body } of await twice('/api/upstream/posts?mock=fail')) {
      expect(res.status).toBe(502);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(JSON.parse(body)).toEqual({ error: 'the upstream failed', detail: 'the upstream answered 500' });
    }
    expect((await stack.upstream.calls()).total).toBe(2);
  });

  it("an upstream cookie never reaches the page: it belongs to the server's upstream session", async () => {
    const res = await fetch(`${stack.api.url}/api/upstream/tags?mock=cookie`);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('a private answer does not poison the public one for another query', async () => {
    await twice('/api/upstream/tags?mock=private');
    const [first, second] = await twice('/api/upstream/tags');
    expect(first!.res.headers.get('x-cache')).toBe('MISS');
    expect(second!.res.headers.get('x-cache')).toBe('HIT');
    expect((await stack.upstream.calls()).total).toBe(3);
  });
});
