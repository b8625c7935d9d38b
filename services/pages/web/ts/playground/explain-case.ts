import type { EngineOutcome, LabCorsScenario, ServerJournalEntry } from '@origin-lab/contract';
import { byId, h } from '../frame/dom.js';
import type { ServerEvidence } from '../probes/journal.js';
import { onlyOverSafelistedTotal, unsafeHeaderNames, type Prediction } from '@origin-lab/cors-rules';
import type { EngineFamily } from '@origin-lab/cors-rules';
import { fixedCase, fixForRefusal } from '@origin-lab/cors-rules/advice';
import { answerBody } from './answer-body.js';
import { explain } from '../server-view/why-refused.js';
import { EXTRA_HEADER_NAME, type CasePlan } from './plan-case.js';

/**
 * What a run of a case shows: the spec's prediction, what the page got, what the server saw,
 * why, and whether the browser agreed with the spec (or differs in a way already measured).
 */

/** What the page itself could observe of its request. */
export interface Observed {
  /** Whether the page could read the answer. */
  readable: boolean;
  status: number | null;
  /** Header names script could read. */
  headers: string[];
  /** The whole body, as the page read it (answer-body.ts decides how much is shown). */
  body: string;
  error: string | null;
}

/** Whether this run's demo cookie came back, and how to say it. */
export interface CookieCheck {
  returned: boolean;
  note: string;
}

const li = (text: string, attrs: Record<string, string> = {}) => h('li', attrs, text);

/** What the spec lets one expect of the demo cookie: it speaks only of None; Secure, and says browsers differ. */
function cookieExpectation(scenario: LabCorsScenario, crossOrigin: boolean): string {
  const attributes = `SameSite=${scenario.cookie === 'none' ? 'None' : scenario.cookie === 'lax' ? 'Lax' : 'Strict'}${scenario.cookieSecure ? '; Secure' : ''}${scenario.cookiePartitioned ? '; Partitioned' : ''}`;
  if (!crossOrigin) return `The demo cookie (${attributes}) is set and sent back on this origin.`;
  return scenario.cookie === 'none' && scenario.cookieSecure
    ? scenario.cookiePartitioned
      ? `The demo cookie (${attributes}) is kept in a jar of this page's site only (CHIPS), so it may come back even where third-party cookies are blocked.`
      : `The demo cookie (${attributes}) may be kept and sent back cross-site, if the browser allows third-party cookies.`
    : `The demo cookie (${attributes}): sending a cookie cross-site needs SameSite=None; Secure, so expect it withheld. Browsers differ.`;
}

export function showPrediction(plan: CasePlan, prediction: Prediction): void {
  byId('result-empty').hidden = true;
  byId('predicted').replaceChildren(
    li(
      prediction.preflight.sent
        ? `A preflight: ${prediction.preflight.why}.`
        : `No preflight: ${prediction.preflight.why}.`,
    ),
    ...(prediction.preflight.sent
      ? [
          li(
            prediction.preflight.passes
              ? 'The preflight passes.'
              : `The preflight fails: ${prediction.preflight.failure}.`,
          ),
        ]
      : []),
    li(prediction.sent ? 'The request reaches the server.' : 'The request is never sent.'),
    ...(prediction.serverRefusal
      ? [li(`The server answers ${prediction.serverRefusal.status}: ${prediction.serverRefusal.why}.`)]
      : []),
    li(prediction.readable ? 'The page may read the answer.' : `The page may not read it: ${prediction.failure}.`),
    ...(prediction.visibleHeaders
      ? [li(`Headers script sees: ${prediction.visibleHeaders.join(', ') || 'none'}.`)]
      : []),
  );
  if (plan.scenario.cookie !== 'off') byId('predicted').append(li(cookieExpectation(plan.scenario, plan.crossOrigin)));
  byId('observed').replaceChildren(li('Sending\u2026'));
}

export function showObserved(observed: Observed): void {
  byId('observed').replaceChildren(
    observed.error ? li(observed.error) : li(`Status ${observed.status}.`),
    ...(observed.readable
      ? [li(`Headers script sees: ${observed.headers.join(', ') || 'none'}.`), answerBody(observed.body)]
      : []),
  );
}

export function showCookie(cookie: CookieCheck | null): void {
  if (cookie) byId('observed').append(li(cookie.note));
}

export function showServer(evidence: ServerEvidence, after: readonly ServerJournalEntry[] = [], label = ''): void {
  const line = (what: string, entry: ServerJournalEntry) => {
    const sent = `Origin: ${entry.origin ?? 'none'}${entry.credentials.authorization ? ', with Authorization' : ''}`;
    const cors = entry.cors
      ? Object.entries(entry.cors)
          .map(([n, v]) => `${n}: ${v}`)
          .join('; ')
      : 'no CORS headers';
    // Fetch Metadata: whether the browser counted the two origins as one site (it decides the
    // SameSite cookies, and Fetch-metadata protection), and the request's mode and destination.
    const { site: fetchSite, mode, dest } = entry.secFetch;
    const site = fetchSite ? ` (Sec-Fetch-Site: ${fetchSite}, Sec-Fetch-Mode: ${mode}, Sec-Fetch-Dest: ${dest})` : '';
    return li(`${what} (${sent}): ${entry.method} answered ${entry.status}, ${cors}.${site}`);
  };
  byId('server-saw').replaceChildren(
    evidence.preflight ? line('The preflight', evidence.preflight) : li('No preflight arrived.'),
    evidence.request ? line('The request', evidence.request) : li('The request never arrived.'),
    ...after.map((entry) => line(entry.preflight ? `${label}, a preflight` : `${label}, the request`, entry)),
  );
}

/**
 * Where the engines, measured, differ from the spec (docs/decisions.md): what they do instead, or
 * null when this outcome is not one of them.
 */
function knownDifference(
  engine: EngineFamily,
  plan: CasePlan,
  prediction: Prediction,
  seen: { preflight: boolean; sent: boolean; readable: boolean },
  revalidated: boolean | null,
): string | null {
  const { planned } = plan;
  // Measured on WebKitGTK 2.50.6: it keeps no copy of the lab's answer, so nothing is revalidated.
  if (revalidated === false && seen.readable && !prediction.readable)
    return `${engine} kept no copy of the answer: it sent the request again without If-None-Match and read a fresh 200, so no 304 replaced Access-Control-Allow-Origin. A browser need not keep an answer; the prediction is for one that does.`;
  // Measured on Chromium 156, Firefox ESR 153 and WebKitGTK 2.50.6: each lets Authorization through under Allow-Headers: *.
  if (prediction.failureRule === 'authorization-not-covered' && seen.preflight && seen.sent && seen.readable)
    return `${engine} lets Authorization through under Access-Control-Allow-Headers: *, which the spec says must name it.`;
  // Measured on Firefox ESR 153: fetch's headers given as pairs skip the total (and the joined value's) check.
  if (
    engine === 'firefox' &&
    planned.mode === 'cors' &&
    onlyOverSafelistedTotal(planned.headers) &&
    !seen.preflight &&
    seen.sent === prediction.sent &&
    seen.readable === prediction.readable
  )
    return 'firefox sends a name given several times as [name, value] pairs without a preflight, whatever the total (with Headers.append it preflights); the spec says over 1024 bytes together preflight.';
  return null;
}

/**
 * The fix for a case refused at an answer after the first, as words and the fields that change:
 * the redirect's own CORS headers, a Location without a user name and password, fetch's redirect
 * mode back to follow, or a 304 that keeps the CORS headers. Null when it is none of these.
 */
function laterAnswerFix(
  plan: CasePlan,
  prediction: Prediction,
  origin: string,
): { summary: string; fields: Record<string, string> } | null {
  const { fields } = plan;
  if (plan.scenario.revalidate === 'other')
    return {
      summary: "a 304 updates the kept answer's headers: send the same Access-Control-Allow-Origin on it.",
      fields: { revalidate: 'cors' },
    };
  if (plan.scenario.redirectTo === null) return null;
  if (fields.get('redirect-cors') === 'off')
    return {
      summary: 'the redirect is an answer like any other: give it the same Access-Control-Allow-Origin.',
      fields: { 'redirect-cors': 'on' },
    };
  if (fields.get('redirect-userinfo') === 'on' && fields.get('redirect') !== 'page')
    return { summary: 'redirect to a URL without a user name and password.', fields: { 'redirect-userinfo': 'off' } };
  if (plan.planned.redirectMode === 'manual' || plan.planned.redirectMode === 'error')
    return {
      summary: "let fetch follow the redirect (redirect: 'follow', the default).",
      fields: { 'redirect-mode': 'follow' },
    };
  // Refused by the answer after the redirect: the same fix as without one, to the final answer's policy.
  if (prediction.failureRule === null) return null;
  const refusal = { rule: prediction.failureRule, stage: 'actual' as const };
  const fixed = fixedCase(fields, refusal, {
    method: plan.planned.method,
    headers: unsafeHeaderNames(plan.planned.headers),
  });
  return {
    summary: fixForRefusal(refusal, origin, plan.planned.method).summary,
    fields: Object.fromEntries(fixed),
  };
}

/**
 * The server's own refusal that is not CORS (the lab's Fetch-metadata protection answered 403),
 * in words, or null. What the server saw decides it, not the prediction: the request arrived and
 * was refused before the handler.
 */
function notCorsRefusal(plan: CasePlan, evidence: ServerEvidence): string | null {
  const request = evidence.request;
  if (plan.scenario.protect !== 'fetch-metadata' || request?.status !== 403) return null;
  const told = request.secFetch.site
    ? `Sec-Fetch-Site: ${request.secFetch.site}`
    : `no Sec-Fetch-Site (not a trustworthy URL), so its Origin: ${request.origin ?? 'none'}`;
  return `Not CORS: the request reached the server, whose Fetch-metadata protection refused it (403) before the handler ran, because the browser said ${told}. Only the server's own origin may send it a ${request.method}; no Access-Control header changes that. The fix is on the server: let this origin through the protection (Go: AddTrustedOrigin), or send the request from the server's own origin.`;
}

/** Everything a run gathered, for the verdict. */
export interface CaseRun {
  plan: CasePlan;
  prediction: Prediction;
  observed: Observed;
  cookie: CookieCheck | null;
  evidence: ServerEvidence;
  /** For a revalidation case: whether the second request was answered 304 (null: not such a case, or not seen). */
  revalidated: boolean | null;
}

/**
 * Why the page could or could not read the answer, and whether the browser did what the spec
 * predicts; the run in the shape the engine records keep goes into #agreement's data-observed
 * (e2e reads it from there).
 */
export function showVerdict(page: { origin: string; engine: EngineFamily }, run: CaseRun): void {
  const { plan, prediction, observed, cookie, evidence } = run;
  const { planned, scenario } = plan;
  const explanation = explain(
    {
      pageOrigin: page.origin,
      method: planned.method,
      headers: planned.headers.map(([n]) => n),
      credentials: planned.credentials,
      read: observed.readable,
    },
    { preflight: evidence.preflight ?? undefined, actual: evidence.request ?? undefined },
  );
  const why = byId('why');
  const protection = notCorsRefusal(plan, evidence);
  why.textContent = observed.readable
    ? `The page could read the answer: ${protection ? 'CORS let it through.' : 'every check passed.'}`
    : `${explanation.text}${explanation.handled ? ` The handler ran (status ${explanation.status}).` : ' The handler did not run.'}`;
  if (protection) why.append(h('br'), protection);
  // A redirect or a revalidation: the server's first answer is not the one that failed, so the
  // prediction, which follows every answer, says why.
  const later = observed.readable ? null : laterAnswerFix(plan, prediction, page.origin);
  if (later) {
    why.textContent = `${prediction.failure ?? later.summary} The handler ran.`;
    const fixed = new URLSearchParams(plan.fields);
    for (const [name, value] of Object.entries(later.fields)) fixed.set(name, value);
    why.append(
      h('br'),
      h('strong', {}, 'The fix: '),
      later.summary,
      ' ',
      h('a', { id: 'fix-link', href: `#${plan.fragmentOf(fixed)}` }, 'Load the fixed case'),
      ' (then send it again).',
    );
  }
  // The smallest fix, in words and as the same case fixed: one click away, to send again.
  const { refusal } = explanation;
  // (A no-cors answer is opaque whatever its headers: there is nothing for the server to fix.)
  if (!later && !observed.readable && refusal && planned.mode === 'cors') {
    const unsafe = unsafeHeaderNames(planned.headers);
    const fix = fixForRefusal(refusal, page.origin, planned.method);
    const fixed = plan.fragmentOf(fixedCase(plan.fields, refusal, { method: planned.method, headers: unsafe }));
    why.append(
      h('br'),
      h('strong', {}, 'The fix: '),
      fix.summary,
      ' ',
      h('a', { id: 'fix-link', href: `#${fixed}` }, 'Load the fixed case'),
      ' (then send it again).',
    );
  }

  // X-Lab-Extra is compared only when the case sets it and both sides say the answer is readable.
  const extraSeen =
    scenario.extraHeader !== null && observed.readable ? observed.headers.includes(EXTRA_HEADER_NAME) : null;
  const extraExpected =
    scenario.extraHeader !== null && prediction.visibleHeaders
      ? prediction.visibleHeaders.includes(EXTRA_HEADER_NAME)
      : null;
  const seen = { preflight: evidence.preflight !== null, sent: evidence.request !== null, readable: observed.readable };
  const expected = { preflight: prediction.preflight.sent, sent: prediction.sent, readable: prediction.readable };
  const agrees =
    seen.preflight === expected.preflight &&
    seen.sent === expected.sent &&
    seen.readable === expected.readable &&
    (extraSeen === null || extraExpected === null || extraSeen === extraExpected);
  const known = agrees ? null : knownDifference(page.engine, plan, prediction, seen, run.revalidated);
  const agreement = byId('agreement');
  agreement.dataset.state = agrees ? 'agree' : known ? 'known-difference' : 'disagree';
  // The run in the shape the engine records keep (e2e reads it from here).
  const outcome: EngineOutcome = {
    ...seen,
    status: observed.status,
    extraVisible: extraSeen,
    cookieReturned: cookie?.returned ?? null,
    agreement: agrees ? 'agree' : known ? 'known-difference' : 'disagree',
  };
  agreement.dataset.observed = JSON.stringify({
    predicted: { ...expected, extraVisible: extraExpected, failureRule: prediction.failureRule },
    observed: { ...seen, extraVisible: extraSeen },
    status: observed.status,
    rule: explanation.rule,
    outcome,
  });
  agreement.textContent = agrees
    ? '\u2714 The browser did what the spec predicts.'
    : known
      ? `\u2248 A known engine difference: ${known}`
      : `\u2718 The browser differs from the prediction: predicted ${JSON.stringify(expected)}, observed ${JSON.stringify(seen)}.`;
}
