import { labPolicyHeaders, labRedirectPolicy, type LabCorsScenario } from '@origin-lab/contract';
import { fetchMetadataRefusal } from '@origin-lab/contract/fetch-metadata';
import { corsCheck, exposedHeaderNames, preflightCheck, type CorsRequest, type RefusalRule } from './refusal.js';
import {
  isSafelistedMethod,
  isSafelistedRequestHeader,
  needsPreflight,
  normalizeMethod,
  SAFELISTED_TOTAL_LIMIT,
  SAFELISTED_VALUE_LIMIT,
  unsafeHeaderNames,
} from './safelist.js';

/** What the page sends, as the playground's form describes it (body already turned into its Content-Type). */
export interface PlannedRequest {
  method: string;
  /** Headers the page's code sets, in order (a body's own Content-Type included). */
  headers: [string, string][];
  /** credentials: 'include' or withCredentials. */
  credentials: boolean;
  mode: 'cors' | 'no-cors';
  /** A body that forces a preflight whatever its headers (a ReadableStream, an upload listener). */
  forcedPreflight: string | null;
  crossOrigin: boolean;
  /** fetch's redirect mode (XMLHttpRequest always follows). */
  redirectMode?: 'follow' | 'manual' | 'error';
  /**
   * The page's origin and the lab's, as the scenario's redirectTo names origins: which one a
   * redirect goes to decides the final request's Origin. Without them a redirect stays on the lab's origin.
   */
  origins?: { page: string; lab: string };
  /** Sent from an opaque origin (a sandboxed frame, a data: URL worker): Origin: null. */
  opaqueOrigin?: boolean;
}

/** What the spec says will happen, each step with its reason. */
export interface Prediction {
  /** null when no request can be sent at all (no-cors with a non-simple request). */
  preflight: { sent: boolean; why: string; passes: boolean | null; failure: string | null };
  /** Whether the actual request reaches the server. */
  sent: boolean;
  /** Whether the page may read the answer (status, body, headers). */
  readable: boolean;
  failure: string | null;
  /** The rule of the refusal (refusal.ts), when the CORS rules refuse; null otherwise (and for no-cors). */
  failureRule: RefusalRule | null;
  /** Response headers script may read, by name; null when nothing is readable. */
  visibleHeaders: string[] | null;
  /** Requests (not preflights) that reach the server, where a redirect makes it more than one. */
  arrivals?: number;
  /**
   * A refusal by the server itself that is not CORS (the lab's Fetch-metadata protection): the
   * status it answers and why. The CORS check still decides whether the page reads that answer.
   */
  serverRefusal?: { status: number; why: string };
}

/**
 * The page's origin as the prediction writes it into the lab's answers: any origin does, since
 * the lab's `origin` reflects whichever one asks.
 */
const PAGE = 'https://page.example';
/** The lab's host as the prediction writes it: any host other than the page's. */
const LAB_HOST = 'lab.example';

/** The lab's answer to a request from origin (the page's, or "null" once a redirect tainted it), as the CORS rules read it. */
const labAnswer = (policy: LabCorsScenario['actual'], status: number, origin: string) => ({
  status,
  headers: labPolicyHeaders(policy, origin),
});

/**
 * Whether the only thing that makes these headers unsafe is their total: each one safelisted,
 * together over 1024 bytes. Only a name written more than once can get there.
 */
export function onlyOverSafelistedTotal(headers: readonly [string, string][]): boolean {
  if (!headers.every(([name, value]) => isSafelistedRequestHeader(name, value))) return false;
  return headers.reduce((sum, [, value]) => sum + new TextEncoder().encode(value).length, 0) > SAFELISTED_TOTAL_LIMIT;
}

/** Why a request preflights: the first thing about it that is not simple. */
function preflightReason(request: PlannedRequest): string | null {
  if (request.forcedPreflight) return request.forcedPreflight;
  if (!isSafelistedMethod(normalizeMethod(request.method)))
    return `the method ${request.method} is not GET, HEAD or POST`;
  let total = 0;
  for (const [name, value] of request.headers) {
    if (!isSafelistedRequestHeader(name, value)) {
      const bytes = new TextEncoder().encode(value).length;
      return bytes > SAFELISTED_VALUE_LIMIT &&
        ['accept', 'accept-language', 'content-language', 'content-type'].includes(name.toLowerCase())
        ? `the ${name} value is ${bytes} bytes, over ${SAFELISTED_VALUE_LIMIT}`
        : `the header ${name}: ${value.slice(0, 60)} is not CORS-safelisted`;
    }
    total += new TextEncoder().encode(value).length;
  }
  if (total > SAFELISTED_TOTAL_LIMIT)
    return `the safelisted header values add up to ${total} bytes, over ${SAFELISTED_TOTAL_LIMIT}`;
  return needsPreflight(request.method, request.headers) ? 'it is not a simple request' : null;
}

/**
 * no-cors: never a preflight and never a readable answer. A method other than GET, HEAD or POST,
 * or a body that would need a preflight, makes fetch reject before sending; headers that are not
 * safelisted are dropped silently (the Headers object of a no-cors request refuses them).
 */
function predictNoCors(request: PlannedRequest): Prediction {
  const preflight = { sent: false, why: 'no-cors never preflights', passes: null, failure: null };
  const refused = !isSafelistedMethod(normalizeMethod(request.method))
    ? `the method ${request.method} is not GET, HEAD or POST`
    : request.forcedPreflight;
  if (refused)
    return {
      preflight,
      sent: false,
      readable: false,
      failure: `no-cors allows only GET, HEAD and POST with simple bodies, and ${refused}: fetch rejects before sending`,
      failureRule: null,
      visibleHeaders: null,
    };
  const dropped = request.headers
    .filter(([name, value]) => !isSafelistedRequestHeader(name, value))
    .map(([name]) => name);
  return {
    preflight,
    sent: true,
    readable: false,
    failure: `no-cors: the answer is opaque (status 0, no headers, no body) whatever the server said${dropped.length ? `; ${dropped.join(', ')} dropped before sending` : ''}`,
    failureRule: null,
    visibleHeaders: null,
  };
}

/**
 * What the spec predicts for request against the lab's scenario: whether a preflight goes out
 * and why, whether it passes, whether the request is sent and the answer readable, and which of
 * answerHeaders (the names the answer will carry) script may read.
 */
export function predict(
  request: PlannedRequest,
  scenario: LabCorsScenario,
  answerHeaders: readonly string[],
): Prediction {
  if (!request.crossOrigin)
    return {
      preflight: { sent: false, why: 'same-origin requests never preflight', passes: null, failure: null },
      sent: true,
      readable: true,
      failure: null,
      failureRule: null,
      visibleHeaders: answerHeaders.filter((name) => !['set-cookie', 'set-cookie2'].includes(name.toLowerCase())),
    };

  if (request.mode === 'no-cors') return predictNoCors(request);
  const asked: CorsRequest = {
    // A sandboxed frame's or a data: URL worker's origin is opaque: it says Origin: null.
    origin: request.opaqueOrigin ? 'null' : PAGE,
    method: normalizeMethod(request.method),
    unsafeHeaders: unsafeHeaderNames(request.headers),
    credentials: request.credentials,
  };
  const reason = preflightReason(request);
  let preflight: Prediction['preflight'] = {
    sent: false,
    why: 'a simple request: no preflight',
    passes: null,
    failure: null,
  };
  if (reason) {
    const refused = preflightCheck(asked, labAnswer(scenario.preflight, scenario.preflightStatus, asked.origin));
    const failure = refused?.text ?? null;
    preflight = { sent: true, why: `preflighted because ${reason}`, passes: refused === null, failure };
    if (refused)
      return { preflight, sent: false, readable: false, failure, failureRule: refused.rule, visibleHeaders: null };
  }
  // The protection runs before the handler, so before any redirect: a cross-origin request, whether
  // the browser says so in Sec-Fetch-Site or only by its Origin (plain HTTP), is refused alike.
  const protectedBy =
    scenario.protect === 'fetch-metadata'
      ? fetchMetadataRefusal({ method: asked.method, secFetchSite: 'cross-site', origin: asked.origin, host: LAB_HOST })
      : null;
  if (protectedBy) {
    const answer = labAnswer(scenario.actual, 403, asked.origin);
    return {
      ...checkedAnswer(request, answerHeaders, preflight, answer, corsCheck(asked, answer, 'actual')),
      serverRefusal: {
        status: 403,
        why: `the server's Fetch-metadata protection refuses a ${asked.method} that is not same-origin, before its handler runs (not CORS: no CORS header lets it through)`,
      },
    };
  }
  if (scenario.redirectTo !== null)
    return predictRedirect(request, scenario, answerHeaders, { asked, reason, preflight });
  const revalidated = scenario.revalidate !== 'off' && ['GET', 'HEAD'].includes(asked.method);
  const answer = revalidated
    ? revalidatedAnswer(scenario, asked.origin)
    : labAnswer(scenario.actual, 200, asked.origin);
  const checked = corsCheck(asked, answer, 'actual');
  const refused =
    checked && revalidated
      ? { ...checked, text: `The 304's headers replace the kept answer's: ${checked.text}` }
      : checked;
  return checkedAnswer(request, answerHeaders, preflight, answer, refused);
}

/** A request sent and answered: the page reads answer (the headers script sees) unless the CORS check refused it. */
function checkedAnswer(
  request: PlannedRequest,
  answerHeaders: readonly string[],
  preflight: Prediction['preflight'],
  answer: ReturnType<typeof labAnswer>,
  refused: ReturnType<typeof corsCheck>,
): Prediction {
  return {
    preflight,
    sent: true,
    readable: refused === null,
    failure: refused?.text ?? null,
    failureRule: refused?.rule ?? null,
    visibleHeaders: refused === null ? exposedHeaderNames(answer, request.credentials, answerHeaders) : null,
  };
}

/**
 * The answer a page reads when it sends a kept answer's request again and the lab says 304 (HTTP
 * caching, RFC 9111 section 4.3.4): the kept answer, its headers updated with those the 304
 * carries. A 304 without CORS headers leaves the kept ones; one that names another origin replaces them.
 */
function revalidatedAnswer(scenario: LabCorsScenario, origin: string) {
  const kept = labPolicyHeaders(scenario.actual, origin);
  const fresh =
    scenario.revalidate === 'cors'
      ? kept
      : scenario.revalidate === 'other'
        ? labPolicyHeaders({ ...scenario.actual, allowOrigin: 'other' }, origin)
        : {};
  return { status: 200, headers: { ...kept, ...fresh } };
}

/**
 * A CORS request the lab answers with a 307 (Fetch, "HTTP-redirect fetch"). The redirect answer
 * gets the CORS check like any other; fetch's redirect mode may stop there; a Location with a
 * user name and password is refused to a CORS request unless it stays on the page's origin; a
 * hop from another origin to a third one taints the request's origin, so the final request says
 * `Origin: null` (and preflights again, to the new URL, when the request preflighted at all).
 */
function predictRedirect(
  request: PlannedRequest,
  scenario: LabCorsScenario,
  answerHeaders: readonly string[],
  first: { asked: CorsRequest; reason: string | null; preflight: Prediction['preflight'] },
): Prediction {
  const { asked, reason, preflight } = first;
  const stopped = (failure: string, failureRule: RefusalRule | null = null): Prediction => ({
    preflight,
    sent: true,
    readable: false,
    failure,
    failureRule,
    visibleHeaders: null,
    arrivals: 1,
  });
  const hop = {
    status: 307,
    headers: scenario.redirectCors ? labPolicyHeaders(labRedirectPolicy(scenario.actual), asked.origin) : {},
  };
  const hopRefused = corsCheck(asked, hop, 'actual');
  if (hopRefused) return stopped(`At the redirect (307): ${hopRefused.text}`, hopRefused.rule);
  if (request.redirectMode === 'error')
    return stopped('redirect: "error": fetch rejects at the first redirect, which it does not follow');
  if (request.redirectMode === 'manual')
    return stopped(
      'redirect: "manual": the page gets an opaque-redirect answer (status 0, no headers), and the redirect is not followed',
    );
  const { page, lab } = request.origins ?? { page: PAGE, lab: scenario.redirectTo };
  const location = scenario.redirectTo ?? lab;
  if (scenario.redirectUserinfo && location !== page)
    return stopped(
      "The redirect's URL holds a user name and password: a CORS request refuses to follow one to another origin than the page's",
    );
  const tainted = location !== lab && page !== lab;
  const origin = tainted ? 'null' : asked.origin;
  const again: CorsRequest = { ...asked, origin };
  let second = preflight;
  if (reason) {
    const refused = preflightCheck(again, labAnswer(scenario.preflight, scenario.preflightStatus, origin));
    second = {
      sent: true,
      why: `${preflight.why}; preflighted again after the redirect, to the new URL${tainted ? ', with Origin: null' : ''}`,
      passes: refused === null,
      failure: refused?.text ?? null,
    };
    if (refused)
      return {
        preflight: second,
        sent: true,
        readable: false,
        failure: `After the redirect: ${refused.text}`,
        failureRule: refused.rule,
        visibleHeaders: null,
        arrivals: 1,
      };
  }
  const answer = labAnswer(scenario.actual, 200, origin);
  const refused = corsCheck(again, answer, 'actual');
  const taint = tainted
    ? "The redirect went from the lab's origin to another, so the final request carries Origin: null. "
    : '';
  return {
    preflight: second,
    sent: true,
    readable: refused === null,
    failure: refused ? `${taint}${refused.text}` : null,
    failureRule: refused?.rule ?? null,
    visibleHeaders: refused === null ? exposedHeaderNames(answer, request.credentials, answerHeaders) : null,
    arrivals: 2,
  };
}
