import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '@origin-lab/contract';
import { distinctiveKey, proxyStackForFile, refusedUrl, startProxyApi } from './harness.js';

const key = distinctiveKey();
const stack = proxyStackForFile(key, { timeoutMs: 300, maxBodyBytes: 10_000 }, { resetEachTest: true });

async function expectJsonError(res: Response, status: number, error: RegExp, detail: RegExp): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as ErrorBody;
  expect(body.error).toMatch(error);
  expect(body.detail).toMatch(detail);
}

describe('when the upstream fails', () => {
  it('slower than the timeout (UPSTREAM_TIMEOUT_MS): 504 with a JSON error, nothing cached', async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${stack.api.url}/api/upstream/posts?mock=slow&delayMs=15000`, {
        signal: AbortSignal.timeout(10_000),
      });
      await expectJsonError(res, 504, /timed out/, /300 ms/);
    }
    expect((await stack.upstream.calls()).total).toBe(2);
  });

  it('closing the connection without an answer: 502, nothing cached', async () => {
    for (let i = 0; i < 2; i += 1) {
      await expectJsonError(
        await fetch(`${stack.api.url}/api/upstream/posts?mock=close`),
        502,
        /unavailable/,
        /closed the connection/,
      );
    }
    expect((await stack.upstream.calls()).total).toBe(2);
  });

  it('refusing connections (down): 502 saying so', async () => {
    const down = await startProxyApi({ url: await refusedUrl(), apiKey: key, timeoutMs: 2_000 });
    try {
      await expectJsonError(
        await fetch(`${down.url}/api/upstream/posts`),
        502,
        /unavailable/,
        /refused the connection/,
      );
    } finally {
      await down.stop();
    }
  });

  it('an unresolvable host: a JSON error, 502 (or 504 if the resolver itself is slower than the timeout)', async () => {
    const nowhere = await startProxyApi({ url: 'http://upstream.invalid', apiKey: key, timeoutMs: 2_000 });
    try {
      const res = await fetch(`${nowhere.url}/api/upstream/posts`);
      expect([502, 504]).toContain(res.status);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await res.json()) as ErrorBody).toEqual({ error: expect.any(String), detail: expect.any(String) });
    } finally {
      await nowhere.stop();
    }
  });

  it("refusing the server's key (401): 502 naming the setting, never a cached success", async () => {
    const wrongKey = await startProxyApi({ url: stack.upstream.url, apiKey: distinctiveKey() });
    try {
      for (let i = 0; i < 2; i += 1) {
        const res = await fetch(`${wrongKey.url}/api/upstream/posts`);
        await expectJsonError(res, 502, /credentials/, /401.*UPSTREAM_API_KEY/);
        expect(res.headers.get('www-authenticate')).toBeNull();
      }
      const calls = await stack.upstream.calls();
      expect(calls.total).toBe(2);
      expect(calls.unauthorized).toBe(2);
    } finally {
      await wrongKey.stop();
    }
  });

  it("refusing the server's key for this resource (403): 502 naming the setting, never stored", async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await fetch(`${stack.api.url}/api/upstream/posts?mock=forbidden`);
      await expectJsonError(res, 502, /credentials/, /403.*UPSTREAM_API_KEY/);
    }
    expect((await stack.upstream.calls()).total).toBe(2);
  });

  it('a redirect is not followed (the host stays pinned): 502', async () => {
    await expectJsonError(await fetch(`${stack.api.url}/api/upstream/posts?mock=redirect`), 502, /redirected/, /302/);
  });

  it('an answer over UPSTREAM_MAX_BODY_BYTES: 502, not stored', async () => {
    for (let i = 0; i < 2; i += 1) {
      await expectJsonError(
        await fetch(`${stack.api.url}/api/upstream/posts?mock=big&padBytes=20000`),
        502,
        /too large/,
        /10000 bytes/,
      );
    }
    expect((await stack.upstream.calls()).total).toBe(2);
  });

  it('the proxy recovers: a good answer after the failures is cached as usual', async () => {
    await fetch(`${stack.api.url}/api/upstream/tags?mock=close`);
    expect((await fetch(`${stack.api.url}/api/upstream/tags`)).headers.get('x-cache')).toBe('MISS');
    expect((await fetch(`${stack.api.url}/api/upstream/tags`)).headers.get('x-cache')).toBe('HIT');
  });
});
