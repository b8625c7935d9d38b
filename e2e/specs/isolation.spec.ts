import { readConsoleMessage } from '@origin-lab/cors-rules/explain';
import type { ExperimentResult } from '../engines/engine.js';
import { expect } from '../fixtures.js';
import { experimentTests, type Check, type PageRun } from './support/per-experiment.js';
import { trustworthy } from './support/trustworthy.js';

/**
 * Cross-origin isolation, from the HTML standard ("obtain an embedder policy", "cross-origin
 * isolated capability") and Fetch ("cross-origin resource policy check"): the isolation page at
 * each of its three addresses (services/pages/src/isolation.ts gives each its headers), every
 * experiment's outcome written out here by hand. One test per experiment, each checking it at
 * every address.
 */
interface Outcomes {
  isolated: { crossOriginIsolated: boolean };
  'shared-array-buffer': { sharedArrayBuffer: boolean };
  'image-without-corp': { loaded: boolean };
  'image-with-corp': { loaded: boolean };
  'fetch-no-cors': { outcome: string };
  'fetch-cors': { outcome: string };
}

type Coep = 'none' | 'require-corp' | 'credentialless';

/** What HTML and Fetch say for a page under this COEP, in a secure context or not (where COOP and COEP are ignored). */
function expected(coep: Coep, secure: boolean): Outcomes {
  const inForce = secure ? coep : 'none';
  const isolated = inForce !== 'none';
  return {
    isolated: { crossOriginIsolated: isolated },
    'shared-array-buffer': { sharedArrayBuffer: isolated },
    // require-corp: a cross-origin no-cors answer must say CORP; credentialless: it is fetched without credentials instead.
    'image-without-corp': { loaded: inForce !== 'require-corp' },
    'image-with-corp': { loaded: true },
    'fetch-no-cors': { outcome: inForce === 'require-corp' ? 'TypeError' : 'opaque' },
    // A CORS request is checked by CORS, never by CORP.
    'fetch-cors': { outcome: '200' },
  };
}

/**
 * Where an engine measurably parts from the standards (the page's known differences): the
 * outcomes it gives instead, by experiment. WebKitGTK 2.50.6 does not know COEP credentialless
 * (the page is not isolated, and embeds as without COEP: the spec's outcomes for no COEP), and
 * exposes no SharedArrayBuffer to an isolated page.
 */
function measured(engine: string, coep: Coep, secure: boolean): { outcomes: Partial<Outcomes>; known: string[] } {
  if (engine === 'webkit' && secure && coep === 'credentialless')
    // Not isolated, so (as the spec has it for a page that is not) no SharedArrayBuffer either.
    return {
      outcomes: { isolated: { crossOriginIsolated: false }, 'shared-array-buffer': { sharedArrayBuffer: false } },
      known: ['isolated'],
    };
  if (engine === 'webkit' && secure && coep === 'require-corp')
    return { outcomes: { 'shared-array-buffer': { sharedArrayBuffer: false } }, known: ['shared-array-buffer'] };
  return { outcomes: {}, known: [] };
}

const ADDRESSES = [
  ['/isolation.html', 'none'],
  ['/isolation-require-corp.html', 'require-corp'],
  ['/isolation-credentialless.html', 'credentialless'],
] as const;

/** The run: the page at each of its addresses, "Run all" then the popup; what Chromium's console said there. */
interface IsolationRun extends PageRun {
  byAddress: Record<string, { results: Record<string, ExperimentResult>; console: string[] | null }>;
}

/**
 * HTML's "browsing context group switch": the page opens this origin's address under the other
 * COOP (same-origin against none); the COOP values do not match, so in a secure context the new
 * window goes to a group of its own: no window.opener there, and closed as this page sees it.
 * Outside one, COOP is ignored and the two stay linked.
 */
const openerOutcome = (secure: boolean) => ({ opened: true, popupHasOpener: !secure, openerSeesClosed: secure });

/** One experiment's expectation, at every address of the page. */
const atEveryAddress =
  (id: string): Check<IsolationRun> =>
  (_result, { run, origins, browserName }) => {
    const secure = trustworthy(origins.self);
    for (const [address, coep] of ADDRESSES) {
      const results = run.byAddress[address]!.results;
      const differs = measured(browserName, coep, secure);
      const wanted: Record<string, unknown> = {
        ...expected(coep, secure),
        ...differs.outcomes,
        opener: openerOutcome(secure),
      };
      expect(Object.keys(results).sort(), address).toEqual(Object.keys(wanted).sort());
      expect(results[id]!.observed, `${address} ${id}`).toEqual(wanted[id]);
      expect(results[id]!.state, `${address} ${id}`).toBe(differs.known.includes(id) ? 'known-difference' : 'agree');
    }
  };

const IDS = [
  'isolated',
  'shared-array-buffer',
  'image-without-corp',
  'image-with-corp',
  'fetch-no-cors',
  'fetch-cors',
  'opener',
];

experimentTests<IsolationRun>({
  page: 'isolation',
  runTimeout: ADDRESSES.length * 90_000,
  run: async (page, { origins }) => {
    const byAddress: IsolationRun['byAddress'] = {};
    for (const [address] of ADDRESSES) {
      await page.open(`${origins.self}${address}`);
      await page.consoleMessages();
      const results = await page.runAll(60_000);
      const console = await page.consoleMessages();
      results.opener = await page.runExperiment('opener', 30_000);
      byAddress[address] = { results, console };
    }
    return { results: byAddress[ADDRESSES[0][0]]!.results, byAddress };
  },
  afterRun: Object.fromEntries(IDS.map((id) => [id, atEveryAddress(id)])),
  wholeRun: {
    // What the console said of the embeds COEP require-corp blocked, read by the explainer: not
    // CORS, and nothing else it reads as a refusal. Chromium's console reaches the driver with it
    // (Firefox's CORP message does not come through WebDriver BiDi, WebKit's console not at all).
    "the console's refusals, as the explainer reads them (Chromium)": ({ run, origins, browserName }) => {
      if (browserName !== 'chromium') return;
      const secure = trustworthy(origins.self);
      for (const [address, coep] of ADDRESSES) {
        const rules = (run.byAddress[address]!.console ?? []).flatMap((line) => readConsoleMessage(line)?.rule ?? []);
        expect(rules, address).toEqual(
          expected(coep, secure)['image-without-corp'].loaded ? [] : ['resource-policy', 'resource-policy'],
        );
      }
    },
  },
});
