import { chromiumLaunch, firefoxLaunch } from '@origin-lab/engines';
import { chromium, firefox, type Browser } from '@playwright/test';
import { PlaywrightPage } from '../engines/playwright.js';
import { test, expect, EVERY_ENGINE } from '../fixtures.js';
import { experimentTests, type Check, type PageRun } from './support/per-experiment.js';
import { openPage, runAll, type ExperimentResult } from '../engines/experiments.js';
import { PHONE, sidewaysOverflow } from './support/phone.js';
import { siteConfig } from './support/site-config.js';
import { LOCAL_NETWORK_ENGINES } from '../../services/pages/web/ts/rules/local-network-engines.js';
import { expectAsTheEnginesPageSays } from './support/engines-page-table.js';
import { expectCountedPublic, REBIND_TEST_MS, rebindTest, runRebinding, type RebindRun } from './support/rebinding.js';

/**
 * Local Network Access (the WICG's draft, as Chromium ships it since 142 and Firefox 153 has it): a
 * page the browser counts as public must be allowed by the user before a request of it leaves for
 * a loopback address; refused, the request never leaves. Not CORS, which refuses the reading of an
 * answer the server gave. The page at 127.0.0.1 calls the same server at [::1]: the embedded stack
 * is the one where a page and the server it calls sit at two loopback addresses, each a switch
 * can count as public (Chromium's --ip-address-space-overrides, Firefox's
 * network.lna.address_space.public.override), and nothing else tells the engines a page is public.
 */

type Engine = 'chromium' | 'firefox' | 'webkit';

/**
 * What each experiment should observe, in an engine, when Local Network Access lets the requests
 * go (reach: not public, or allowed) or stops them (refused by the user), and the permission's
 * state then. CORS allows the lab's first request and refuses the second. Chromium reads
 * targetAddressSpace (the WICG draft: a request that reaches another address space than it said
 * fails, public or not); Firefox and WebKit do not know the option. Refused, Chromium's frame
 * still fires load (its error page); Firefox's fires none. Firefox 153's check does not cover
 * WebSocket (it does from 154): the connection is made.
 */
function expected(engine: Engine, reach: boolean, permission: string | null, local: PrivateTarget) {
  const fetched = (arrived: boolean) => ({ outcome: arrived ? '200' : 'TypeError', arrived, permission });
  const chromium = engine === 'chromium';
  const socketOpens = reach || engine === 'firefox';
  return {
    'lna-allowed': fetched(reach),
    'lna-cors-refused': { outcome: 'TypeError', arrived: reach, permission },
    'lna-worker': fetched(reach),
    'lna-iframe': { outcome: reach || chromium ? 'load' : 'no load event', arrived: reach, permission },
    'lna-websocket': { outcome: socketOpens ? 'opened' : 'error', arrived: socketOpens, permission },
    'lna-private': local.exists
      ? { outcome: reach ? '200' : 'TypeError', arrived: reach, permission: local.permission }
      : { outcome: 'no private address', arrived: false, permission: null },
    'lna-target-address-space': fetched(reach),
    'lna-target-address-space-wrong': fetched(reach && !chromium),
  };
}

/**
 * The private address the page calls (one of this machine's, where npm start listens on all): whether
 * the stack has one (its /site-config.js says), and the local network permission's state expected.
 */
interface PrivateTarget {
  exists: boolean;
  permission: string | null;
}

async function privateTarget(origin: string, permission: string | null): Promise<PrivateTarget> {
  return { exists: (await siteConfig(origin)).privateAddress !== undefined, permission };
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
  (id: keyof ReturnType<typeof expected>): Check<PageRun> =>
  async (result, { browserName, origins }) => {
    const permission = browserName === 'webkit' ? null : 'prompt';
    const local = await privateTarget(origins.other, permission);
    expect(result.observed).toEqual(expected(browserName as Engine, true, permission, local)[id]);
    // WebKit has no Local Network Access: counted public or not, what it does is this.
    if (browserName === 'webkit' && (id !== 'lna-private' || local.exists))
      expectAsTheEnginesPageSays(LOCAL_NETWORK_ENGINES, 'webkit', id, result.observed);
  };

experimentTests({
  page: 'local-network',
  runTimeout: 60_000,
  run: async (page, { origins }) => {
    await page.open(`${origins.other}/local-network.html`);
    return { results: await page.runAll(60_000) };
  },
  afterRun: {
    'lna-allowed': notPublic('lna-allowed'),
    'lna-cors-refused': notPublic('lna-cors-refused'),
    'lna-worker': notPublic('lna-worker'),
    'lna-iframe': notPublic('lna-iframe'),
    'lna-websocket': notPublic('lna-websocket'),
    'lna-private': notPublic('lna-private'),
    'lna-target-address-space': notPublic('lna-target-address-space'),
    'lna-target-address-space-wrong': notPublic('lna-target-address-space-wrong'),
  },
  testedElsewhere: ['rebind-open', 'rebind-checked'],
});

// DNS rebinding through the lab's own resolver (the stack runs npm start -- --rebind): Chromium
// and Firefox set to ask it, as a person would in a profile of their own; WebKit cannot be. The
// three tests share one run per engine (one worker, in order): one wait on the engine's DNS cache.
test.describe(() => {
  test.describe.configure({ mode: 'default' });
  let run: Promise<RebindRun> | undefined;
  const shared = (browserName: string, origin: string) => () => (run ??= runRebinding(browserName, origin));

  test('local-network: rebind-open', { tag: EVERY_ENGINE }, async ({ enginePage, browserName, origins }) => {
    test.setTimeout(REBIND_TEST_MS);
    const results = shared(browserName, origins.other);
    await rebindTest(enginePage, browserName, origins.other, results, 'rebind-open', { outcome: 'read', status: 200 });
  });

  test('local-network: rebind-checked', { tag: EVERY_ENGINE }, async ({ enginePage, browserName, origins }) => {
    test.setTimeout(REBIND_TEST_MS);
    const results = shared(browserName, origins.other);
    await rebindTest(enginePage, browserName, origins.other, results, 'rebind-checked', {
      outcome: 'refused',
      status: 403,
      refused: 'Host',
    });
  });

  test('local network: DNS rebinding from a page counted public, Local Network Access decides', async ({
    browserName,
    origins,
  }) => {
    test.setTimeout(REBIND_TEST_MS);
    expectCountedPublic(browserName, (await shared(browserName, origins.other)()).countedPublic);
  });
});

/**
 * Chromium or Firefox told that the page's address (127.0.0.1 and its port) is public. deny: the
 * user's answer is no. Headless Chromium answers no itself when nobody grants the permission;
 * Firefox would wait for a person, so it is given the answer its settings keep for "block"
 * (permissions.default.loopback-network and local-network = 2).
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
      ...(deny && { 'permissions.default.loopback-network': 2, 'permissions.default.local-network': 2 }),
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
      await context.grantPermissions(
        browserName === 'chromium' ? ['local-network-access'] : ['loopback-network', 'local-network'],
      );
    const page = await context.newPage();
    await openPage(page, url);
    return await runAll(page, 60_000);
  } finally {
    await browser.close();
  }
}

test('local network: counted public and allowed by the user, CORS decides again', async ({ origins, browserName }) => {
  const results = await runCountedPublic(browserName, origins.other, 'allow');
  const local = await privateTarget(origins.other, 'granted');
  expectOutcomes(results, expected(browserName as Engine, true, 'granted', local));
});

test('local network: counted public and refused by the user, nothing leaves the browser', async ({
  origins,
  browserName,
}) => {
  const results = await runCountedPublic(browserName, origins.other, 'refuse');
  // Not granted: the permission says prompt (nobody was asked) or denied; both requests stopped.
  const permission = results['lna-allowed']!.observed.permission as string;
  expect(['prompt', 'denied']).toContain(permission);
  // Chromium's local network permission says denied; Firefox's, refused by its default, prompt.
  const local = await privateTarget(origins.other, browserName === 'chromium' ? 'denied' : 'prompt');
  expectOutcomes(results, expected(browserName as Engine, false, permission, local));
  for (const [id, result] of Object.entries(results))
    if (id !== 'lna-private' || local.exists)
      expectAsTheEnginesPageSays(LOCAL_NETWORK_ENGINES, browserName as Engine, id, result.observed);
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
    browserName,
    origins,
  }) => {
    const context = await browser.newContext(PHONE);
    try {
      const phone = await PlaywrightPage.inContext(context, 'phone');
      const { page } = phone;
      await openPage(page, `${origins[which]}/local-network.html`);
      const results = await runAll(page, 60_000);
      expect(results['lna-cors-refused']!.observed).toMatchObject({ outcome: 'TypeError', arrived: true });
      const view = page.locator('#server-view');
      const row = (hasText: RegExp) => view.locator('table.server-view tbody tr', { hasText });
      // The first experiment's request (the others' marks name their kind).
      await expect(row(/\/lab\/cors\?mark=lna-(?!worker|iframe|space|private)/)).toContainText('yes');
      // The worker's fetch is not the page's: the page's own record of its reads does not hold it.
      await expect(row(/mark=lna-worker-/)).toContainText('no: not through fetch or XHR');
      await expect(row(/allow-origin=none/)).toContainText('no: the browser refused the read');
      const why = view.locator('.why > li', { hasText: 'allow-origin=none' });
      await expect(why).toContainText('The handler ran (status 200)');
      await expect(why).not.toHaveAttribute('data-rule', 'not-reached');
      // What never reached the server: in Chromium, only the request that said the wrong address
      // space. The page is on loopback, so nothing was asked: Local Network Access is named as one
      // cause among others, not as the cause.
      const notReached = view.locator('.why > li[data-rule="not-reached"]');
      await expect(notReached).toHaveCount(browserName === 'chromium' ? 1 : 0);
      if (browserName === 'chromium') await expect(notReached).toContainText('lna-space-local');
      await expect(view.locator('.why > li[data-rule="local-network"]')).toHaveCount(0);
      const overflow = await sidewaysOverflow(phone);
      expect(overflow.pixels, `sticking out: ${overflow.widest.join(', ')}`).toBe(0);
    } finally {
      await context.close();
    }
  });
