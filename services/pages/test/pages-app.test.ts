import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { rawExchange } from '@origin-lab/test-kit';
import { pagesServerFor } from './pages-server.js';
import { defaultPagesRoot, pagesConfigFromEnv } from '../src/config.js';
import { parseSitePairs, siteConfigScript } from '../src/site-pairs.js';
import { studentAnnouncement, studentOriginsFromEnv } from '../src/student-origins.js';

describe('SITE_PAIRS', () => {
  it('reads pairs of hosts', () => {
    expect(parseSitePairs('localhost<->127.0.0.1, a.localhost<->B.localhost')).toEqual([
      ['localhost', '127.0.0.1'],
      ['a.localhost', 'b.localhost'],
    ]);
  });

  it.each(['', 'a.localhost', 'a<->b<->c', 'a<->a', 'http://a<->b', 'a:8080<->b'])(
    'refuses %j with a message naming the variable',
    (raw) => {
      expect(() => parseSitePairs(raw)).toThrow(/SITE_PAIRS/);
    },
  );

  it('renders a classic script that sets the pairs on window', () => {
    expect(siteConfigScript([['a', 'b']], 'c')).toContain(
      'window.ORIGIN_LAB_SITE = {"pairs":[["a","b"]],"third":"c","websocketTargetPort":null};',
    );
  });

  it("names the WebSocket target's port when there is one", () => {
    expect(siteConfigScript([['a', 'b']], null, 40123)).toContain(
      'window.ORIGIN_LAB_SITE = {"pairs":[["a","b"]],"third":null,"websocketTargetPort":40123};',
    );
  });
});

describe('settings from the environment', () => {
  it('fall back to the defaults when unset or empty', () => {
    for (const env of [{}, { PAGES_ROOT: '', SITE_PAIRS: '' }]) {
      expect(pagesConfigFromEnv(env)).toEqual({
        root: defaultPagesRoot,
        sitePairs: [
          ['localhost', '127.0.0.1'],
          ['a.localhost', 'b.localhost'],
        ],
        thirdSite: 'c.localhost',
      });
    }
  });

  it('take PAGES_ROOT, SITE_PAIRS and SITE_C as given, and refuse a bad pair or name', () => {
    expect(pagesConfigFromEnv({ PAGES_ROOT: '/srv/pages', SITE_PAIRS: 'x.test<->y.test', SITE_C: 'Z.test' })).toEqual({
      root: '/srv/pages',
      sitePairs: [['x.test', 'y.test']],
      thirdSite: 'z.test',
    });
    expect(pagesConfigFromEnv({ SITE_C: 'none' }).thirdSite).toBeNull();
    expect(() => pagesConfigFromEnv({ SITE_PAIRS: 'x.test' })).toThrow(/SITE_PAIRS/);
    for (const bad of ['https://z.test', 'z.test:8080', 'z_test'])
      expect(() => pagesConfigFromEnv({ SITE_C: bad }), bad).toThrow(/^SITE_C must be a host name/);
  });
});

describe('STUDENT_ORIGINS: the addresses printed for a class', () => {
  it('writes each as its origin, a default port left out', () => {
    expect(
      studentOriginsFromEnv({
        STUDENT_ORIGINS: 'https://lab-a.school.example:443, https://lab-b.school.example:8443/',
      }),
    ).toEqual(['https://lab-a.school.example', 'https://lab-b.school.example:8443']);
    expect(studentOriginsFromEnv({})).toEqual([]);
  });

  it.each(['lab-a.school.example', 'ftp://lab-a.school.example'])('refuses %j, naming the variable', (raw) => {
    expect(() => studentOriginsFromEnv({ STUDENT_ORIGINS: raw })).toThrow(/^STUDENT_ORIGINS: /);
  });

  it('prints one address per line, ready to copy', () => {
    expect(studentAnnouncement(['https://a.example', 'https://b.example'])).toBe(
      '\nOrigin Lab: give the class these addresses\n  https://a.example/\n  https://b.example/\n',
    );
  });
});

describe('the pages server', () => {
  const server = pagesServerFor({
    'index.html': '<!doctype html><title>x</title>',
    'site.css': 'body{}',
    'js/a.js': 'export {};',
    '.hidden.txt': 'not served',
  });

  it.each([
    ['/', /^text\/html/],
    ['/index.html', /^text\/html/],
    ['/site.css', /^text\/css/],
    ['/js/a.js', /^(text|application)\/javascript/],
    ['/site-config.js', /^text\/javascript/],
  ])('serves %s with its Content-Type, no-cache and nosniff', async (path, type) => {
    const response = await fetch(`${server.base}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(type);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers an unchanged file with 304 when revalidated', async () => {
    const first = await fetch(`${server.base}/site.css`);
    const lastModified = first.headers.get('last-modified');
    expect(lastModified).toBeTruthy();
    // Plain node:http, as a browser cache revalidates: fetch() itself would add Cache-Control: no-cache.
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${server.base}/site.css`, { headers: { 'If-Modified-Since': lastModified! } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('serves the configured pairs in /site-config.js', async () => {
    const text = await (await fetch(`${server.base}/site-config.js`)).text();
    expect(text).toContain('[["x.localhost","y.localhost"]]');
  });

  it('refuses other methods on /site-config.js with a JSON error', async () => {
    const response = await fetch(`${server.base}/site-config.js`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ error: 'method not allowed' });
  });

  it('serves a page with Permissions-Policy: unload=() when asked by ?unload-policy=none, and only then', async () => {
    const asked = await fetch(`${server.base}/index.html?unload-policy=none`);
    expect(asked.status).toBe(200);
    expect(asked.headers.get('permissions-policy')).toBe('unload=()');
    expect((await fetch(`${server.base}/index.html`)).headers.get('permissions-policy')).toBeNull();
  });

  it.each(['', 'self', 'None'])('refuses ?unload-policy=%j with a JSON error naming the parameter', async (value) => {
    const response = await fetch(`${server.base}/index.html?unload-policy=${value}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: expect.stringMatching(/^unload-policy takes one value, none/),
    });
  });

  it('answers 404 for a missing file', async () => {
    expect((await fetch(`${server.base}/nope.html`)).status).toBe(404);
  });

  it('names the methods /site-config.js takes in its 405', async () => {
    const refused = await fetch(`${server.base}/site-config.js`, { method: 'DELETE' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await refused.json()).toEqual({
      error: 'method not allowed',
      path: '/site-config.js',
      allowed: ['GET', 'HEAD', 'OPTIONS'],
    });
  });

  // The pages answer as the api does (CONTRIBUTING.md): 404 and 405 are Error objects.
  it('a path that names no page: 404 with an Error object naming the path', async () => {
    const missing = await fetch(`${server.base}/nope.html`);
    expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'application/json; charset=utf-8']);
    expect(await missing.json()).toEqual({ error: 'no such page', path: '/nope.html' });
  });

  it.each(['POST', 'PUT', 'DELETE', 'PROPFIND'])(
    '%s on a page (RFC 9110: 405 names the methods it takes, in Allow)',
    async (method) => {
      for (const path of ['/index.html', '/']) {
        const refused = await fetch(`${server.base}${path}`, { method, body: method === 'PROPFIND' ? null : 'x' });
        expect(refused.status).toBe(405);
        expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
        expect(await refused.json()).toEqual({
          error: 'method not allowed',
          path,
          allowed: ['GET', 'HEAD', 'OPTIONS'],
        });
      }
      // No page there: still 404.
      expect((await fetch(`${server.base}/nope.html`, { method })).status).toBe(404);
    },
  );

  it('OPTIONS on a page: 204 naming its methods', async () => {
    const answer = await fetch(`${server.base}/index.html`, { method: 'OPTIONS' });
    expect([answer.status, answer.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
  });

  it('a path that leaves the folder names no page, whatever the method', async () => {
    // Sent as written (fetch would resolve the dots): /etc/passwd, a file that exists, by dots
    // and by encoded slashes; and a hidden file in the folder, which koa-static does not serve.
    const up = '/%2e%2e'.repeat(8);
    for (const path of [`${up}/etc/passwd`, `/${'..%2f'.repeat(8)}etc/passwd`, '/.hidden.txt']) {
      const answer = await rawExchange(
        Number(new URL(server.base).port),
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });
});
