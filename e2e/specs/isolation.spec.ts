import { readConsoleMessage } from '@origin-lab/cors-rules/explain';
import { EVERY_ENGINE, test, expect } from '../fixtures.js';
import { trustworthy } from './support/trustworthy.js';

/**
 * Cross-origin isolation, from the HTML standard ("obtain an embedder policy", "cross-origin
 * isolated capability") and Fetch ("cross-origin resource policy check"): the isolation page at
 * each of its three addresses (services/pages/src/isolation.ts gives each its headers), every
 * experiment's outcome written out here by hand.
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

for (const [address, coep] of ADDRESSES)
  test(`isolation: ${address}`, { tag: EVERY_ENGINE }, async ({ enginePage, origins, stack, browserName }) => {
    test.skip(stack.name === 'compose', 'the caddy stack serves the same pages through the same Caddyfile');
    await enginePage.open(`${origins.self}${address}`);
    const results = await enginePage.runAll(60_000);
    const secure = trustworthy(origins.self);
    const wanted = expected(coep, secure);
    const differs = measured(browserName, coep, secure);
    expect(Object.keys(results).sort()).toEqual(Object.keys(wanted).sort());
    for (const [id, outcome] of Object.entries({ ...wanted, ...differs.outcomes })) {
      expect(results[id]!.observed, `${address} ${id}`).toEqual(outcome);
      expect(results[id]!.state, `${address} ${id}`).toBe(differs.known.includes(id) ? 'known-difference' : 'agree');
    }

    // What the console said of the embeds COEP require-corp blocked, read by the explainer: not
    // CORS, and nothing else it reads as a refusal. Chromium's console reaches the driver with it
    // (Firefox's CORP message does not come through WebDriver BiDi, WebKit's console not at all).
    if (browserName === 'chromium') {
      const rules = ((await enginePage.consoleMessages()) ?? []).flatMap(
        (line) => readConsoleMessage(line)?.rule ?? [],
      );
      expect(rules, `${address}: the console's refusals, as the explainer reads them`).toEqual(
        wanted['image-without-corp'].loaded ? [] : ['resource-policy', 'resource-policy'],
      );
    }

    // HTML's "browsing context group switch": the page opens this origin's address under the other
    // COOP (same-origin against none); the COOP values do not match, so in a secure context the new
    // window goes to a group of its own: no window.opener there, and closed as this page sees it.
    // Outside one, COOP is ignored and the two stay linked.
    const opener = await enginePage.runExperiment('opener', 30_000);
    expect(opener.observed, `${address} opener`).toEqual({
      opened: true,
      popupHasOpener: !secure,
      openerSeesClosed: secure,
    });
    expect(opener.state, `${address} opener`).toBe('agree');
  });
