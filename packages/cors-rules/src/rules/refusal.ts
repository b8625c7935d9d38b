/**
 * Why an engine refuses a cross-origin read, from the exchange alone: the request the page made
 * and the answers the server gave (its preflight, its actual answer). The Fetch standard's two
 * checks, written out step by step: the CORS check of an answer (fetch.spec.whatwg.org, "CORS
 * check") and the checks of a preflight's answer ("CORS-preflight fetch"). The pages, `check` and
 * `explain` all reason with this one module.
 */

import { isSafelistedMethod, isSafelistedResponseHeader } from './safelist.js';

/** What the page asked for, as far as CORS cares. */
export interface CorsRequest {
  /** The page's origin, serialized ("null" for an opaque origin). */
  origin: string;
  /** The method as the engine sends it (fetch upper-cases only DELETE, GET, HEAD, OPTIONS, POST, PUT). */
  method: string;
  /** Names of the CORS-unsafe request headers the page set: those a preflight must allow. */
  unsafeHeaders: readonly string[];
  /** credentials: 'include' or withCredentials = true. */
  credentials: boolean;
}

/** One answer of the server: its status and its headers, names in lower case, repeated ones joined with ", ". */
export interface Answer {
  status: number;
  headers: Readonly<Record<string, string>>;
}

/** What a server answered: the preflight (when there was one) and the request itself (when it was sent). */
export interface Exchange {
  preflight?: Answer;
  actual?: Answer;
}

export type RefusalRule =
  | 'preflight-status'
  | 'preflight-redirect'
  | 'no-allow-origin'
  | 'allow-origin-list'
  | 'origin-mismatch'
  | 'wildcard-with-credentials'
  | 'credentials-not-allowed'
  | 'method-not-allowed'
  | 'header-not-allowed'
  | 'authorization-not-covered';

/** Where a rule lives in the Fetch standard, in plain words. */
export type FetchStep = 'CORS check' | 'CORS-preflight fetch';

export interface Refusal {
  rule: RefusalRule;
  /** Which answer failed. */
  stage: 'preflight' | 'actual';
  /** The header that decided it, lower case, and its value as sent (undefined: absent). */
  header?: string;
  value?: string;
  /** The step of the Fetch standard that refuses. */
  step: FetchStep;
  /** One sentence for people. */
  text: string;
  /** Whether the request itself reached the server: a failed preflight stops it. */
  requestSent: boolean;
  /** The method or request header the preflight's answer did not allow, as the request named it. */
  asked?: string;
}

/** The refusals of an answer that does not name the page's origin. */
const ORIGIN_RULES: ReadonlySet<RefusalRule> = new Set(['no-allow-origin', 'origin-mismatch', 'allow-origin-list']);

/** The comma-separated list of a header, items trimmed, empty ones dropped. */
export function headerList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** One refusal: what failed, where, and why; header and value name what decided it. A preflight's own CORS check is part of the preflight fetch. */
function refusal(
  rule: RefusalRule,
  stage: Refusal['stage'],
  text: string,
  header?: string,
  value?: string,
  asked?: string,
): Refusal {
  return {
    rule,
    stage,
    ...(header !== undefined && { header }),
    ...(value !== undefined && { value }),
    ...(asked !== undefined && { asked }),
    step: stage === 'preflight' ? 'CORS-preflight fetch' : 'CORS check',
    text,
    requestSent: stage === 'actual',
  };
}

/**
 * The CORS check of one answer (Fetch, "CORS check"): Access-Control-Allow-Origin must be * (only
 * without credentials) or exactly the page's origin, and with credentials Access-Control-Allow-
 * Credentials must be exactly "true".
 */
export function corsCheck(request: CorsRequest, answer: Answer, stage: Refusal['stage']): Refusal | null {
  const allowOrigin = answer.headers['access-control-allow-origin'];
  const credentials = answer.headers['access-control-allow-credentials'];
  const what = stage === 'preflight' ? "In the preflight's answer," : 'In the answer,';
  const origin = (rule: RefusalRule, text: string) =>
    refusal(rule, stage, `${what} ${text}`, 'access-control-allow-origin', allowOrigin);
  if (allowOrigin === undefined)
    return origin('no-allow-origin', 'there is no Access-Control-Allow-Origin: no other origin may read it.');
  if (allowOrigin === '*')
    return request.credentials
      ? origin(
          'wildcard-with-credentials',
          'Access-Control-Allow-Origin is * (any origin), which never covers a request with credentials: the origin must be named.',
        )
      : null;
  if (allowOrigin !== request.origin)
    return allowOrigin.includes(',')
      ? origin(
          'allow-origin-list',
          `Access-Control-Allow-Origin lists several origins (${allowOrigin}); it must hold exactly one.`,
        )
      : origin(
          'origin-mismatch',
          `Access-Control-Allow-Origin is ${allowOrigin}, not ${request.origin}: it must be the page's origin exactly.`,
        );
  if (request.credentials && credentials !== 'true')
    return refusal(
      'credentials-not-allowed',
      stage,
      `${what} Access-Control-Allow-Credentials is ${credentials === undefined ? 'missing' : `"${credentials}"`}; a request with credentials needs it to be exactly "true".`,
      'access-control-allow-credentials',
      credentials,
    );
  return null;
}

/**
 * The checks of a preflight's answer (Fetch, "CORS-preflight fetch"): a 2xx status and the CORS
 * check (a 403 that fails both is told as the origin's refusal), then the method and every unsafe
 * header allowed. Methods compare case-sensitively, header names
 * case-insensitively; * covers any method or header only without credentials, and never
 * Authorization.
 */
export function preflightCheck(request: CorsRequest, answer: Answer): Refusal | null {
  const { status, headers } = answer;
  if (status >= 300 && status < 400)
    return refusal(
      'preflight-redirect',
      'preflight',
      `The preflight was redirected (${status}); a preflight is never followed, so the request was not sent.`,
      'location',
      headers.location,
    );
  const failed = corsCheck(request, answer, 'preflight');
  // Fetch wants both an ok status and a passing CORS check, in no order. A 403 that also fails
  // the origin check is the server refusing this origin (CORS middlewares such as Spring's, and
  // this project's api, answer so): the origin is what to change, not the status.
  if (status === 403 && failed && ORIGIN_RULES.has(failed.rule))
    return {
      ...failed,
      text: `The preflight was answered 403, ${failed.rule === 'no-allow-origin' ? 'without Access-Control-Allow-Origin' : `with Access-Control-Allow-Origin ${failed.value}`}: the server refuses the origin ${request.origin} (if that origin is on its list, something before its CORS code answered).`,
    };
  if (status < 200 || status > 299)
    return refusal(
      'preflight-status',
      'preflight',
      `The preflight was answered ${status}; only 200 or 204 (any 2xx) lets the request follow, so it was not sent.`,
    );
  if (failed) return failed;
  const starNote = 'allows *, which does not hold with credentials:';
  const methods = headerList(headers['access-control-allow-methods']);
  const { method } = request;
  if (!isSafelistedMethod(method) && !(methods.includes('*') && !request.credentials) && !methods.includes(method)) {
    const caseOnly = methods.find((listed) => listed.toUpperCase() === method.toUpperCase());
    const text = caseOnly
      ? `lists ${caseOnly}, not ${method}: methods compare byte for byte.`
      : methods.includes('*')
        ? `${starNote} ${method} must be named in Access-Control-Allow-Methods.`
        : `does not list ${method} in Access-Control-Allow-Methods.`;
    return refusal(
      'method-not-allowed',
      'preflight',
      `The preflight's answer ${text}`,
      'access-control-allow-methods',
      headers['access-control-allow-methods'],
      method,
    );
  }
  const allowed = headerList(headers['access-control-allow-headers']).map((name) => name.toLowerCase());
  for (const name of request.unsafeHeaders) {
    const lower = name.toLowerCase();
    if (allowed.includes(lower) || (allowed.includes('*') && !request.credentials && lower !== 'authorization'))
      continue;
    const value = headers['access-control-allow-headers'];
    if (lower === 'authorization' && allowed.includes('*'))
      return refusal(
        'authorization-not-covered',
        'preflight',
        "The preflight's answer allows any header (*), but * never covers Authorization: it must be named in Access-Control-Allow-Headers.",
        'access-control-allow-headers',
        value,
        name,
      );
    const text = allowed.includes('*')
      ? `${starNote} ${name} must be named in Access-Control-Allow-Headers.`
      : `does not list the request header ${name} in Access-Control-Allow-Headers.`;
    return refusal(
      'header-not-allowed',
      'preflight',
      `The preflight's answer ${text}`,
      'access-control-allow-headers',
      value,
      name,
    );
  }
  return null;
}

/**
 * The refusal an exchange leads to, or null when the page may read the answer: the preflight's
 * checks when there was one, then the CORS check of the answer. An exchange without the answer
 * it needs (a preflight-less record of a preflighted request, say) says nothing of that step.
 */
export function refusalOf(request: CorsRequest, exchange: Exchange): Refusal | null {
  if (exchange.preflight) {
    const failed = preflightCheck(request, exchange.preflight);
    if (failed) return failed;
  }
  return exchange.actual ? corsCheck(request, exchange.actual, 'actual') : null;
}

/** Whether an answer that depends on the request's Origin says so in Vary (a shared cache may serve it to another origin otherwise). */
export function variesByOrigin(answer: Answer): boolean {
  const vary = headerList(answer.headers.vary).map((name) => name.toLowerCase());
  return vary.includes('origin') || vary.includes('*');
}

/**
 * The names of an answer's headers that script may read across origins (Fetch, "CORS-exposed
 * header-name list"): the CORS-safelisted response headers, and what Access-Control-Expose-
 * Headers names, where * names every header only without credentials. Never Set-Cookie.
 */
export function exposedHeaderNames(answer: Answer, credentials: boolean, names: readonly string[]): string[] {
  const exposed = headerList(answer.headers['access-control-expose-headers']).map((name) => name.toLowerCase());
  const all = exposed.includes('*') && !credentials;
  return names.filter((name) => {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie' || lower === 'set-cookie2') return false;
    return isSafelistedResponseHeader(lower) || all || exposed.includes(lower);
  });
}
