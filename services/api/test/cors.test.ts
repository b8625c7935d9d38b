import { describe, expect, it } from 'vitest';
import { ALLOWED, ALSO_ALLOWED, apiForFile } from './start-api.js';
import { rawExchange } from '@origin-lab/test-kit';

const api = apiForFile();

const ENDPOINTS = ['/api/posts', '/api/echo', '/api/flaky?rate=0', '/api/slow?ms=0', '/api/bad-json', '/api/nope'];

function preflight(origin: string, path = '/api/echo', extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
      ...extra,
    },
  });
}

function accessControlHeaders(res: Response): string[] {
  return [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
}

describe('an allowed origin', () => {
  it.each(ENDPOINTS)('%s reflects exactly that origin with Vary: Origin', async (path) => {
    for (const origin of [ALLOWED, ALSO_ALLOWED]) {
      const res = await fetch(`${api.url}${path}`, { headers: { Origin: origin } });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
      expect(res.headers.get('access-control-expose-headers')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('keeps the CORS answer on errors, so the page can read a 400, 404, 405 or 500', async () => {
    for (const [path, method, status] of [
      ['/api/slow?ms=x', 'GET', 400],
      ['/api/nope', 'GET', 404],
      ['/api/flaky', 'DELETE', 405],
      ['/api/flaky?rate=1', 'GET', 500],
    ] as const) {
      const res = await fetch(`${api.url}${path}`, { method, headers: { Origin: ALLOWED } });
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    }
  });

  it('its preflight gets 204, no body, and the fixed allow lists', async () => {
    for (const path of ['/api/echo', '/api/posts', '/api/anything-at-all']) {
      const res = await preflight(ALLOWED, path);
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, X-Requested-With');
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    }
  });

  it('a preflight needs no credentials and never reaches a handler: no side effect', async () => {
    const before = ((await (await fetch(`${api.url}/api/posts`)).json()) as { posts: unknown[] }).posts.length;
    const res = await preflight(ALLOWED, '/api/posts');
    expect(res.status).toBe(204);
    const after = ((await (await fetch(`${api.url}/api/posts`)).json()) as { posts: unknown[] }).posts.length;
    expect(after).toBe(before);
  });

  it('answers the same fixed lists whatever the preflight asks for, however long or odd', async () => {
    for (const requested of [
      'authorization',
      'x-a, x-b, x-c',
      'a'.repeat(8_000),
      ',,,',
      '\u00e9t\u00e9',
      'content-type,,x-requested-with',
    ]) {
      const res = await rawExchange(
        api.port,
        `OPTIONS /api/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nOrigin: ${ALLOWED}\r\n` +
          `Access-Control-Request-Method: PUT\r\nAccess-Control-Request-Headers: ${requested}\r\n\r\n`,
        { halfClose: true },
      );
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-headers')).toEqual(['Content-Type, X-Requested-With']);
      expect(res.headers.get('access-control-allow-methods')).toEqual(['GET, POST, OPTIONS']);
    }
  });

  it('?cors=credentials adds Access-Control-Allow-Credentials: true, to the preflight as well', async () => {
    const res = await fetch(`${api.url}/api/echo?cors=credentials`, { headers: { Origin: ALLOWED } });
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const pre = await preflight(ALLOWED, '/api/echo?cors=credentials');
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

describe('?cors=off', () => {
  it.each(ENDPOINTS.map((path) => path + (path.includes('?') ? '&' : '?') + 'cors=off'))(
    '%s answers as usual with no Access-Control-* header',
    async (path) => {
      const plain = await fetch(`${api.url}${path.replace(/[?&]cors=off/, '')}`, { headers: { Origin: ALLOWED } });
      const off = await fetch(`${api.url}${path}`, { headers: { Origin: ALLOWED } });
      expect(off.status).toBe(plain.status);
      expect(accessControlHeaders(off)).toEqual([]);
    },
  );

  it('the request was still handled: a post created with cors=off is in the list', async () => {
    const form = new FormData();
    form.set('title', 'created with cors=off');
    form.set('author', 'nobody can read this answer');
    const res = await fetch(`${api.url}/api/posts?cors=off`, {
      method: 'POST',
      body: form,
      headers: { Origin: ALLOWED },
    });
    expect(res.status).toBe(201);
    expect(accessControlHeaders(res)).toEqual([]);
    const list = (await (await fetch(`${api.url}/api/posts`)).json()) as { posts: { title: string }[] };
    expect(list.posts.map((post) => post.title)).toContain('created with cors=off');
  });

  it('given twice, still off; two modes that disagree leave the default', async () => {
    const twice = await fetch(`${api.url}/api/posts?cors=off&cors=off`, { headers: { Origin: ALLOWED } });
    expect(accessControlHeaders(twice)).toEqual([]);
    const credentials = await fetch(`${api.url}/api/echo?cors=credentials&x=1&cors=credentials`, {
      headers: { Origin: ALLOWED },
    });
    expect(credentials.headers.get('access-control-allow-credentials')).toBe('true');
    const mixed = await fetch(`${api.url}/api/posts?cors=off&cors=credentials`, { headers: { Origin: ALLOWED } });
    expect(mixed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(mixed.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('its preflight carries no approval', async () => {
    const res = await preflight(ALLOWED, '/api/echo?cors=off');
    expect(res.status).toBe(204);
    expect(accessControlHeaders(res)).toEqual([]);
  });
});

describe('an origin that is not on the list is never approved', () => {
  const hostile = [
    'null',
    'HTTP://ALLOWED.EXAMPLE',
    'http://Allowed.example',
    `${ALLOWED}/`,
    `${ALLOWED}:80`,
    `${ALLOWED}:8080`,
    'https://allowed.example',
    'http://allowed.example.evil.test',
    'http://evil-allowed.example',
    'http://notallowed.example',
    'http://allowed.exampl',
    'http://allowed.example.',
    `${ALLOWED}/path`,
    `user@${ALLOWED.slice(7)}`,
    `${ALLOWED}, http://evil.test`,
    `http://evil.test, ${ALLOWED}`,
    '*',
    'http://b.localhost',
    'https://b.localhost:443',
    'x'.repeat(4_000),
  ];

  it.each(hostile)('%s gets no Access-Control-* header, but still its answer', async (origin) => {
    const res = await fetch(`${api.url}/api/echo`, { headers: { Origin: origin } });
    expect(res.status).toBe(200);
    expect(accessControlHeaders(res)).toEqual([]);
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it.each(hostile)('the preflight of %s is refused with 403 and a JSON reason', async (origin) => {
    const res = await preflight(origin);
    expect(res.status).toBe(403);
    expect(accessControlHeaders(res)).toEqual([]);
    // The origin is named back, cut to 200 characters (docs/decisions.md).
    expect(await res.json()).toMatchObject({ error: expect.stringMatching(/allowlist/), origin: origin.slice(0, 200) });
  });

  it('two Origin headers, even both allowed, approve nothing', async () => {
    for (const second of [ALLOWED, 'http://evil.test']) {
      const res = await rawExchange(
        api.port,
        `GET /api/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nOrigin: ${ALLOWED}\r\nOrigin: ${second}\r\n\r\n`,
        { halfClose: true },
      );
      expect(res.status).toBe(200);
      expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('a request without Origin (curl, a server) gets its answer and Vary, nothing more', async () => {
    const res = await fetch(`${api.url}/api/posts`);
    expect(res.status).toBe(200);
    expect(accessControlHeaders(res)).toEqual([]);
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
    const options = await fetch(`${api.url}/api/posts`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, POST, OPTIONS');
  });

  // docs/decisions.md: an OPTIONS that is not a preflight (no Origin, or no
  // Access-Control-Request-Method) gets 204 with Allow on every /api/ path, known or not.
  it.each([
    ['no Origin', '/api/posts', {}],
    ['another Origin without Access-Control-Request-Method', '/api/echo', { Origin: 'http://evil.test' }],
    ['no Origin, on a path without a route', '/api/no-such-endpoint', {}],
    ['another Origin, on a path without a route', '/api/no-such-endpoint', { Origin: 'http://evil.test' }],
  ])('an OPTIONS that is not a preflight (%s) gets 204 with Allow and no body', async (_, path, headers) => {
    const res = await fetch(`${api.url}${path}`, { method: 'OPTIONS', headers });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(await res.text()).toBe('');
  });

  it('an OPTIONS from an allowed origin gets the preflight answer even without Access-Control-Request-Method', async () => {
    // A page cannot set Access-Control-Request-Method; this is how the reads page shows the answer.
    for (const path of ['/api/posts', '/api/no-such-endpoint']) {
      const res = await fetch(`${api.url}${path}`, { method: 'OPTIONS', headers: { Origin: ALLOWED } });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      expect(await res.text()).toBe('');
    }
  });
});
