import { describe, expect, it } from 'vitest';
import { pagesServerFor } from './pages-server.js';

// The sign-in page as an app with each opener policy it may send, written out from HTML's values.
describe('the sign-in page: three addresses, each with the opener policy of its app', () => {
  const server = pagesServerFor({ 'sign-in.html': '<!doctype html><title>sign-in</title>' });

  it.each([
    ['/sign-in.html', null],
    ['/sign-in-coop-same-origin-allow-popups.html', 'same-origin-allow-popups'],
    ['/sign-in-coop-same-origin.html', 'same-origin'],
  ])('%s: the page, with COOP %s', async (path, coop) => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await fetch(`${server.base}${path}`, { method });
      expect(answer.status, method).toBe(200);
      expect(answer.headers.get('cross-origin-opener-policy')).toBe(coop);
      if (method === 'GET') expect(await answer.text()).toContain('<title>sign-in</title>');
    }
  });

  it('takes no policy from the query, and knows no other policy’s address', async () => {
    const asked = await fetch(`${server.base}/sign-in.html?coop=same-origin`);
    expect(asked.headers.get('cross-origin-opener-policy')).toBeNull();
    expect((await fetch(`${server.base}/sign-in-coop-unsafe-none.html`)).status).toBe(404);
  });
});
