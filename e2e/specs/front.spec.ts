import { test, expect } from '../fixtures.js';
import { plainOrigins } from '../stacks/tls-front.js';

// What only the real front shows: Caddy with TLS and HTTP/2 on two host names. The plain-HTTP
// stacks (embedded, lan) cannot show any of it: these run on caddy and compose (coverage.ts).

declare global {
  interface Window {
    labStreams: { source: EventSource; opened: boolean; ticks: number }[];
  }
}

test('both names speak HTTP/2 over TLS; the plain-HTTP twins speak HTTP/1.1', async ({ page, origins, stackName }) => {
  for (const origin of [origins.self, origins.other]) {
    await page.goto(`${origin}/`);
    const protocols = await page.evaluate(async () => {
      const response = await fetch('/api/posts');
      await response.arrayBuffer();
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const api = performance
        .getEntriesByType('resource')
        // The page adds its visitor token to the URL (?visitor=...).
        .find((entry) => new URL(entry.name).pathname === '/api/posts') as PerformanceResourceTiming;
      return { page: navigation.nextHopProtocol, api: api.nextHopProtocol, status: response.status };
    });
    expect(protocols, origin).toEqual({ page: 'h2', api: 'h2', status: 200 });
  }
  await page.goto(`${plainOrigins(stackName)[0]}/`);
  expect(
    await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
    ),
  ).toBe('http/1.1');
});

/** Opens count EventSources to this page's own /api/stream, each long enough to hold its connection. */
async function openStreams(page: import('@playwright/test').Page, count: number): Promise<void> {
  await page.evaluate((count) => {
    window.labStreams = Array.from({ length: count }, (_, index) => {
      const entry = { source: new EventSource(`/api/stream?count=60&stream=${index}`), opened: false, ticks: 0 };
      entry.source.addEventListener('open', () => (entry.opened = true));
      entry.source.addEventListener('tick', () => (entry.ticks += 1));
      return entry;
    });
  }, count);
}

const openCount = (page: import('@playwright/test').Page) =>
  page.evaluate(() => window.labStreams.filter((entry) => entry.opened).length);

test('ten EventSources on one origin: HTTP/1.1 stalls at six, HTTP/2 opens all ten', async ({
  page,
  origins,
  stackName,
}) => {
  // HTTP/1.1 (the plain-HTTP twin of the same Caddy): six connections per origin, one stream each.
  await page.goto(`${plainOrigins(stackName)[0]}/`);
  await openStreams(page, 10);
  await expect.poll(() => openCount(page), { timeout: 20_000 }).toBe(6);
  // A stall, not a slow start: the six have streamed for a while (three ticks, about two seconds)
  // and the other four are still connecting, with nothing received.
  await expect
    .poll(
      () =>
        page.evaluate(() => Math.min(...window.labStreams.filter((entry) => entry.opened).map((entry) => entry.ticks))),
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(3);
  expect(
    await page.evaluate(() =>
      window.labStreams.filter((entry) => !entry.opened).map((entry) => [entry.source.readyState, entry.ticks]),
    ),
  ).toEqual([
    [0, 0],
    [0, 0],
    [0, 0],
    [0, 0],
  ]);
  // Closing the six frees their connections, and the queued four open.
  await page.evaluate(() => window.labStreams.filter((entry) => entry.opened).forEach((entry) => entry.source.close()));
  await expect
    .poll(() => page.evaluate(() => window.labStreams.filter((entry) => entry.source.readyState === 1).length), {
      timeout: 20_000,
    })
    .toBe(4);
  await page.evaluate(() => window.labStreams.forEach((entry) => entry.source.close()));

  // HTTP/2: one connection carries every stream.
  await page.goto(`${origins.self}/`);
  await openStreams(page, 10);
  await expect.poll(() => openCount(page), { timeout: 20_000 }).toBe(10);
  await page.evaluate(() => window.labStreams.forEach((entry) => entry.source.close()));
});

test("Secure cookies over HTTPS: credentials: 'include' carries them cross-origin only with the server's consent", async ({
  page,
  origins,
  browserName,
}) => {
  // A Secure cookie on the page's own origin rides with its same-origin requests.
  await page.goto(`${origins.self}/`);
  const firstParty = await page.evaluate(async () => {
    document.cookie = 'lab_first=1; Secure; SameSite=Lax; Path=/';
    const echo = await (await fetch('/api/echo')).json();
    return { stored: document.cookie, sent: echo.headers.cookie ?? null };
  });
  expect(firstParty).toEqual({ stored: 'lab_first=1', sent: 'lab_first=1' });

  // The other origin, embedded in this page, sets its cookies from a frame.
  await page.evaluate(async (other) => {
    const frame = document.createElement('iframe');
    frame.src = `${other}/`;
    await new Promise((resolve) => {
      frame.onload = resolve;
      document.body.append(frame);
    });
  }, origins.other);
  const frame = page.frames().find((candidate) => candidate.url().startsWith(origins.other));
  if (!frame) throw new Error('the frame of the other origin did not load');
  await frame.evaluate(() => {
    document.cookie = 'lab_partitioned=1; Secure; SameSite=None; Partitioned; Path=/';
    document.cookie = 'lab_none=1; Secure; SameSite=None; Path=/';
    document.cookie = 'lab_default=1; Path=/';
  });

  const outcomes = await page.evaluate(async (other) => {
    const cookieSent = async (init: RequestInit, query = '') => {
      try {
        const echo = await (await fetch(`${other}/api/echo${query}`, init)).json();
        return echo.headers.cookie ?? null;
      } catch (err) {
        return (err as Error).name;
      }
    };
    return {
      // Default credentials mode (same-origin): no cookie goes cross-origin.
      omitted: await cookieSent({}),
      // Cookies sent, but without Access-Control-Allow-Credentials the browser blocks the read.
      withoutConsent: await cookieSent({ credentials: 'include' }),
      // ?cors=credentials makes the api add Access-Control-Allow-Credentials: true.
      withConsent: await cookieSent({ credentials: 'include' }, '?cors=credentials'),
    };
  }, origins.other);
  expect(outcomes.omitted).toBeNull();
  expect(outcomes.withoutConsent).toBe('TypeError');
  // a.localhost and b.localhost are different sites, so these are third-party cookies, and the
  // engines differ: this Chromium keeps only the partitioned (CHIPS) cookie a third party sets;
  // Firefox keeps all three in the jar of the top-level site (Total Cookie Protection), with no
  // SameSite=Lax default.
  const expected = browserName === 'firefox' ? 'lab_partitioned=1; lab_none=1; lab_default=1' : 'lab_partitioned=1';
  expect(outcomes.withConsent).toBe(expected);
});
