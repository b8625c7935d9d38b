import { describe, expect, it } from 'vitest';
import { pagesServerFor } from './pages-server.js';

// Each address of the isolation page and its headers, written out from the page's lesson (HTML's
// COOP and COEP values), not read from the server's table.
describe('the isolation page: three addresses, each with its own headers', () => {
  const server = pagesServerFor({ 'isolation.html': '<!doctype html><title>isolation</title>' });

  it.each([
    ['/isolation.html', null, null],
    ['/isolation-require-corp.html', 'same-origin', 'require-corp'],
    ['/isolation-credentialless.html', 'same-origin', 'credentialless'],
  ])('%s: the page, with COOP %s and COEP %s', async (path, coop, coep) => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await fetch(`${server.base}${path}`, { method });
      expect(answer.status, method).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.headers.get('cross-origin-opener-policy')).toBe(coop);
      expect(answer.headers.get('cross-origin-embedder-policy')).toBe(coep);
      if (method === 'GET') expect(await answer.text()).toContain('<title>isolation</title>');
    }
  });

  it('takes no header from the query', async () => {
    const answer = await fetch(
      `${server.base}/isolation.html?coep=require-corp&Cross-Origin-Embedder-Policy=require-corp`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cross-origin-embedder-policy')).toBeNull();
  });

  it.each([
    ['/isolation/image.svg', null],
    ['/isolation/image-corp.svg', 'cross-origin'],
  ])('%s: an SVG image, CORP %s', async (path, corp) => {
    const answer = await fetch(`${server.base}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/svg+xml');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe(corp);
    expect(await answer.text()).toMatch(/^<svg /);
  });

  it('knows no other address under it', async () => {
    for (const path of ['/isolation-unsafe-none.html', '/isolation/other.svg', '/isolation/'])
      expect((await fetch(`${server.base}${path}`)).status, path).toBe(404);
  });
});
