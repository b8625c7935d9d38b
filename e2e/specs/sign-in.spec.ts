import { readConsoleMessage } from '@origin-lab/cors-rules/explain';
import { firefox } from '@playwright/test';
import type { EnginePage } from '../engines/engine.js';
import { openEnginePage } from '../engines/open.js';
import { firefoxAllowingStorageAccess, PlaywrightPage } from '../engines/playwright.js';
import { browserSettings } from '../stacks/stack.js';
import { EVERY_ENGINE, expect, test } from '../fixtures.js';
import { SIGN_IN_ENGINES } from '../../services/pages/web/ts/rules/sign-in-engines.js';
import type { SawRow } from '../../services/pages/web/ts/sign-in/server-saw.js';
import { expectAsTheEnginesPageSays } from './support/engines-page-table.js';
import { experimentTests, type Check, type PageRun } from './support/per-experiment.js';

/**
 * Signing in with the lab's identity provider on the third name (c.localhost: another site than
 * localhost and 127.0.0.1), each experiment from the page's own click, since each opens a popup.
 * Expectations from HTML (Cross-Origin-Opener-Policy: a page whose policy and origin differ from
 * its opener's starts a new browsing context group, cutting window.opener; report-only cuts
 * nothing), from RFC 6265bis (SameSite: Lax goes with a cross-site top-level GET, never a POST;
 * Strict never cross-site; None always), from Fetch (a credentialed read needs the origin named,
 * never *) and from each engine's third-party cookie policy: Firefox partitions another site's
 * cookie by top-level site (Total Cookie Protection, on by default), so a cookie set in the
 * provider's own window is not sent from the app's page; Safari blocks them. Chromium's fresh
 * profile here blocks them too (measured: DevTools names the reason "UserPreferences", the
 * third-party cookie setting). Engine differences, measured and listed on the page
 * (rules/sign-in-differences.ts): Chromium sends the Strict cookie on a redirect back that came
 * through the provider; Firefox 153 does not know noopener-allow-popups; WebKit never sends back
 * the Secure cookie an http://localhost page set.
 */
const observed =
  (expected: Record<string, unknown>): Check<PageRun> =>
  (result) =>
    expect(result.observed).toEqual(expected);

const answered = observed({ message: true, closedBeforeAnswer: false });
const cutOff = observed({ message: false, closedBeforeAnswer: true });

const IDS = [
  'popup-coop-unsafe-none',
  'popup-coop-same-origin',
  'popup-coop-same-origin-allow-popups',
  'popup-coop-noopener-allow-popups',
  'popup-coop-report-only',
  'redirect-query',
  'redirect-form-post',
  'token-credentialed',
  'token-wildcard',
  'frame-third-party-cookie',
  'frame-partitioned-cookie',
  'frame-partitioned-elsewhere',
];

/** The provider's cookie did not go with the call from the app's page: 401, in every engine here. */
const WITHOUT_COOKIE = { outcome: '401', signedIn: false };

/** As the spec says, except where an engine is listed as known to differ. */
const unless =
  (engines: Record<string, Record<string, unknown>>, expected: Record<string, unknown>): Check<PageRun> =>
  (result, { browserName }) =>
    expect(result.observed).toEqual(engines[browserName] ?? expected);

/** An outcome in the words of the engines page's table: a popup answered or cut off, the cookies that came, a status. */
function tableWord(observed: Record<string, unknown>): unknown {
  if ('message' in observed)
    return observed.message ? 'answered' : observed.closedBeforeAnswer ? 'cut off' : 'no answer';
  if ('cookies' in observed) return (observed.cookies as string[]).join(', ') || 'none';
  if ('access' in observed) return `${observed.access as string}, ${observed.token as string}`;
  if ('storageAccess' in observed) return observed.session || observed.partitioned ? 'sent' : 'not sent';
  return observed.outcome;
}

/**
 * What the page said of a refusal names its rule and the fix: a popup cut off, the opener policy
 * that did it; each of the app's cookies that stayed behind, its SameSite value (with a fix where
 * SameSite decided); a cookie that did not go to the provider, the way around the third-party
 * cookie policy; a credentialed read of *, the headers it needs.
 */
function expectWhySaid(id: string, observed: Record<string, any>, said: string): void {
  if (observed.closedBeforeAnswer) {
    const coop = id.replace('popup-coop-', '');
    expect(said, id).toContain(
      coop === 'report-only' ? 'Cross-Origin-Opener-Policy-Report-Only' : `Cross-Origin-Opener-Policy: ${coop}`,
    );
    expect(said, id).toMatch(/Fix: .*(same-origin-allow-popups|redirect)/);
  }
  if (Array.isArray(observed.cookies))
    for (const [name, sameSite] of [
      ['app_lax', 'Lax'],
      ['app_strict', 'Strict'],
      ['app_none', 'None; Secure'],
    ] as const)
      if (!observed.cookies.includes(name)) {
        expect(said, `${id}: ${name}`).toContain(`${name} (SameSite=${sameSite}) stayed behind`);
        const sameSiteDecided = sameSite === 'Strict' || (sameSite === 'Lax' && observed.method === 'POST');
        if (sameSiteDecided)
          expect(said, `${id}: ${name}`).toMatch(new RegExp(`${name} \\(SameSite=${sameSite}\\)[^.]*\\.[^.]*Fix: `));
      }
  if (observed.outcome === '401') expect(said, id).toMatch(/Fix: .*Storage Access API/);
  if (observed.outcome === 'TypeError') expect(said, id).toMatch(/Fix: .*Access-Control-Allow-Credentials: true/);
  if (observed.session === false && id === 'frame-third-party-cookie')
    expect(said, id).toMatch(/Fix: .*requestStorageAccess\(\)/);
}

/** The requests each experiment sends the provider (or the app's callback), as the fetch metadata names them. */
const AUTHORIZE = { request: 'GET /lab/idp/authorize', mode: 'navigate', dest: 'document' };
const FRAME = { request: 'GET /lab/idp/frame', mode: 'navigate', dest: 'iframe' };
const TOKEN = { request: 'POST /lab/idp/token', mode: 'cors', dest: 'empty' };
const callback = (method: string) => ({ request: `${method} /lab/idp-callback`, mode: 'navigate', dest: 'document' });
const REQUESTS: Record<string, object[]> = {
  ...Object.fromEntries(IDS.filter((id) => id.startsWith('popup-')).map((id) => [id, [AUTHORIZE]])),
  'redirect-query': [AUTHORIZE, callback('GET')],
  'redirect-form-post': [AUTHORIZE, callback('POST')],
  'token-credentialed': [AUTHORIZE, TOKEN],
  'token-wildcard': [AUTHORIZE, TOKEN],
  'frame-third-party-cookie': [AUTHORIZE, FRAME],
  'frame-partitioned-cookie': [FRAME, FRAME],
  // The frame on the other site files under that page's visitor, not this one's.
  'frame-partitioned-elsewhere': [FRAME],
};

/**
 * Sec-Fetch-Storage-Access (Storage Access Headers): on a cross-site request with credentials
 * from a context without storage access, "none", where the engine sends it: Chromium since 133,
 * Firefox since 147; WebKit has not implemented it.
 */
const STORAGE_ACCESS: Record<string, string | null> = { chromium: 'none', firefox: 'none', webkit: null };

const PROVIDER_COOKIES = ['idp_session', 'idp_chips'];
const APP_COOKIE_NAMES = ['app_lax', 'app_none', 'app_strict'];
const named = (row: SawRow | undefined, names: readonly string[]) =>
  (row?.cookies ?? []).filter((name) => names.includes(name)).sort();

/**
 * What the server saw, as the page's table shows it (the visitor's journal): each request of the
 * experiment, every one cross-site (Fetch Metadata: a popup's, a frame's or a fetch's request to
 * the provider's site, and the way back to the app through it); the storage access status where
 * a frame or a fetch asks with credentials; and the cookies the server got are those the page
 * says came.
 */
function expectServerSaw(id: string, observed: Record<string, any>, rows: SawRow[] | undefined, engine: string) {
  expect(
    rows?.map(({ request, mode, dest }) => ({ request, mode, dest })),
    `${id}: requests`,
  ).toEqual(REQUESTS[id]);
  for (const row of rows!) {
    expect(row.site, `${id}: ${row.request}: Sec-Fetch-Site`).toBe('cross-site');
    if (row.dest === 'iframe' || row.mode === 'cors')
      expect(row.storageAccess, `${id}: ${row.request}: Sec-Fetch-Storage-Access`).toBe(STORAGE_ACCESS[engine]);
  }
  const last = rows!.at(-1);
  // The frame that told the page is on the other site's page there, filed under its own visitor.
  if (last?.dest === 'iframe' && id !== 'frame-partitioned-elsewhere')
    expect(named(last, PROVIDER_COOKIES), `${id}: the frame's cookies`).toEqual(
      [observed.session && 'idp_session', observed.partitioned && 'idp_chips'].filter(Boolean).sort(),
    );
  if (last?.request.endsWith('/lab/idp-callback'))
    expect(named(last, APP_COOKIE_NAMES), `${id}: the callback's cookies`).toEqual(observed.cookies);
  if (last?.mode === 'cors')
    expect(named(last, PROVIDER_COOKIES), `${id}: the token call's cookies`).toEqual(
      observed.outcome === '200' ? ['idp_session'] : [],
    );
}

/**
 * The server view's Why, read from the journal: each refusal with its rule and the request it is
 * about. From HTML (an enforced opener policy on the provider's answer cuts the popup off, a
 * report-only one does not), RFC 6265bis (the way back is cross-site: Strict never comes, Lax not
 * with a POST) and the third-party cookie policies above; per engine where the run differs as
 * listed (Chromium sends the Strict cookie back through a redirect, Firefox 153 takes
 * noopener-allow-popups as unsafe-none, WebKit keeps no Secure cookie from http:// and no
 * partitioned cookie).
 */
const PROVIDER_POLICY = ['opener-policy-provider GET /lab/idp/authorize'];
const STRICT = 'same-site-strict GET /lab/idp-callback';
const FORM_POST = ['same-site-lax POST /lab/idp-callback', 'same-site-strict POST /lab/idp-callback'];
const WHY: Record<string, Record<string, string[]> & { all: string[] }> = {
  'popup-coop-unsafe-none': { all: [] },
  'popup-coop-same-origin': { all: PROVIDER_POLICY },
  'popup-coop-same-origin-allow-popups': { all: PROVIDER_POLICY },
  'popup-coop-noopener-allow-popups': { all: PROVIDER_POLICY, firefox: [] },
  'popup-coop-report-only': { all: [] },
  'redirect-query': {
    all: [STRICT],
    chromium: [],
    webkit: [STRICT, 'secure-over-http GET /lab/idp-callback'],
  },
  'redirect-form-post': { all: FORM_POST, webkit: [...FORM_POST, 'secure-over-http POST /lab/idp-callback'] },
  'token-credentialed': { all: ['third-party-cookie POST /lab/idp/token'] },
  'token-wildcard': { all: ['third-party-cookie POST /lab/idp/token'] },
  'frame-third-party-cookie': { all: ['third-party-cookie GET /lab/idp/frame'] },
  'frame-partitioned-cookie': { all: [], webkit: ['partitioned-not-kept GET /lab/idp/frame'] },
  // Its second frame is on the other site's page, filed under that page's visitor.
  'frame-partitioned-elsewhere': { all: [] },
};

/** Each check, what the page said of a refusal, and the engines page's table compared with the same run. */
const withTable = (checks: Record<string, Check<SignInRun>>): Record<string, Check<SignInRun>> =>
  Object.fromEntries(
    Object.entries(checks).map(([id, check]) => [
      id,
      async (result, context) => {
        await check(result, context);
        expectWhySaid(id, result.observed, context.run.said[id] ?? '');
        expectServerSaw(id, result.observed, context.run.saw[id], context.browserName);
        const why = WHY[id]!;
        expect(context.run.why[id] ?? [], `${id}: the server view's Why`).toEqual(why[context.browserName] ?? why.all);
        expectAsTheEnginesPageSays(SIGN_IN_ENGINES, context.browserName, id, { outcome: tableWord(result.observed) });
      },
    ]),
  );

/** The page's run, with what the engine printed after each experiment and what the page said of it. */
interface SignInRun extends PageRun {
  consoles: Record<string, string[] | null>;
  said: Record<string, string>;
  /** The page's table of what the server saw, by experiment. */
  saw: Record<string, SawRow[]>;
  /** The server view's Why for each experiment: its reasons as "rule request". */
  why: Record<string, string[]>;
}

/**
 * The console lines read after the report-only popup, and what the engine prints in the next 5 s,
 * until a line names an opener policy: Chromium
 * reports what a report-only policy would have blocked on its own schedule, and on busy cores a
 * clean-clone run read the console before the line came. Nothing waits where the engine tells a
 * driver no console (null).
 */
async function withLateOpenerLines(page: EnginePage, lines: string[] | null): Promise<string[] | null> {
  if (lines === null) return null;
  const all = [...lines];
  const deadline = Date.now() + 5_000;
  while (!all.some((line) => line.includes('Cross-Origin-Opener-Policy')) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    all.push(...((await page.consoleMessages()) ?? []));
  }
  return all;
}

/** The reasons the server view's Why gives each experiment, as "rule request". */
async function whyOf(page: EnginePage): Promise<Record<string, string[]>> {
  const why: Record<string, string[]> = {};
  const items = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('#server-view .why li[data-experiment]'), (li) => ({
      id: li.dataset.experiment!,
      reason: `${li.dataset.rule} ${li.querySelector('strong')?.textContent ?? ''}`,
    })),
  );
  for (const { id, reason } of items) (why[id] ??= []).push(reason);
  return why;
}

experimentTests<SignInRun>({
  page: 'sign-in',
  runTimeout: 120_000,
  run: async (page, { origins }) => {
    await page.open(`${origins.self}/sign-in.html`);
    const results: PageRun['results'] = {};
    const consoles: Record<string, string[] | null> = {};
    const said: Record<string, string> = {};
    // One at a time, each from its own click: a popup needs the click's user activation.
    for (const id of IDS) {
      results[id] = await page.runExperiment(id, 30_000);
      consoles[id] = await page.consoleMessages();
      if (id === 'popup-coop-report-only') consoles[id] = await withLateOpenerLines(page, consoles[id]);
      said[id] = (await page.text(`section#${id} output.observed`)) ?? '';
    }
    const saw = await page.evaluate(() =>
      Object.fromEntries(
        Array.from(document.querySelectorAll<HTMLElement>('section.experiment .server-saw'), (box) => [
          box.closest('section')!.id,
          JSON.parse(box.dataset.rows ?? '[]') as SawRow[],
        ]),
      ),
    );
    return { results, consoles, said, saw, why: await whyOf(page) };
  },
  afterRun: withTable({
    'popup-coop-unsafe-none': answered,
    'popup-coop-same-origin': cutOff,
    'popup-coop-same-origin-allow-popups': cutOff,
    'popup-coop-noopener-allow-popups': unless(
      { firefox: { message: true, closedBeforeAnswer: false } },
      { message: false, closedBeforeAnswer: true },
    ),
    // Chromium says in the opener's console what the report-only policy would block, and the
    // explainer reads it as an opener policy; Firefox prints nothing (WebKit tells a driver none).
    'popup-coop-report-only': async (result, context) => {
      await answered(result, context);
      const lines = context.run.consoles['popup-coop-report-only'];
      const opener = (lines ?? []).filter((line) => /Cross-Origin-Opener-Policy/.test(line));
      if (context.browserName === 'chromium') {
        expect(opener).toContain('Cross-Origin-Opener-Policy policy would block the window.closed call.');
        expect(readConsoleMessage(opener[0]!)).toMatchObject({ rule: 'opener-policy', value: 'closed' });
      } else expect(opener).toEqual([]);
    },
    'redirect-query': unless(
      {
        chromium: { method: 'GET', cookies: ['app_lax', 'app_none', 'app_strict'] },
        webkit: { method: 'GET', cookies: ['app_lax'] },
      },
      { method: 'GET', cookies: ['app_lax', 'app_none'] },
    ),
    'redirect-form-post': unless(
      { webkit: { method: 'POST', cookies: [] } },
      { method: 'POST', cookies: ['app_none'] },
    ),
    'token-credentialed': observed(WITHOUT_COOKIE),
    'token-wildcard': observed({ outcome: 'TypeError' }),
    'frame-third-party-cookie': observed({ session: false, partitioned: false, storageAccess: false }),
    'frame-partitioned-cookie': unless(
      { webkit: { session: false, partitioned: false, storageAccess: false } },
      { session: false, partitioned: true, storageAccess: false },
    ),
    // CHIPS (and Firefox's partitions) key the cookie by the top-level site: another site's window
    // framing the provider gets none of it; WebKit kept none in the first place.
    'frame-partitioned-elsewhere': observed({ session: false, partitioned: false, storageAccess: false }),
  }),
  testedElsewhere: ['frame-storage-access'],
  knownDifferences: {
    'popup-coop-noopener-allow-popups': (_, { browserName }) => browserName === 'firefox',
    'redirect-query': (_, { browserName }) => browserName === 'chromium' || browserName === 'webkit',
    'redirect-form-post': (_, { browserName }) => browserName === 'webkit',
  },
});

/**
 * The popups again, from the page as an app that sends an opener policy itself (its two other
 * addresses). HTML: same-origin on the opener cuts off every popup to another origin, whatever the
 * popup's page sends; same-origin-allow-popups keeps a popup whose own page sends no policy (or
 * report-only), and loses one whose page sends any other.
 */
const POPUP_IDS = IDS.filter((id) => id.startsWith('popup-'));
const APP_POLICIES: Record<string, (id: string, browserName: string) => boolean> = {
  'same-origin-allow-popups': (id, browserName) =>
    id === 'popup-coop-unsafe-none' ||
    id === 'popup-coop-report-only' ||
    // Listed: Firefox 153 takes noopener-allow-popups as unsafe-none.
    (id === 'popup-coop-noopener-allow-popups' && browserName === 'firefox'),
  'same-origin': () => false,
};

for (const [policy, answers] of Object.entries(APP_POLICIES))
  test(
    `sign-in: the popups from an app that sends ${policy}`,
    { tag: EVERY_ENGINE },
    async ({ enginePage: page, origins, browserName }) => {
      test.setTimeout(120_000);
      await page.open(`${origins.self}/sign-in-coop-${policy}.html`);
      for (const id of POPUP_IDS) {
        const result = await page.runExperiment(id, 30_000);
        const answered = answers(id, browserName);
        expect(result.observed, id).toEqual(
          answered
            ? { message: true, closedBeforeAnswer: false }
            : {
                message: false,
                closedBeforeAnswer: true,
              },
        );
        const listed = id === 'popup-coop-noopener-allow-popups' && browserName === 'firefox' && answered;
        expect(result.state, id).toBe(listed ? 'known-difference' : 'agree');
      }
      // The Why names the policy that cut each popup off: this page's own same-origin, or the provider's.
      const why = await whyOf(page);
      for (const id of POPUP_IDS)
        expect(why[id] ?? [], `${id}: the server view's Why`).toEqual(
          answers(id, browserName)
            ? []
            : [
                policy === 'same-origin'
                  ? 'opener-policy-app This page'
                  : 'opener-policy-provider GET /lab/idp/authorize',
              ],
        );
    },
  );

/**
 * Storage access, as a person runs it: Run; the provider's frame loads without its cookie (a third
 * party); Allow is answered (the driver answers for the person, only now, so the frame's own
 * request was made without a grant); the click on the provider's button inside the frame calls
 * document.requestStorageAccess() (Storage Access API: a user activation in the frame's document),
 * which resolves; the frame's own call with credentials then carries the cookie the provider set
 * as a top-level site, 200, and says "active" where the frame's request said "none" (Storage
 * Access Headers: Sec-Fetch-Storage-Access; Chromium and Firefox 153 send it). Chromium is told
 * Allow over CDP (its storage-access permission); Firefox is a browser of its own launched with
 * its test answer set and its frames in shared processes, where its driver's click reaches them
 * (engines/playwright.ts, firefoxAllowingStorageAccess).
 *
 * WebKit, a MiniBrowser of its own: it asks nobody (MiniBrowser runs without tracking prevention)
 * and grants at once, but it never kept the provider's SameSite=None; Secure cookie, set over
 * http:// (as it never sends back the app's app_none in the redirects), so no cookie comes and
 * the call gets 401: a known difference. It sends no Sec-Fetch-Storage-Access (STORAGE_ACCESS).
 */
test('sign-in: frame-storage-access', { tag: EVERY_ENGINE }, async ({ browser, origins, browserName, stack }) => {
  test.setTimeout(90_000);
  const settings = browserSettings(stack);
  // Firefox: a browser of its own, answering Allow; the others: the project's engine page.
  const firefoxAllowing =
    browserName === 'firefox'
      ? await firefox.launch(firefoxAllowingStorageAccess(settings.caCerts, settings.loopbackNames))
      : undefined;
  const page = firefoxAllowing
    ? await PlaywrightPage.open(firefoxAllowing, browserName, true)
    : await openEnginePage(browser, browserName, settings);
  try {
    await expectStorageAccess(page, origins.self, browserName);
  } finally {
    await page.close();
    await firefoxAllowing?.close();
  }
});

async function expectStorageAccess(page: EnginePage, self: string, browserName: string): Promise<void> {
  const id = 'frame-storage-access';
  const webkit = browserName === 'webkit';
  await page.open(`${self}/sign-in.html`);
  await page.click(`section#${id} > p > button`);
  await page.waitFor(
    () => document.querySelector('section#frame-storage-access iframe[data-told]') !== null,
    45_000,
    'the provider’s frame to say it loaded',
  );
  // WebKit has no prompt to answer here: it grants without asking.
  if (!webkit) expect(await page.allowStorageAccess()).toBe(true);
  await page.clickInFrame(`section#${id} iframe.provider-frame`, '#ask-access', 15_000);
  await page.waitForVerdict(id, 30_000);
  const result = await page.read(id);
  expect(result.observed).toEqual({
    session: false,
    partitioned: false,
    storageAccess: false,
    access: 'granted',
    token: webkit ? '401' : '200',
  });
  expect(result.state).toBe(webkit ? 'known-difference' : 'agree');
  // Where the grant brought no cookie, the page says why, with the fix.
  if (webkit) expect(await page.text(`section#${id} output.observed`)).toMatch(/Secure .*http:\/\/.*Fix: /);
  const rows = await page.evaluate(
    () =>
      JSON.parse(
        document.querySelector<HTMLElement>('section#frame-storage-access .server-saw')?.dataset.rows ?? '[]',
      ) as SawRow[],
  );
  expect(
    rows.map(({ request, site, mode, dest, storageAccess }) => ({ request, site, mode, dest, storageAccess })),
  ).toEqual([
    { ...AUTHORIZE, site: 'cross-site', storageAccess: null },
    { ...FRAME, site: 'cross-site', storageAccess: STORAGE_ACCESS[browserName] },
    { ...TOKEN, site: 'same-origin', storageAccess: STORAGE_ACCESS[browserName] && 'active' },
  ]);
  expect(named(rows[1], PROVIDER_COOKIES)).toEqual([]);
  expect(named(rows[2], PROVIDER_COOKIES)).toEqual(webkit ? [] : ['idp_session']);
  expect((await whyOf(page))[id]).toEqual(['third-party-cookie GET /lab/idp/frame']);
  expectAsTheEnginesPageSays(SIGN_IN_ENGINES, browserName, id, { outcome: tableWord(result.observed) });
}

test('the engines page opens the sign-in and Local Network Access tables, engine by engine', async ({
  page,
  origins,
}) => {
  await page.goto(`${origins.self}/engines.html`);
  for (const [section, rows] of [
    ['#sign-in-engines', 13],
    ['#local-network-engines', 10],
  ] as const) {
    await page.locator(`${section} summary`).click();
    await expect(page.locator(`${section} table tbody tr`)).toHaveCount(rows);
  }
  // One cell per engine, in the page's engine order: the provider's same-origin cuts the popup off in each.
  await expect(page.locator('#sign-in-popup-coop-same-origin td')).toHaveCount(3);
  for (const cell of await page.locator('#sign-in-popup-coop-same-origin td code').all())
    await expect(cell).toHaveText('cut off');
});
