import { readFileSync, writeFileSync } from 'node:fs';
import { EvidenceError, readEvidence, type Explanation } from '@origin-lab/cors-rules/explain';
import { PRESETS } from '../../services/pages/web/ts/playground/presets.js';
import { PlaywrightPage } from '../engines/playwright.js';
import { test, expect } from '../fixtures.js';
import { sendCase, type Outcome } from './support/playground-case.js';
import { curlVerbose, devtoolsRecorder, type SentRequest } from './support/recorders.js';

/**
 * The evidence people already have, made from every ready case of the playground by the engines
 * themselves: Playwright's HAR (Chromium, Firefox), a DevTools-style HAR from Chromium's protocol
 * events, and `curl -v` of the requests Chromium sent. Each is explained with the rule the case
 * was built to show, or says what its recorder did not keep. (The console corpus is recorded by
 * playground.spec.ts and explained by @origin-lab/cors-rules' unit tests.)
 */

type Recorder = 'playwright-har' | 'devtools-har' | 'curl';

/**
 * The ready cases whose refusal hangs on credentials alone (SPEC.md and Fetch: `*` covers any
 * origin, method or header only without credentials; with them Allow-Credentials must be "true").
 * The pages here send no cookie to the other origin in these cases, so nothing in a HAR or in curl
 * shows that credentials were asked for: the explainer reads the exchange as one without them and
 * names the rule that refuses it with them.
 */
const CREDENTIALS_DECIDE = new Set([
  'origin-star-credentials',
  'methods-star-credentials',
  'headers-star-credentials',
  'credentials-missing',
  'preflight-without-allow-credentials',
]);

/** What a recorder's evidence of one case must be explained as: the verdict, and the rule where there is one. */
interface Expected {
  verdict: Explanation['verdict'] | 'nothing cross-origin';
  rule?: string | null;
  withCredentials?: string;
  /** A word the unknowns must hold: what the recorder did not keep. */
  unknown?: RegExp;
}

/**
 * Written from the spec and from what each recorder keeps (docs/explain.md, "What each recorder
 * keeps"): DevTools' HAR keeps preflights, answers and errors; curl keeps what was sent and
 * answered; Playwright's HAR keeps no preflight, and Chromium's recorder keeps no answer of a
 * read it refused, where Firefox's keeps it (but no error).
 */
function expected(recorder: Recorder, engine: string, id: string, outcome: Outcome): Expected {
  const rule = outcome.predicted.failureRule;
  const { sent, readable } = outcome.observed;
  if (id === 'same-origin')
    return recorder === 'curl' ? { verdict: 'not-cors', rule: 'same-origin' } : { verdict: 'nothing cross-origin' };
  // No-cors: a PUT never leaves; a GET goes out in no-cors mode and its answer is opaque.
  if (id === 'no-cors-put') return { verdict: 'nothing cross-origin' };
  // Chromium's HAR recorder keeps no header of an opaque answer, nor the request's Sec-Fetch-Mode.
  if (id === 'no-cors')
    return recorder === 'playwright-har' && engine === 'chromium'
      ? { verdict: 'unknown', rule: null, unknown: /answer’s headers/ }
      : { verdict: 'not-cors', rule: 'no-cors-mode' };
  if (rule === null) return { verdict: 'readable', rule: null };
  const credentials = CREDENTIALS_DECIDE.has(id);
  const withoutThem: Expected = credentials
    ? { verdict: 'readable', rule: null, withCredentials: rule }
    : { verdict: 'refused', rule };
  if (recorder === 'devtools-har') return { verdict: 'refused', rule };
  if (recorder === 'curl') return withoutThem;
  // Playwright's HAR has no preflight: a request the engines let through (Authorization under *,
  // which the spec refuses) reads as readable, its preflight named as missing.
  if (readable) return { verdict: 'readable', rule: null, unknown: /preflight/i };
  // The request never left (its preflight failed), or Chromium kept no answer of the refused read.
  if (!sent || engine === 'chromium') return { verdict: 'unknown', rule: null, unknown: /answer’s headers/ };
  return withoutThem;
}

/** What the evidence's exchanges with the lab were explained as (a HAR holding none is its own answer). */
function explainedLab(text: string): (Expected & { text?: string })[] {
  try {
    return readEvidence(text)
      .explanations.filter((e) => e.url?.includes('/lab/cors'))
      .map((e) => ({
        verdict: e.verdict,
        rule: e.rule,
        ...(e.withCredentials && { withCredentials: e.withCredentials }),
        text: `${e.text} | unknowns: ${e.unknowns.join(' ')}`,
      }));
  } catch (err) {
    if (err instanceof EvidenceError && /no cross-origin request/.test(err.message))
      return [{ verdict: 'nothing cross-origin' }];
    throw err;
  }
}

test('every ready case, recorded as a HAR and as curl -v, is explained with the rule the case shows', async ({
  browser,
  browserName,
  origins,
  stack,
}, testInfo) => {
  test.skip(stack.name !== 'embedded', 'the recorders keep the same on every stack: the plain one is enough');
  test.setTimeout(PRESETS.length * 10_000);
  for (const preset of PRESETS) {
    const harPath = testInfo.outputPath(`${preset.id}.playwright.har`);
    const context = await browser.newContext({ recordHar: { path: harPath, content: 'omit' } });
    let devtoolsHar: string | null = null;
    let sentToLab: SentRequest[] = [];
    let outcome: Outcome;
    try {
      const enginePage = await PlaywrightPage.inContext(context, browserName);
      const devtools = browserName === 'chromium' ? await devtoolsRecorder(context, enginePage.page) : null;
      await enginePage.open(`${origins.self}/playground.html#${preset.fragment}`);
      ({ outcome } = await sendCase(enginePage));
      devtoolsHar = devtools?.har() ?? null;
      sentToLab = devtools?.sent().filter((request) => request.url.includes('/lab/cors') && request.answered) ?? [];
    } finally {
      await context.close();
    }

    const evidence: [Recorder, string][] = [['playwright-har', readFileSync(harPath, 'utf8')]];
    if (devtoolsHar) evidence.push(['devtools-har', devtoolsHar]);
    // curl sends again what Chromium sent to the lab and was answered: the preflight, then the request if it left.
    if (sentToLab.length > 0) evidence.push(['curl', await curlVerbose(sentToLab)]);
    for (const [recorder, text] of evidence) {
      writeFileSync(testInfo.outputPath(`${preset.id}.${recorder}.txt`), text);
      const want = expected(recorder, browserName, preset.id, outcome);
      const got = explainedLab(text);
      expect.soft(got.length, `${preset.id} (${recorder}): an exchange with the lab was explained`).toBeGreaterThan(0);
      for (const explanation of got) {
        const { unknown, ...fields } = want;
        expect.soft(explanation, `${preset.id} (${recorder})`).toMatchObject(fields);
        if (unknown) expect.soft(explanation.text, `${preset.id} (${recorder}): what it cannot tell`).toMatch(unknown);
      }
    }
  }
});
