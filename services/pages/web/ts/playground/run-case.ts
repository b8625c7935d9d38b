import {
  LAB_DEFAULT_POLICY,
  LAB_DEFAULT_SCENARIO,
  LAB_DEMO_COOKIE,
  labCorsUrl,
  type LabCorsReflection,
} from '@origin-lab/contract';
import { marker } from '../frame/dom.js';
import type { PageContext } from '../page/setup-page.js';
import { attempt } from '../probes/attempt.js';
import { markedUrl, serverEntries, serverEvidence } from '../probes/journal.js';
import { sendXhr } from '../probes/xhr.js';
import { tagUrl } from '../server-view/visitor.js';
import { predict } from '@origin-lab/cors-rules';
import {
  showCookie,
  showObserved,
  showPrediction,
  showServer,
  showVerdict,
  type CookieCheck,
  type Observed,
} from './explain-case.js';
import { LAB_ANSWER_HEADERS, type CasePlan } from './plan-case.js';

/**
 * Running a case: predict, send with fetch or XHR as the form says, check the demo cookie, ask
 * the journal what reached the server, and show each step as it comes (explain-case.ts).
 */

/** How long to wait for the server's entries of a request the page already has the outcome of. */
const EVIDENCE_WAIT_MS = 3_000;

/** What the page saw of an answer it could not read: a status (0, or null when none came) and why. */
const unread = (status: number | null, error: string): Observed => ({
  readable: false,
  status,
  headers: [],
  body: '',
  error,
});

/** Sends with the page's own headers (not the browser's Content-Type), as the form says: fetch or XHR. */
async function send(plan: CasePlan): Promise<Observed> {
  const { url, planned, body, sentHeaders: headers } = plan;
  const { method, credentials } = planned;
  if (plan.api === 'xhr') {
    const outcome = await sendXhr(method, url, {
      headers,
      withCredentials: credentials,
      ...(plan.uploadListener ? { uploadListener: plan.uploadListener } : {}),
      body: body.value instanceof ReadableStream ? null : (body.value as XMLHttpRequestBodyInit | null),
    });
    const names = outcome.headers
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
    return {
      readable: outcome.status !== 0,
      status: outcome.status,
      headers: names,
      body: outcome.responseText,
      error: outcome.status === 0 ? `status 0, events: ${outcome.events.join(', ')}` : null,
    };
  }
  if (plan.from !== 'page') return sendOpaque(plan);
  const result = await attempt(() =>
    fetch(url, {
      method,
      headers,
      credentials: credentials ? 'include' : 'same-origin',
      mode: planned.mode,
      redirect: planned.redirectMode ?? 'follow',
      body: body.value,
      ...(body.value instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  );
  if (!result.ok) return unread(null, `fetch rejected: ${result.error}`);
  const response = result.value;
  if (response.type === 'opaqueredirect')
    return unread(0, 'an opaque-redirect answer (redirect: "manual"): status 0, the redirect not followed');
  if (response.type === 'opaque') return unread(0, 'an opaque answer (no-cors): status 0, nothing to read');
  return {
    readable: true,
    status: response.status,
    headers: [...response.headers.keys()],
    body: await response.text(),
    error: null,
  };
}

/** Sends the case from a sandboxed frame or a data: URL worker (opaque-sender.ts): Origin: null. */
async function sendOpaque(plan: CasePlan): Promise<Observed> {
  const { url, planned, body, sentHeaders: headers } = plan;
  const value = body.value;
  if (value !== null && typeof value !== 'string' && !(value instanceof Blob))
    return unread(
      null,
      'not sent: from a sandboxed frame or a worker the playground sends a string, JSON or Blob body only',
    );
  const { sendFromOpaqueOrigin } = await import('./opaque-sender.js');
  // The page's own fetch tags its lab URLs with the visitor token for the journal; the opaque sender's does not.
  const tagged = tagUrl(url, [new URL(url).origin]);
  const reply = await sendFromOpaqueOrigin(plan.from as 'sandbox' | 'worker', tagged, {
    method: planned.method,
    headers,
    credentials: planned.credentials ? 'include' : 'same-origin',
    mode: planned.mode,
    redirect: planned.redirectMode ?? 'follow',
    body: value,
  });
  if (!reply.ok) return unread(null, `fetch rejected: ${reply.error ?? ''}`);
  if (reply.type === 'opaque' || reply.type === 'opaqueredirect')
    return unread(0, `an ${reply.type} answer: status 0, nothing to read`);
  return {
    readable: true,
    status: reply.status ?? null,
    headers: reply.headers ?? [],
    body: reply.body ?? '',
    error: null,
  };
}

/** The value of the demo cookie in a lab reflection's Cookie header, if it came. */
const DEMO_COOKIE = new RegExp(`(?:^|;\\s*)${LAB_DEMO_COOKIE}=([^;]*)`);

/**
 * Whether the demo cookie this run set comes back: a second credentialed request to the same
 * lab origin, whose reflection shows the demo cookie it carried. The cookie's value is the
 * first request's mark, so an older demo cookie is told apart.
 */
async function cookieComesBack(origin: string, setBy: string): Promise<CookieCheck> {
  const credentialed = { ...LAB_DEFAULT_POLICY, allowCredentials: true };
  const lab = labCorsUrl(origin, { ...LAB_DEFAULT_SCENARIO, preflight: credentialed, actual: credentialed });
  const url = markedUrl(lab, marker('playground-cookie'));
  const result = await attempt(async () => {
    const answer = await fetch(url, { credentials: 'include' });
    return (await answer.json()) as LabCorsReflection;
  });
  if (!result.ok) return { returned: false, note: `the follow-up request failed: ${result.error}` };
  const cookie = String(result.value.headers.cookie ?? '');
  const value = DEMO_COOKIE.exec(cookie)?.[1];
  if (value === setBy) return { returned: true, note: 'The demo cookie came back on the next credentialed request.' };
  if (value !== undefined)
    return {
      returned: false,
      note: 'An older demo cookie came back on the next request, not this one: this one was not kept.',
    };
  return { returned: false, note: 'No demo cookie came back on the next credentialed request.' };
}

/** Runs one planned case and shows each step: prediction, the page's view, the cookie, the server's view, the verdict. */
export async function runCase(ctx: PageContext, plan: CasePlan): Promise<void> {
  const prediction = predict(plan.planned, plan.scenario, LAB_ANSWER_HEADERS);
  showPrediction(plan, prediction);
  // Revalidation: the first answer fills the browser's cache, the same request again is answered 304.
  const revalidating = plan.scenario.revalidate !== 'off';
  if (revalidating) await send(plan);
  const observed = await send(plan);
  showObserved(observed);
  const cookie = plan.scenario.cookie === 'off' ? null : await cookieComesBack(plan.origin, plan.mark);
  showCookie(cookie);
  const evidence = await serverEvidence(ctx.journal, plan.mark, prediction.sent ? EVIDENCE_WAIT_MS : 0);
  // A redirect the browser followed arrives as more requests under the same mark: the hops after the first.
  // A revalidation sent the request twice, on purpose.
  const more = plan.scenario.redirectTo !== null ? 'After the redirect' : revalidating ? 'Sent again' : null;
  const after =
    more === null || evidence.request === null
      ? []
      : (
          await serverEntries(ctx.journal, plan.mark, revalidating ? 2 : (prediction.arrivals ?? 1), EVIDENCE_WAIT_MS)
        ).slice(evidence.preflight ? 2 : 1);
  showServer(evidence, after, more ?? '');
  const revalidated = revalidating && after.length > 0 ? after.some((entry) => entry.status === 304) : null;
  showVerdict(
    { origin: ctx.site.self, engine: ctx.engine },
    { plan, prediction, observed, cookie, evidence, revalidated },
  );
}
