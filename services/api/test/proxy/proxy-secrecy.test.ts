import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@origin-lab/server-kit';
import { apiConfig, apiConfigFromEnv } from '../../src/config.js';
import { createApp } from '../../src/app.js';
import type { ErrorBody } from '@origin-lab/contract';
import { pollUntil, rawGet } from '@origin-lab/test-kit';
import { ALLOWED_ORIGIN, distinctiveKey, proxyStackForFile, refusedUrl, startProxyApi } from './harness.js';

const key = distinctiveKey();
const stack = proxyStackForFile(key, { timeoutMs: 300, maxBodyBytes: 10_000 });

/** Every kind of answer the proxy can give: success, hit, pass, each failure, each refusal. */
const PATHS = [
  '/api/upstream/posts',
  '/api/upstream/posts',
  '/api/upstream/tags?prefix=c',
  '/api/upstream/posts?mock=private',
  '/api/upstream/posts?mock=no-store',
  '/api/upstream/posts?mock=cookie',
  '/api/upstream/posts?mock=fail',
  '/api/upstream/posts?page=0',
  '/api/upstream/posts?mock=unknown-switch',
  '/api/upstream/posts?mock=close',
  '/api/upstream/posts?mock=slow&delayMs=5000',
  '/api/upstream/posts?mock=redirect',
  '/api/upstream/posts?mock=big&padBytes=50000',
  '/api/upstream/posts?mock=reflect',
  '/api/upstream/tags?mock=reflect,private',
  '/api/upstream/posts?a=1#fragment',
  '/api/upstream/secret',
  '/api/upstream/%2e%2e/_admin/calls',
  '/api/upstream/posts/',
];

describe('the upstream key never leaves the server', () => {
  it('appears in no response, header or body, whatever the outcome; nor in any log line of either service', async () => {
    const wrongKey = await startProxyApi({ url: stack.upstream.url, apiKey: distinctiveKey() });
    const down = await startProxyApi({ url: await refusedUrl(), apiKey: key });
    try {
      const seen: string[] = [];
      for (const target of PATHS) {
        for (const origin of [undefined, ALLOWED_ORIGIN]) {
          const res = await rawGet(stack.api.port, target, 'GET');
          seen.push(res.raw);
          const viaFetch = await fetch(`${stack.api.url}${target.replace('#', '%23')}`, {
            headers: origin ? { Origin: origin } : {},
          });
          seen.push(JSON.stringify([...viaFetch.headers]), await viaFetch.text());
        }
      }
      for (const other of [wrongKey, down]) seen.push((await rawGet(other.port, '/api/upstream/posts')).raw);
      for (const method of ['HEAD', 'POST', 'OPTIONS'])
        seen.push((await rawGet(stack.api.port, '/api/upstream/posts', method)).raw);

      // It really was sent: the misbehaving upstream put it in its body, and the proxy withheld that.
      const reflected = await fetch(`${stack.upstream.url}/posts?mock=reflect`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(await reflected.text()).toContain(key);
      const withheld = await fetch(`${stack.api.url}/api/upstream/posts?mock=reflect`);
      expect(withheld.status).toBe(502);
      expect(((await withheld.json()) as ErrorBody).error).toMatch(/withheld/);

      const everything = seen.join('\n');
      expect(everything.length).toBeGreaterThan(1_000);
      expect(everything).not.toContain(key);

      const logs = [stack.api, wrongKey, down].flatMap((proxy) => proxy.logs).map((entry) => JSON.stringify(entry));
      expect(logs.some((line) => line.includes('"upstream call"'))).toBe(true);
      expect(logs.some((line) => line.includes('"upstream failed"'))).toBe(true);
      expect(logs.join('\n')).not.toContain(key);
      await pollUntil(
        'the upstream-mock to log its requests',
        () => stack.upstream.output().includes('"upstream request"'),
        { timeoutMs: 5_000 },
      );
      expect(stack.upstream.output()).toContain('[redacted]');
      expect(stack.upstream.output()).not.toContain(key);
    } finally {
      await wrongKey.stop();
      await down.stop();
    }
  });

  it('the upstream-mock refuses a missing or wrong key with 401 and does not echo what was presented', async () => {
    const guess = distinctiveKey();
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: `Bearer ${guess}` },
      { Authorization: `Basic ${guess}` },
      { Authorization: `Bearer ${key}x` },
      { Authorization: `Bearer  ${key}` },
    ]) {
      const res = await fetch(`${stack.upstream.url}/posts`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      expect(text).not.toContain(guess);
      expect(text).not.toContain(key);
    }
  });
});

describe('where the key is configured', () => {
  it('comes from UPSTREAM_API_KEY, or from the file UPSTREAM_API_KEY_FILE names (a Docker secret), which wins', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'upstream-key-'));
    try {
      const file = path.join(dir, 'upstream_api_key');
      writeFileSync(file, `${key}\n`);
      expect(apiConfigFromEnv({ UPSTREAM_API_KEY: 'from-env' }, 0).upstream.apiKey).toBe('from-env');
      expect(apiConfigFromEnv({ UPSTREAM_API_KEY: 'from-env', UPSTREAM_API_KEY_FILE: file }, 0).upstream.apiKey).toBe(
        key,
      );
      expect(apiConfigFromEnv({}, 0).upstream.apiKey).toBe('dev-only-upstream-key');
      expect(() => apiConfigFromEnv({ UPSTREAM_API_KEY_FILE: path.join(dir, 'missing') }, 0)).toThrow(ConfigError);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('a key that could not travel in a header is a configuration error that does not repeat it', () => {
    const tooLong = `${key}${'k'.repeat(513 - key.length)}`;
    for (const bad of [`${key}\nX-Injected: 1`, `${key} with spaces`, `${key}\u00e9`, tooLong]) {
      let message = '';
      try {
        apiConfigFromEnv({ UPSTREAM_API_KEY: bad }, 0);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toMatch(/UPSTREAM_API_KEY.*1 to 512 visible ASCII characters/);
      expect(message).not.toContain(key);
    }
    // The longest key that fits is accepted as it is.
    const longest = tooLong.slice(0, 512);
    expect(apiConfigFromEnv({ UPSTREAM_API_KEY: longest }, 0).upstream.apiKey).toBe(longest);
  });

  it('UPSTREAM_URL must be a plain http(s) base: no credentials, query or fragment', () => {
    const base = apiConfig();
    for (const url of [
      'not a url',
      'ftp://upstream.example',
      'http://user:pass@upstream.example',
      'http://upstream.example/?x=1',
      'http://upstream.example/#x',
    ]) {
      expect(() => createApp(apiConfig({ upstream: { ...base.upstream, url } })), url).toThrow(ConfigError);
    }
    expect(() =>
      createApp(apiConfig({ upstream: { ...base.upstream, url: 'https://upstream.example/v1/' } })),
    ).not.toThrow();
  });
});
