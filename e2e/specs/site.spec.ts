import { EVERY_ENGINE } from '../fixtures.js';
import { test, expect } from './support/server.js';
import { openPage, runExperiment } from './support/experiments.js';
import {
  PHONE_VIEWPORT,
  TOUCH_PHONE,
  controlsShorterThan,
  seriousAccessibilityProblems,
  sidewaysOverflow,
  urlCellWidths,
} from './support/phone.js';

const BUDGET_BYTES = 100 * 1024;
/**
 * The pages that hold experiments, each with a spec that gives every experiment its own test
 * (support/per-experiment.ts checks that one page's experiments and tests match; isolation.spec.ts
 * asserts every experiment at each of the isolation page's addresses).
 */
const PAGES_WITH_EXPERIMENTS = [
  '/reads.html',
  '/bodies.html',
  '/forms.html',
  '/beacons.html',
  '/events.html',
  '/outcomes.html',
  '/isolation.html',
  '/local-network.html',
  '/proxy.html',
];
/** Every page: the index, the nine demonstrations, the playground, the Explain page and the engines page. */
const PAGES = ['/', ...PAGES_WITH_EXPERIMENTS, '/playground.html', '/explain.html', '/engines.html'];

test('every page loads on both origins without errors, labels both origins, and stays under 100 KB', async ({
  page,
  origins,
  server,
}) => {
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
      await expect(page.locator('#waterfall')).toContainText('preflight');
      await expect(page.locator('#waterfall')).toContainText('EventSource');
      await expect(page.locator('#waterfall')).toContainText('sendBeacon');
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

test('the index links every topic, shows the two addresses for the room, and the strip counts loads and shows the query string', async ({
  page,
  origins,
}) => {
  await openPage(page, `${origins.self}/?from=test`);
  const links = await page.locator('#topics a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
  expect(links).toEqual(PAGES.slice(1));
  await expect(page.locator('#strip-query')).toHaveText('?from=test');
  // The two addresses for the room, this one first.
  await expect(page.locator('.room-origins li')).toHaveText([`${origins.self}/`, `${origins.other}/`]);
  const loads = Number(await page.locator('#strip-page-loads').textContent());
  await page.reload();
  await expect(page.locator('#strip-page-loads')).toHaveText(String(loads + 1));
});

test('the experiments work from the keyboard', { tag: EVERY_ENGINE }, async ({ enginePage, origins }) => {
  await enginePage.open(`${origins.self}/reads.html`);
  await enginePage.focus('#run-all');
  // The next stop after "Run all" is the first experiment's Run button.
  await enginePage.press('Tab');
  expect(
    await enginePage.evaluate(() => document.activeElement === document.querySelector('section#get-self button')),
    'focused after Tab: the first Run button',
  ).toBe(true);
  await enginePage.press('Enter');
  await enginePage.waitForVerdict('get-self', 15_000);
  expect((await enginePage.read('get-self')).state).toBe('agree');
  await expect.poll(() => enginePage.text('#strip-requests')).not.toBe('0');
  await expect.poll(() => enginePage.text('.waterfall tbody tr')).toContain('this origin');
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

test(
  'on a phone-sized screen, every page fits the width without scrolling sideways, and axe finds nothing serious',
  {
    tag: EVERY_ENGINE,
  },
  async ({ enginePage, origins }) => {
    const paths = [...PAGES, '/away.html'];
    // One page for all of them (a test per page cost a new context and load each); axe in Firefox
    // takes up to half a minute a page on a busy machine, so the budget is per page.
    test.setTimeout(paths.length * 30_000);
    await enginePage.setViewport(PHONE_VIEWPORT.width, PHONE_VIEWPORT.height);
    const findings: Record<string, unknown> = {};
    for (const path of paths) {
      if (path === '/away.html') await enginePage.navigate(`${origins.self}${path}`);
      else await enginePage.open(`${origins.self}${path}`);
      const overflow = await sidewaysOverflow(enginePage);
      const problems = await seriousAccessibilityProblems(enginePage);
      if (overflow.pixels > 0 || problems.length > 0) findings[path] = { overflow, problems };
    }
    expect(findings).toEqual({});
  },
);

test.describe('on a touch screen', () => {
  test.use(TOUCH_PHONE);

  test('every control is at least 44 px tall, and a URL keeps a column at least 8rem wide', async ({
    page,
    origins,
    browserName,
  }) => {
    // (WebKit skips it too, as every test without EVERY_ENGINE: classic WebDriver cannot emulate a touch screen.)
    test.skip(browserName === 'firefox', 'Firefox does not report a coarse pointer for an emulated touch screen');
    const short: Record<string, string[]> = {};
    for (const path of PAGES) {
      await openPage(page, `${origins.self}${path}`);
      expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), path).toBe(true);
      const controls = await controlsShorterThan(page, 44);
      if (controls.length > 0) short[path] = controls;
    }
    expect(short).toEqual({});

    // A request of the page's own puts URLs in the waterfall and in what the server saw.
    await openPage(page, `${origins.self}/reads.html`);
    await runExperiment(page, 'cors-off-fetch');
    const cells = await urlCellWidths(page, 8);
    expect(cells.widths.length).toBeGreaterThan(1);
    // Half a pixel for layout rounding.
    expect(cells.widths.filter((width) => width < cells.least - 0.5)).toEqual([]);
  });
});
