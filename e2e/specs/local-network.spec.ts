import { chromiumLaunch, firefoxLaunch } from '@origin-lab/engines';
import { chromium, firefox, type Browser } from '@playwright/test';
import { PlaywrightPage } from '../engines/playwright.js';
import { test, expect } from '../fixtures.js';
import { experimentTests, type Check, type PageRun } from './support/per-experiment.js';
import { openPage, runAll, type ExperimentResult } from '../engines/experiments.js';
import { PHONE, sidewaysOverflow } from './support/phone.js';

/**
 * Local Network Access (the WICG's draft, as Chromium ships it since 142 and Firefox 153 has it): a
 * page the browser counts as public must be allowed by the user before a request of it leaves for
 * a loopback address; refused, the request never leaves. Not CORS, which refuses the reading of an
 * answer the server gave. The page at 127.0.0.1 calls the same server at [::1]: the embedded stack
 * is the one where a page and the server it calls sit at two loopback addresses, each a switch
 * can count as public (Chromium's --ip-address-space-overrides, Firefox's
 * network.lna.address_space.public.override), and nothing else tells the engines a page is public.
 */

/** What each experiment should observe: CORS allows the first request, refuses the second. */
function expected(read: boolean, arrived: boolean, permission: string | null) {
  return {
    'lna-allowed': { outcome: read ? '200' : 'TypeError', arrived, permission },
    'lna-cors-refused': { outcome: 'TypeError', arrived, permission },
  };
}

function expectOutcomes(results: Record<string, ExperimentResult>, wanted: Record<string, object>): void {
  expect(Object.keys(results).sort()).toEqual(Object.keys(wanted).sort());
  for (const [id, outcome] of Object.entries(wanted)) {
    expect(results[id]!.observed, id).toEqual(outcome);
    expect(results[id]!.state, id).toBe('agree');
  }
}

// The embedded stack serves the page and the server at two loopback addresses; no other does
// (coverage.ts runs this spec there only). A page on this machine is not public, so CORS alone
// decides, in every engine. Chromium and Firefox know the loopback permission, not asked yet;
// WebKit knows none.
const notPublic =
  (id: 'lna-allowed' | 'lna-cors-refused'): Check<PageRun> =>
  (result, { browserName }) =>
    expect(result.observed).toEqual(expected(true, true, browserName === 'webkit' ? null : 'prompt')[id]);

experimentTests({
  page: 'local-network',
  runTimeout: 30_000,
  run: async (page, { origins }) => {
    await page.open(`${origins.other}/local-network.html`);
    return { results: await page.runAll(30_000) };
  },
  afterRun: { 'lna-allowed': notPublic('lna-allowed'), 'lna-cors-refused': notPublic('lna-cors-refused') },
});

/**
 * Chromium or Firefox told that the page's address (127.0.0.1 and its port) is public. deny: the
 * user's answer is no. Headless Chromium answers no itself when nobody grants the permission;
 * Firefox would wait for a person, so it is given the answer its settings keep for "block"
 * (permissions.default.loopback-network = 2).
 */
async function launchCountingPublic(browserName: string, page: string, deny: boolean): Promise<Browser> {
  const address = new URL(page).host;
  if (browserName === 'chromium') {
    const options = chromiumLaunch();
    options.args = [...(options.args ?? []), `--ip-address-space-overrides=${address}=public`];
    return chromium.launch(options);
  }
  return firefox.launch(
    firefoxLaunch([], [], {
      'network.lna.address_space.public.override': address,
      ...(deny && { 'permissions.default.loopback-network': 2 }),
    }),
  );
}

/** The page (served from origin) in Chromium or Firefox counted public, the user's answer given: every experiment's result. */
async function runCountedPublic(browserName: string, origin: string, answer: 'allow' | 'refuse') {
  const url = `${origin}/local-network.html`;
  const browser = await launchCountingPublic(browserName, url, answer === 'refuse');
  try {
    const context = await browser.newContext();
    if (answer === 'allow')
      await context.grantPermissions([browserName === 'chromium' ? 'local-network-access' : 'loopback-network']);
    const page = await context.newPage();
    await openPage(page, url);
    return await runAll(page, 30_000);
  } finally {
    await browser.close();
  }
}

test('local network: counted public and allowed by the user, CORS decides again', async ({ origins, browserName }) => {
  const results = await runCountedPublic(browserName, origins.other, 'allow');
  expectOutcomes(results, expected(true, true, 'granted'));
});

test('local network: counted public and refused by the user, nothing leaves the browser', async ({
  origins,
  browserName,
}) => {
  const results = await runCountedPublic(browserName, origins.other, 'refuse');
  // Not granted: the permission says prompt (nobody was asked) or denied; both requests stopped.
  const permission = results['lna-allowed']!.observed.permission as string;
  expect(['prompt', 'denied']).toContain(permission);
  expectOutcomes(results, expected(false, false, permission));
});

/**
 * "What the server saw" says of each request what the experiments say: both arrived and were
 * answered 200, the first read by the page, the second's reading refused by CORS. At localhost the
 * other loopback address (127.0.0.1) is the other origin; at 127.0.0.1 it is [::1], an origin the
 * page tags itself. On a phone, the Why's request line breaks rather than widening the page.
 */
for (const which of ['self', 'other'] as const)
  test(`local network: the server view agrees with the experiments (page at the ${which} origin)`, async ({
    browser,
    origins,
  }) => {
    const context = await browser.newContext(PHONE);
    try {
      const phone = await PlaywrightPage.inContext(context, 'phone');
      const { page } = phone;
      await openPage(page, `${origins[which]}/local-network.html`);
      const results = await runAll(page, 30_000);
      expect(results['lna-cors-refused']!.observed).toMatchObject({ outcome: 'TypeError', arrived: true });
      const view = page.locator('#server-view');
      const row = (hasText: RegExp) => view.locator('table.server-view tbody tr', { hasText });
      await expect(row(/\/lab\/cors\?mark=/)).toContainText('yes');
      await expect(row(/allow-origin=none/)).toContainText('no: the browser refused the read');
      const why = view.locator('.why > li', { hasText: 'allow-origin=none' });
      await expect(why).toContainText('The handler ran (status 200)');
      await expect(why).not.toHaveAttribute('data-rule', 'not-reached');
      await expect(view.locator('.why > li[data-rule="not-reached"]')).toHaveCount(0);
      const overflow = await sidewaysOverflow(phone);
      expect(overflow.pixels, `sticking out: ${overflow.widest.join(', ')}`).toBe(0);
    } finally {
      await context.close();
    }
  });
