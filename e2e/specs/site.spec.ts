import { test, expect } from './support/server.js';
import { openPage } from '../engines/experiments.js';
import { PAGES, PAGES_WITH_EXPERIMENTS, PAGES_WITHOUT_REQUESTS } from './support/pages.js';

const BUDGET_BYTES = 100 * 1024;
/**
 * What one page's load and checks may take: the test loads every page on both origins, which took
 * 60 s in Firefox beside two other workers (a clean clone), the whole of Playwright's default.
 */
const PAGE_MS = 8_000;

test('every page loads on both origins without errors, labels both origins, and stays under 100 KB', async ({
  page,
  origins,
  server,
}) => {
  test.setTimeout(2 * PAGES.length * PAGE_MS);
  const errors: string[] = [];
  const withExperiments = new Set<string>();
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  for (const [self, other] of [
    [origins.self, origins.other],
    [origins.other, origins.self],
  ] as const) {
    for (const path of PAGES) {
      // Every file the page asked for, measured afresh: the browser's own copies may be revalidated (304, no body).
      const files = new Set<string>();
      const onRequest = (request: import('@playwright/test').Request) => {
        const url = new URL(request.url());
        // The page's own files: not the api's answers, nor the journal the page reads (/lab/).
        if (url.origin === self && !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/lab/'))
          files.add(url.href);
      };
      page.on('request', onRequest);
      await openPage(page, `${self}${path}`);
      await expect(page.locator('#origin-other')).toHaveText(other);
      await expect(page.locator('#other-link')).toHaveAttribute('href', `${other}${path}`);
      await expect(page.locator('#strip-built')).toHaveText(/^\d{4}-\d{2}-\d{2}T/);
      if (PAGES_WITHOUT_REQUESTS.includes(path)) {
        // Nothing to list: no empty waterfall, no empty "What the server saw".
        await expect(page.locator('#waterfall, #server-view')).toHaveCount(0);
      } else {
        await expect(page.locator('#waterfall')).toContainText('preflight');
        await expect(page.locator('#waterfall')).toContainText('EventSource');
        await expect(page.locator('#waterfall')).toContainText('sendBeacon');
        await expect(page.locator('#server-view')).toContainText('What the server saw');
      }
      page.off('request', onRequest);
      if ((await page.locator('section.experiment').count()) > 0) withExperiments.add(path);
      let total = 0;
      for (const url of files) total += (await server.get(url)).body.length;
      expect(files.size, path).toBeGreaterThan(3);
      expect(total, `${path}: ${total} bytes of HTML, JS and CSS`).toBeLessThan(BUDGET_BYTES);
    }
  }
  expect(errors).toEqual([]);
  expect([...withExperiments], 'pages with experiments: each needs a per-experiment spec').toEqual(
    PAGES_WITH_EXPERIMENTS,
  );
});

test('pages are served with their Content-Types and revalidated, never stale', async ({ server, origins }) => {
  for (const [path, type] of [
    ['/reads.html', /^text\/html/],
    ['/site.css', /^text\/css/],
    ['/js/pages/reads.js', /^(text|application)\/javascript/],
    ['/site-config.js', /^text\/javascript/],
  ] as const) {
    const response = await server.get(`${origins.self}${path}`);
    expect(response.status, path).toBe(200);
    expect(response.headers['content-type'], path).toMatch(type);
    expect(response.headers['cache-control'], path).toBe('no-cache');
  }
});
