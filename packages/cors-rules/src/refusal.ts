/**
 * Why an engine refuses a cross-origin read, from the exchange alone: the request the page made
 * and the answers the server gave (its preflight, its actual answer). The Fetch standard's two
 * checks, written out step by step: the CORS check of an answer (fetch.spec.whatwg.org, "CORS
 * check") and the checks of a preflight's answer ("CORS-preflight fetch"). The pages, `check` and
 * `explain` all reason with this one module.
 */

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
}

/** Methods that a preflight answer never needs to list. */
const SAFELISTED_METHODS = ['GET', 'HEAD', 'POST'];

/** The comma-separated list of a header, items trimmed, empty ones dropped. */
export function headerList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The CORS check of one answer (Fetch, "CORS check"): Access-Control-Allow-Origin must be * (only
 * without credentials) or exactly the page's origin, and with credentials Access-Control-Allow-
 * Credentials must be exactly "true".
 */
export function corsCheck(request: CorsRequest, answer: Answer, stage: Refusal['stage']): Refusal | null {
  const allowOrigin = answer.headers['access-control-allow-origin'];
  const what = stage === 'preflight' ? "The preflight's answer" : 'The answer';
  const requestSent = stage === 'actual';
  const refuse = (rule: RefusalRule, header: string, value: string | undefined, text: string): Refusal => ({
    rule,
    stage,
    header,
    ...(value !== undefined && { value }),
    step: 'CORS check',
    text,
    requestSent,
  });
  if (allowOrigin === undefined)
    return refuse(
      'no-allow-origin',
      'access-control-allow-origin',
      undefined,
      `${what} has no Access-Control-Allow-Origin header, so no other origin may read it.`,
    );
  if (allowOrigin === '*') {
    if (!request.credentials) return null;
    return refuse(
      'wildcard-with-credentials',
      'access-control-allow-origin',
      allowOrigin,
      `${what} allows any origin (*), which never covers a request with credentials: the server must name the origin.`,
    );
  }
  if (allowOrigin !== request.origin) {
    if (allowOrigin.includes(','))
      return refuse(
        'allow-origin-list',
        'access-control-allow-origin',
        allowOrigin,
        `${what} lists several origins (${allowOrigin}); the header must hold exactly one, the page's.`,
      );
    return refuse(
      'origin-mismatch',
      'access-control-allow-origin',
      allowOrigin,
      `${what} allows ${allowOrigin}, not ${request.origin}: the value must be the page's origin exactly (scheme, host and port).`,
    );
  }
  if (request.credentials && answer.headers['access-control-allow-credentials'] !== 'true')
    return refuse(
      'credentials-not-allowed',
      'access-control-allow-credentials',
      answer.headers['access-control-allow-credentials'],
      `${what} lacks Access-Control-Allow-Credentials: true, which a request with credentials (cookies, withCredentials) needs.`,
    );
  return null;
}

/**
 * The checks of a preflight's answer (Fetch, "CORS-preflight fetch"): a 2xx status, the CORS check,
 * then the method and every unsafe header allowed. Methods compare case-sensitively, header names
 * case-insensitively; * covers any method or header only without credentials, and never
 * Authorization.
 */
export function preflightCheck(request: CorsRequest, answer: Answer): Refusal | null {
  const refuse = (
    rule: RefusalRule,
    header: string | undefined,
    value: string | undefined,
    step: FetchStep,
    text: string,
  ): Refusal => ({
    rule,
    stage: 'preflight',
    ...(header !== undefined && { header }),
    ...(value !== undefined && { value }),
    step,
    text,
    requestSent: false,
  });
  if (answer.status >= 300 && answer.status < 400)
    return refuse(
      'preflight-redirect',
      'location',
      answer.headers.location,
      'CORS-preflight fetch',
      `The preflight was answered with a redirect (${answer.status}); a preflight is never followed, so the request was not sent.`,
    );
  if (answer.status < 200 || answer.status > 299)
    return refuse(
      'preflight-status',
      undefined,
      undefined,
      'CORS-preflight fetch',
      `The preflight was answered ${answer.status}; only 200 or 204 (any 2xx) lets the request follow, so it was not sent.`,
    );
  const failed = corsCheck(request, answer, 'preflight');
  if (failed) return failed;
  const methods = headerList(answer.headers['access-control-allow-methods']);
  const anyMethod = methods.includes('*') && !request.credentials;
  if (!SAFELISTED_METHODS.includes(request.method) && !anyMethod && !methods.includes(request.method)) {
    const caseOnly = methods.find((method) => method.toUpperCase() === request.method.toUpperCase());
    return refuse(
      'method-not-allowed',
      'access-control-allow-methods',
      answer.headers['access-control-allow-methods'],
      'CORS-preflight fetch',
      caseOnly
        ? `The preflight's answer lists ${caseOnly}, not ${request.method}: methods are compared case by case, byte for byte.`
        : methods.includes('*')
          ? `The preflight's answer allows any method (*), which does not hold for a request with credentials: ${request.method} must be named in Access-Control-Allow-Methods.`
          : `The preflight's answer does not list ${request.method} in Access-Control-Allow-Methods.`,
    );
  }
  const allowed = headerList(answer.headers['access-control-allow-headers']).map((name) => name.toLowerCase());
  const anyHeader = allowed.includes('*') && !request.credentials;
  for (const name of request.unsafeHeaders) {
    const lower = name.toLowerCase();
    if (allowed.includes(lower)) continue;
    if (lower === 'authorization' && allowed.includes('*'))
      return refuse(
        'authorization-not-covered',
        'access-control-allow-headers',
        answer.headers['access-control-allow-headers'],
        'CORS-preflight fetch',
        "The preflight's answer allows any header (*), but * never covers Authorization: it must be named in Access-Control-Allow-Headers.",
      );
    if (anyHeader) continue;
    return refuse(
      'header-not-allowed',
      'access-control-allow-headers',
      answer.headers['access-control-allow-headers'],
      'CORS-preflight fetch',
      allowed.includes('*')
        ? `The preflight's answer allows any header (*), which does not hold for a request with credentials: ${name} must be named in Access-Control-Allow-Headers.`
        : `The preflight's answer does not list the request header ${name} in Access-Control-Allow-Headers.`,
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
