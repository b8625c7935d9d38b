import { test, expect } from './support/server.js';
import { openPage, runAll } from './support/experiments.js';

test('proxy: same-origin calls, a cache hit, paths that are not proxied', async ({ page, origins, server }) => {
  const crossOriginRequests: string[] = [];
  await openPage(page, `${origins.self}/proxy.html`);
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== origins.self)
      crossOriginRequests.push(`${request.method()} ${request.url()}`);
  });
  const r = await runAll(page);

  const hit = r['miss-then-hit']!.observed;
  expect(hit.first).toMatchObject({ status: 200, xCache: 'MISS', cacheControl: 'public, max-age=300' });
  expect(hit.second).toMatchObject({ status: 200, xCache: 'HIT' });
  expect(hit.second.upstreamCall).toBe(hit.first.upstreamCall);
  expect(hit.postsIsArray).toBe(true);

  expect(r['tags']!.observed).toMatchObject({ status: 200, tagsIsArray: true });
  for (const refused of Object.values(r['not-proxied']!.observed) as {
    status: number;
    contentType: string;
    text: string;
  }[]) {
    expect(refused.status).toBe(404);
    expect(refused.contentType).toMatch(/^text\/plain/);
    expect(refused.text).toBe('Not proxied');
  }
  expect(r['from-other-origin']!.observed).toEqual({ status: 200, xCache: null, tagsIsArray: true });
  for (const [id, result] of Object.entries(r)) expect(result.state, id).toBe('agree');

  // Only the last experiment left the page's origin; the proxy calls themselves never did.
  expect(crossOriginRequests.every((line) => line.includes('/api/upstream/tags'))).toBe(true);
  // The server's key never reaches the page.
  const seen = await server.get(`${origins.self}/api/upstream/tags`);
  expect(JSON.stringify(seen.headers) + seen.text).not.toMatch(/bearer/i);
});
