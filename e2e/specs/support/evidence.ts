import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, TestInfo } from '@playwright/test';
import { EvidenceError, readEvidence, type Explanation } from '@origin-lab/cors-rules/explain';
import { PlaywrightPage } from '../../engines/playwright.js';
import { expect } from '../../fixtures.js';
import type { Outcome } from './playground-case.js';
import { curlVerbose, devtoolsRecorder } from './recorders.js';

/**
 * The evidence people already have, made from every ready case of the playground by the engines
 * themselves while playground.spec.ts sends it: Playwright's HAR (Chromium, Firefox), a
 * DevTools-style HAR from Chromium's protocol events, and `curl -v` of the requests Chromium sent.
 * Each is explained with the rule the case was built to show, or says what its recorder did not
 * keep. (The console corpus is recorded by the same run and explained by @origin-lab/cors-rules'
 * unit tests.)
 */

export type Recorder = 'playwright-har' | 'devtools-har' | 'curl';

/**
 * The ready cases whose refusal hangs on credentials alone (SPEC.md and Fetch: `*` covers any
 * origin, method or header only without credentials; with them Allow-Credentials must be "true").
 * The pages here send no cookie to the other origin in these cases, so nothing in a HAR or in curl
 * shows that credentials were asked for: the explainer reads the exchange as one without them and
 * names the rule that refuses it with them.
 */
/** The redirected cases the engine does not follow to the end: a user name in the Location, redirect: 'manual' or 'error'. */
const REDIRECT_STOPPED = new Set(['redirect-userinfo', 'redirect-manual', 'redirect-error']);

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
  /** An explanation the evidence may hold or not: the recorder keeps it on some runs only. */
  maybe?: true;
}

/**
 * Written from the spec and from what each recorder keeps (docs/explain.md, "What each recorder
 * keeps"): DevTools' HAR keeps preflights, answers and errors; curl keeps what was sent and
 * answered; Playwright's HAR keeps no preflight, and Chromium's recorder keeps no answer of a
 * read it refused, where Firefox's keeps it (and its error on some runs only).
 */
export function expected(recorder: Recorder, engine: string, id: string, outcome: Outcome): Expected | Expected[] {
  const rule = outcome.predicted.failureRule;
  const { sent, readable } = outcome.observed;
  // A sandboxed frame runs in a process of its own in Chromium, and a worker in a target of its
  // own: the recorders attached to the page keep none of their requests (Playwright's keeps the
  // worker's). Firefox's keeps both.
  // (Playwright's catches the sandboxed frame's request when it attaches to the frame's process in time.)
  if (engine === 'chromium' && id.startsWith('sandbox-') && recorder === 'playwright-har')
    return [
      { verdict: 'readable', rule: null, maybe: true },
      { verdict: 'nothing cross-origin', maybe: true },
    ];
  if (engine === 'chromium' && (id.startsWith('sandbox-') || (id === 'worker-null' && recorder === 'devtools-har')))
    return { verdict: 'nothing cross-origin' };
  // Firefox's HAR may also list the request to the Location, failed, with no answer.
  if (id === 'redirect-bare' && engine === 'firefox')
    return [
      { verdict: 'refused', rule },
      { verdict: 'unknown', rule: null, maybe: true },
    ];
  // A redirect the engine did not follow on (a user name in its Location, redirect: 'manual' or
  // 'error'): the 307 passes the CORS check, which is all curl and Firefox's HAR show of it
  // (Firefox's keeps the engine's error always when the Location held a user name, else on some
  // runs only); Chromium's
  // recorders keep the error: on the 307 (DevTools), or on a request with no answer (Playwright).
  if (REDIRECT_STOPPED.has(id)) {
    const hop: Expected = { verdict: 'readable', rule: null };
    const userinfo: Expected = { verdict: 'not-cors', rule: 'redirect-credentials' };
    const stopped: Expected = { verdict: 'unknown', rule: null };
    if (recorder === 'curl') return [hop];
    // Firefox's HAR keeps the engine's error on the 307 on some runs only (measured: redirect-error
    // once in several runs): with it the 307 reads as where the engine stopped, else as a hop.
    if (engine === 'firefox')
      return id === 'redirect-userinfo'
        ? [userinfo, { ...stopped, maybe: true }]
        : [
            { ...hop, maybe: true },
            { ...stopped, maybe: true },
          ];
    return [id === 'redirect-userinfo' && recorder === 'devtools-har' ? userinfo : stopped, { ...hop, maybe: true }];
  }
  // Refused by the answer after a redirect that passed (on the lab's origin, or on a third): the hop
  // reads as one the browser follows (curl replays a redirect chain's last request only: the
  // recorder keeps one entry per request id).
  if (id === 'redirect-final-bare' || id === 'redirect-third-listed')
    return [
      recorder === 'playwright-har' && engine === 'chromium'
        ? { verdict: 'unknown', rule: null, unknown: /answer’s headers/ }
        : { verdict: 'refused', rule },
      { verdict: 'readable', rule: null, ...(recorder === 'curl' && { maybe: true as const }) },
    ];
  // A revalidation refused: the first answer was readable (and kept); the 304 that replaced its
  // Allow-Origin is refused, where the recorder kept it.
  if (id === 'revalidate-other') {
    const kept: Expected = { verdict: 'readable', rule: null };
    const refreshed: Expected =
      recorder === 'playwright-har' && engine === 'chromium'
        ? { verdict: 'unknown', rule: null, unknown: /answer’s headers/ }
        : { verdict: 'refused', rule };
    return [refreshed, kept];
  }
  if (id === 'same-origin' || id === 'fetch-metadata-same-origin')
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
  // Firefox's keeps the read's failure (NS_ERROR_DOM_BAD_URI) on some runs only (measured): with it,
  // the explainer infers the credentials no header shows, and names the rule they break.
  if (credentials)
    return [
      { ...withoutThem, maybe: true },
      { verdict: 'refused', rule, maybe: true },
    ];
  return withoutThem;
}

/** What the evidence's exchanges with the lab were explained as (a HAR holding none is its own answer). */
export function explainedLab(text: string): (Expected & { text?: string })[] {
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

/** A case of a pass and when it began (ms since the epoch, the clock the engines' timings use). */
export type CaseStart = readonly [id: string, at: number];

/**
 * Playwright's HAR of a whole pass, one HAR per case: each case's entries are the requests that
 * started between its beginning and the next case's. A case with no request has no HAR.
 */
export function harsByCase(text: string, starts: readonly CaseStart[]): Map<string, string> {
  const har = JSON.parse(text) as { log: { entries: { startedDateTime: string }[] } };
  const byCase = new Map<string, string>();
  starts.forEach(([id, from], index) => {
    const until = starts[index + 1]?.[1] ?? Number.POSITIVE_INFINITY;
    const entries = har.log.entries.filter((entry) => {
      const at = Date.parse(entry.startedDateTime);
      return at >= from && at < until;
    });
    if (entries.length > 0) byCase.set(id, JSON.stringify({ log: { ...har.log, entries } }));
  });
  return byCase;
}

/**
 * A playground pass recorded in one context (Playwright's HAR, and Chromium's protocol events),
 * the page loaded once and each case opened as its link opens it on that page (the address's
 * fragment), told apart in the evidence by when it began: what a context per case recorded, at a
 * fraction of the cost (a context and a cold page load each; a load per case took Firefox about
 * 0.6 s a case).
 */
export interface PassRecording {
  page: PlaywrightPage;
  /** Case id at the page base (its fragment), with no cookie left by the cases before it. */
  openCase(base: string, id: string, fragment: string): Promise<void>;
  /** After case id: its protocol events and curl of what Chromium sent, kept for finish. */
  endCase(id: string): Promise<void>;
  /** Closes the context (which writes the HAR); each case's evidence, kept beside the test's output. */
  finish(): Promise<Map<string, [Recorder, string][]>>;
  /** Closes the context, for a pass that failed before finish. */
  close(): Promise<void>;
}

export async function recordPass(browser: Browser, engine: string, testInfo: TestInfo): Promise<PassRecording> {
  const harPath = testInfo.outputPath('pass.playwright.har');
  const context: BrowserContext = await browser.newContext({ recordHar: { path: harPath, content: 'omit' } });
  try {
    const page = await PlaywrightPage.inContext(context, engine);
    const devtools = engine === 'chromium' ? await devtoolsRecorder(context, page.page) : null;
    const evidence = new Map<string, [Recorder, string][]>();
    const starts: CaseStart[] = [];
    return {
      page,
      close: () => context.close(),
      async openCase(base, id, fragment) {
        await context.clearCookies();
        starts.push([id, Date.now()]);
        await page.open(`${base}#${fragment}`);
      },
      async endCase(id) {
        if (!devtools) return;
        await devtools.settle();
        const { har, sent } = devtools.take();
        const kept: [Recorder, string][] = [['devtools-har', har]];
        // curl sends again what Chromium sent to the lab and was answered: the preflight, then the request if it left.
        const sentToLab = sent.filter((request) => request.url.includes('/lab/cors') && request.answered);
        if (sentToLab.length > 0) kept.push(['curl', await curlVerbose(sentToLab)]);
        evidence.set(id, kept);
      },
      async finish() {
        await context.close();
        const byCase = new Map<string, [Recorder, string][]>();
        for (const [id, har] of harsByCase(readFileSync(harPath, 'utf8'), starts)) {
          const kept: [Recorder, string][] = [['playwright-har', har], ...(evidence.get(id) ?? [])];
          for (const [recorder, text] of kept) writeFileSync(testInfo.outputPath(`${id}.${recorder}.txt`), text);
          byCase.set(id, kept);
        }
        return byCase;
      },
    };
  } catch (err) {
    await context.close();
    throw err;
  }
}

/**
 * Each recorder's evidence of one case, explained: each exchange as one of the wanted ways, and
 * each wanted way that is not a maybe is how at least one of them is explained.
 */
export function expectExplained(evidence: [Recorder, string][], engine: string, id: string, outcome: Outcome): void {
  for (const [recorder, text] of evidence) {
    const wanted = [expected(recorder, engine, id, outcome)].flat();
    const got = explainedLab(text);
    expect.soft(got.length, `${id} (${recorder}): an exchange with the lab was explained`).toBeGreaterThan(0);
    const matches = (explanation: (typeof got)[number], want: Expected) => {
      const { unknown, maybe: _maybe, ...fields } = want;
      return (
        Object.entries(fields).every(([key, value]) => explanation[key as keyof typeof explanation] === value) &&
        (!unknown || unknown.test(explanation.text ?? ''))
      );
    };
    for (const explanation of got)
      expect
        .soft(
          wanted.some((want) => matches(explanation, want)),
          `${id} (${recorder}): ${JSON.stringify(explanation)} is none of ${JSON.stringify(wanted)}`,
        )
        .toBe(true);
    for (const want of wanted.filter(({ maybe }) => !maybe))
      expect
        .soft(
          got.some((explanation) => matches(explanation, want)),
          `${id} (${recorder}): no exchange explained as ${JSON.stringify(want)}`,
        )
        .toBe(true);
  }
}
