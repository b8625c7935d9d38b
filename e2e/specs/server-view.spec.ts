import { test, expect } from './support/server.js';
import { openPage } from '../engines/experiments.js';

/** Runs a request from the page's own script; resolves to its outcome, never rejects. */
function fromPage(page: import('@playwright/test').Page, url: string, init: RequestInit = {}) {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        return { status: response.status, error: null };
      } catch (err) {
        return { status: null, error: (err as Error).name };
      }
    },
    { url, init },
  );
}

test('what the server saw: a refused read was handled, and the page says why', async ({ page, origins }) => {
  await openPage(page, `${origins.self}/reads.html`);
  const view = page.locator('#server-view');
  await expect(view.getByRole('heading', { name: 'What the server saw' })).toBeVisible();

  // cors=off: the page cannot read it, yet the server handled it with 200.
  expect(await fromPage(page, `${origins.other}/api/posts?cors=off`)).toEqual({ status: null, error: 'TypeError' });
  const row = view.locator('table.server-view tbody tr', { hasText: '/api/posts?cors=off' });
  await expect(row).toContainText('200');
  await expect(row).toContainText('no CORS headers');
  // The page's own script made it, yet the page got nothing it could read: not seen (docs/decisions.md).
  await expect(row).toContainText('no: the browser refused the read');
  await expect(row).toHaveClass(/\bunseen\b/);
  await expect(view.locator('.why li[data-rule="no-cors-headers"]')).toContainText('no Access-Control-Allow-Origin');
  await expect(view.locator('.why li[data-rule="no-cors-headers"]')).toContainText('The handler ran (status 200)');

  // A JSON POST: its preflight shows, sent by the browser, not by the page's script.
  expect(
    await fromPage(page, `${origins.other}/api/echo?n=json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
    }),
  ).toEqual({ status: 200, error: null });
  await expect(view.locator('table.server-view tbody tr', { hasText: 'OPTIONS' }).first()).toContainText(
    'no: preflight',
  );

  // A header outside the allowed list: the preflight passes, the request never comes, the header is named.
  expect(await fromPage(page, `${origins.other}/api/echo?n=header`, { headers: { 'X-Not-Listed': '1' } })).toEqual({
    status: null,
    error: 'TypeError',
  });
  const headerWhy = view.locator('.why li[data-rule="header-not-allowed"]');
  await expect(headerWhy).toContainText('x-not-listed');
  // The fix, and the same refusal in the playground, as it is and fixed: the first refused, the second read.
  await expect(headerWhy.locator('.fix')).toContainText('The fix: ');
  const links = {
    refused: await headerWhy.locator('a.refused-case').getAttribute('href'),
    fixed: await headerWhy.locator('a.fixed-case').getAttribute('href'),
  };
  expect(links.refused).toBe('/playground.html#headers=x-not-listed%3A+1');
  for (const [which, href] of Object.entries(links)) {
    // Each in a page of its own, as a learner following the link would open it.
    const playground = await page.context().newPage();
    await openPage(playground, `${origins.self}${href}`);
    await playground.locator('#send').click();
    await expect(playground.locator('#agreement')).not.toHaveAttribute('data-state', 'idle');
    const observed = JSON.parse((await playground.locator('#agreement').getAttribute('data-observed'))!) as {
      observed: { readable: boolean };
      rule: string;
    };
    expect(observed, `${which}: ${href}`).toMatchObject(
      which === 'refused'
        ? { observed: { readable: false }, rule: 'header-not-allowed' }
        : { observed: { readable: true } },
    );
    await playground.close();
  }

  // The drawn timeline holds the page's requests and the server's entries together.
  await expect(view.locator('svg.timeline rect.page').first()).toBeVisible();
  await expect(view.locator('svg.timeline rect.server').first()).toBeVisible();
});

test('a second visitor sees none of the first one’s entries', async ({ page, browser, origins }) => {
  await openPage(page, `${origins.self}/reads.html`);
  await fromPage(page, `${origins.self}/api/posts?n=first-visitor`);
  await expect(page.locator('#server-view table.server-view tbody tr', { hasText: 'first-visitor' })).toHaveCount(1);

  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await openPage(second, `${origins.self}/reads.html`);
    await fromPage(second, `${origins.self}/api/posts?n=second-visitor`);
    await expect(second.locator('#server-view table.server-view tbody tr', { hasText: 'second-visitor' })).toHaveCount(
      1,
    );
    await expect(second.locator('#server-view table.server-view tbody tr', { hasText: 'first-visitor' })).toHaveCount(
      0,
    );
  } finally {
    await other.close();
  }
});
