import { PlaywrightPage } from '../engines/playwright.js';
import { expect } from '../fixtures.js';
import { experimentTests } from './support/per-experiment.js';

// SPEC.md, the same-origin proxy: one expectation per experiment, written from the spec.
experimentTests({
  page: 'proxy',
  runTimeout: 60_000,
  async run(page, { origins }) {
    await page.open(`${origins.self}/proxy.html`);
    // The requests the page made: Playwright's network events; WebKit over classic WebDriver has
    // none, so there the page's own Resource Timing entries (its fetches, without the method).
    const crossOriginRequests: string[] = [];
    const elsewhere = (url: string) => new URL(url).origin !== origins.self;
    if (page instanceof PlaywrightPage)
      page.page.on('request', (request) => {
        if (elsewhere(request.url())) crossOriginRequests.push(`${request.method()} ${request.url()}`);
      });
    const results = await page.runAll(60_000);
    if (!(page instanceof PlaywrightPage))
      crossOriginRequests.push(
        ...(await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))).filter(
          elsewhere,
        ),
      );
    return { crossOriginRequests, results };
  },
  afterRun: {
    'miss-then-hit': ({ observed: hit }) => {
      expect(hit.first).toMatchObject({ status: 200, xCache: 'MISS', cacheControl: 'public, max-age=300' });
      expect(hit.second).toMatchObject({ status: 200, xCache: 'HIT' });
      expect(hit.second.upstreamCall).toBe(hit.first.upstreamCall);
      expect(hit.postsIsArray).toBe(true);
    },
    tags: ({ observed }) => expect(observed).toMatchObject({ status: 200, tagsIsArray: true }),
    'not-proxied': ({ observed }) => {
      for (const refused of Object.values(observed) as { status: number; contentType: string; text: string }[]) {
        expect(refused.status).toBe(404);
        expect(refused.contentType).toMatch(/^text\/plain/);
        expect(refused.text).toBe('Not proxied');
      }
    },
    'from-other-origin': ({ observed }) => expect(observed).toEqual({ status: 200, xCache: null, tagsIsArray: true }),
  },
  wholeRun: {
    "the proxy's calls stay on the page's origin, and the server's key never reaches the page": async ({
      origins,
      server,
      run,
    }) => {
      // The server's key never reaches the page.
      const seen = await server.get(`${origins.self}/api/upstream/tags`);
      expect(JSON.stringify(seen.headers) + seen.text).not.toMatch(/bearer/i);
      // Only the last experiment left the page's origin; the proxy calls themselves never did.
      expect(run.crossOriginRequests.length).toBeGreaterThan(0);
      expect(run.crossOriginRequests.every((line) => line.includes('/api/upstream/tags'))).toBe(true);
    },
  },
});
