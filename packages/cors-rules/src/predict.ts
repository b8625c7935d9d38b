import type { LabCorsPolicy, LabCorsScenario, LabHeaderList } from '@origin-lab/contract';
import { isSafelistedRequestHeader, isSafelistedResponseHeader, needsPreflight } from './safelist.js';

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
  /** Response headers script may read, by name; null when nothing is readable. */
  visibleHeaders: string[] | null;
}

const SIMPLE_METHODS = ['GET', 'HEAD', 'POST'];

/** The failure the spec names when Authorization is sent under Access-Control-Allow-Headers: *. */
export const AUTHORIZATION_UNDER_WILDCARD =
  'Authorization is not covered by Access-Control-Allow-Headers: *; it must be named';

const listHas = (list: LabHeaderList, name: string, credentials: boolean) =>
  list !== null &&
  (list === '*'
    ? !credentials
    : list.some((item) => item.toLowerCase() === name.toLowerCase() || (item === '*' && !credentials)));

/** The CORS check of one answer: whether its Access-Control-Allow-* let this origin read it. */
function corsCheck(policy: LabCorsPolicy, credentials: boolean): string | null {
  switch (policy.allowOrigin) {
    case 'none':
      return 'the answer has no Access-Control-Allow-Origin';
    case 'other':
      return 'Access-Control-Allow-Origin names another origin';
    case 'two':
      return 'Access-Control-Allow-Origin holds two values; it must hold exactly one';
    case '*':
      if (credentials)
        return 'Access-Control-Allow-Origin is * and the request carries credentials: * is not allowed then';
      break;
    case 'origin':
      break;
  }
  if (credentials && !policy.allowCredentials)
    return 'the request carries credentials and the answer has no Access-Control-Allow-Credentials: true';
  return null;
}

/** The limit on all safelisted header values together, in bytes. */
const SAFELISTED_TOTAL_LIMIT = 1024;

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
  if (!SIMPLE_METHODS.includes(request.method.toUpperCase()))
    return `the method ${request.method} is not GET, HEAD or POST`;
  let total = 0;
  for (const [name, value] of request.headers) {
    if (!isSafelistedRequestHeader(name, value)) {
      const bytes = new TextEncoder().encode(value).length;
      return bytes > 128 &&
        ['accept', 'accept-language', 'content-language', 'content-type'].includes(name.toLowerCase())
        ? `the ${name} value is ${bytes} bytes, over 128`
        : `the header ${name}: ${value.slice(0, 60)} is not CORS-safelisted`;
    }
    total += new TextEncoder().encode(value).length;
  }
  if (total > SAFELISTED_TOTAL_LIMIT)
    return `the safelisted header values add up to ${total} bytes, over ${SAFELISTED_TOTAL_LIMIT}`;
  return needsPreflight(request.method, request.headers) ? 'it is not a simple request' : null;
}

/** Whether the preflight's answer lets the request follow. */
function preflightCheck(request: PlannedRequest, policy: LabCorsPolicy, status: number): string | null {
  if (status === 301) return 'the preflight was redirected (301): a preflight may not be';
  if (status < 200 || status > 299) return `the preflight answered ${status}, not 2xx`;
  const originFailure = corsCheck(policy, request.credentials);
  if (originFailure) return `preflight: ${originFailure}`;
  const method = request.method.toUpperCase();
  if (!SIMPLE_METHODS.includes(method) && !listHas(policy.allowMethods, method, request.credentials))
    return `the method ${method} is not in Access-Control-Allow-Methods${policy.allowMethods === '*' && request.credentials ? ' (* means any method only without credentials)' : ''}`;
  for (const [name, value] of request.headers) {
    if (isSafelistedRequestHeader(name, value)) continue;
    const lower = name.toLowerCase();
    // Authorization is never covered by the wildcard: it must be named.
    const allowed =
      lower === 'authorization'
        ? policy.allowHeaders !== null && policy.allowHeaders !== '*' && listHas(policy.allowHeaders, name, true)
        : listHas(policy.allowHeaders, name, request.credentials);
    if (!allowed)
      return lower === 'authorization' && policy.allowHeaders === '*'
        ? AUTHORIZATION_UNDER_WILDCARD
        : `the header ${lower} is not in Access-Control-Allow-Headers`;
  }
  return null;
}

/** The response headers script can read: the safelisted ones, plus what Access-Control-Expose-Headers adds. */
function visibleHeaders(policy: LabCorsPolicy, credentials: boolean, answerHeaders: readonly string[]): string[] {
  return answerHeaders.filter((name) => {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie' || lower === 'set-cookie2') return false;
    if (isSafelistedResponseHeader(lower)) return true;
    return listHas(policy.exposeHeaders, lower, credentials);
  });
}

/**
 * no-cors: never a preflight and never a readable answer. A method other than GET, HEAD or POST,
 * or a body that would need a preflight, makes fetch reject before sending; headers that are not
 * safelisted are dropped silently (the Headers object of a no-cors request refuses them).
 */
function predictNoCors(request: PlannedRequest): Prediction {
  const preflight = { sent: false, why: 'no-cors never preflights', passes: null, failure: null };
  const refused = !SIMPLE_METHODS.includes(request.method.toUpperCase())
    ? `the method ${request.method} is not GET, HEAD or POST`
    : request.forcedPreflight;
  if (refused)
    return {
      preflight,
      sent: false,
      readable: false,
      failure: `no-cors allows only GET, HEAD and POST with simple bodies, and ${refused}: fetch rejects before sending`,
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
      visibleHeaders: answerHeaders.filter((name) => !['set-cookie', 'set-cookie2'].includes(name.toLowerCase())),
    };

  if (request.mode === 'no-cors') return predictNoCors(request);
  const reason = preflightReason(request);
  let preflight: Prediction['preflight'] = {
    sent: false,
    why: 'a simple request: no preflight',
    passes: null,
    failure: null,
  };
  if (reason) {
    const failure = preflightCheck(request, scenario.preflight, scenario.preflightStatus);
    preflight = { sent: true, why: `preflighted because ${reason}`, passes: failure === null, failure };
    if (failure) return { preflight, sent: false, readable: false, failure, visibleHeaders: null };
  }
  const failure = corsCheck(scenario.actual, request.credentials);
  return {
    preflight,
    sent: true,
    readable: failure === null,
    failure,
    visibleHeaders: failure === null ? visibleHeaders(scenario.actual, request.credentials, answerHeaders) : null,
  };
}
