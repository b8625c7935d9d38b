import { test, expect } from '../fixtures.js';

// A class on a LAN without a certificate (docs/classroom.md): plain HTTP under two names that are
// not localhost. The rest of the suite shows every experiment still agrees there; these show what
// the pages lose, as the guide says. On the lan stack only (coverage.ts).

test('on both names the pages are not a secure context and come over HTTP/1.1', async ({ page, origins }) => {
  for (const origin of [origins.self, origins.other]) {
    await page.goto(`${origin}/`);
    const seen = await page.evaluate(() => ({
      secure: window.isSecureContext,
      protocol: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
    }));
    expect(seen, origin).toEqual({ secure: false, protocol: 'http/1.1' });
  }
});

test('a Secure cookie cannot be set from these pages; the same cookie without Secure can', async ({
  page,
  origins,
}) => {
  await page.goto(`${origins.self}/`);
  const cookies = await page.evaluate(() => {
    document.cookie = 'lan-secure=1; Secure; SameSite=None; Path=/';
    document.cookie = 'lan-plain=1; SameSite=Lax; Path=/';
    return document.cookie;
  });
  expect(cookies).toContain('lan-plain=1');
  expect(cookies).not.toContain('lan-secure');
});

test('the two names are two sites: a SameSite=Lax cookie of one stays home on a fetch from the other', async ({
  page,
  origins,
}) => {
  // Set on the first name and seen by its own echo; then asked for by a credentialed fetch from
  // a page on the second name, which a same-site pair would send it with.
  await page.goto(`${origins.self}/`);
  const atHome = await page.evaluate(async () => {
    document.cookie = 'lan-site=1; SameSite=Lax; Path=/';
    const answer = await fetch('/api/echo');
    return ((await answer.json()) as { headers: Record<string, string> }).headers['cookie'] ?? '';
  });
  expect(atHome).toContain('lan-site=1');
  await page.goto(`${origins.other}/`);
  const fromOther = await page.evaluate(async (self) => {
    const answer = await fetch(`${self}/api/echo?cors=credentials`, { credentials: 'include' });
    return answer.ok ? ((await answer.json()) as { headers: Record<string, string> }).headers : null;
  }, origins.self);
  expect(fromOther, 'the credentialed echo is readable from the other name').not.toBeNull();
  expect(fromOther!['cookie'] ?? '').not.toContain('lan-site=1');
});
