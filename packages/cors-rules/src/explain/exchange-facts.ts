/**
 * What the judges of an exchange read, worked out once from a HAR's or curl's exchange: the page's
 * origin, the method and the headers its script set, the answer the page reads (a 304's kept one
 * refreshed), and, once the exchange is CORS's to judge, what the rules say with and without
 * credentials.
 */
import { refusalOf, type Answer, type Refusal } from '../rules/refusal.js';
import { isSafelistedMethod, normalizeMethod, unsafeHeaderNames } from '../rules/safelist.js';
import type { RecordedExchange } from './evidence.js';
import type { Subject } from './explanation.js';
import {
  answerHeadersNote,
  CREDENTIALS_INFERRED,
  credentialsNote,
  KEPT_NOTE,
  missingPreflightUnknown,
  REFERER_NOTE,
  withCredentialsUnknown,
} from './texts.js';

/** Names a page's script cannot set (the Fetch standard's forbidden request headers), and what browsers add themselves. */
const BROWSER_HEADERS =
  /^(accept-charset|accept-encoding|access-control-request-(headers|method)|connection|content-length|cookie2?|date|dnt|expect|host|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|via|user-agent|priority|pragma|cache-control|proxy-.*|sec-.*)$/;

/** A recorder's error for a request that got no answer at all: DNS, connection, certificate, reset. */
export const NETWORK_ERROR =
  /CERT|SSL|NAME_NOT_RESOLVED|CONNECTION_(REFUSED|RESET|CLOSED|ABORTED)|ADDRESS_UNREACHABLE|TIMED_OUT|EMPTY_RESPONSE|NS_ERROR_(CONNECTION|UNKNOWN_HOST|NET)/i;

export interface ExchangeFacts {
  subject: Subject;
  origin: string | null;
  method: string;
  /** The names the page's script set that are not safelisted. */
  unsafe: string[];
  cookie: boolean;
  authorization: boolean;
  needsPreflight: boolean;
  /** The answer as recorded (none when it failed). */
  recorded: Answer | undefined;
  /** The answer the page reads: a 304's kept answer, its headers updated with the 304's. */
  answer: Answer | undefined;
  preflightAnswer: Answer | undefined;
  /** The evidence, as the texts name it. */
  evidence: string;
  target: URL | null;
  fetchMode: string | undefined;
  fetchSite: string | undefined;
  /** What the conclusions rest on beyond the answer's headers: the kept answer, the Referer. */
  notes: string[];
}

/** The names the page's script set, as an exchange shows them (its preflight's list, else the request's own headers). */
function scriptHeaders(exchange: RecordedExchange): string[] {
  const asked = exchange.preflight?.request.headers['access-control-request-headers'];
  if (asked !== undefined)
    return asked
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean);
  return unsafeHeaderNames(
    Object.entries(exchange.request.headers).filter(([name]) => !BROWSER_HEADERS.test(name)) as [string, string][],
  );
}

export function exchangeFacts(exchange: RecordedExchange, options: { origin?: string }): ExchangeFacts {
  const origin = exchange.origin ?? options.origin ?? null;
  const method = normalizeMethod(exchange.request.method);
  const unsafe = scriptHeaders(exchange);
  const recorded: Answer | undefined = exchange.answer && !exchange.answer.failed ? exchange.answer : undefined;
  return {
    subject: {
      source: exchange.source,
      index: exchange.index,
      engine: null,
      url: exchange.request.url,
      origin,
      method,
    },
    origin,
    method,
    unsafe,
    cookie: exchange.request.headers.cookie !== undefined,
    authorization: exchange.request.headers.authorization !== undefined,
    needsPreflight: exchange.preflight !== null || !isSafelistedMethod(method) || unsafe.length > 0,
    recorded,
    // A 304 refreshes a kept answer: the page reads that one, its headers updated with the 304's.
    answer:
      recorded && exchange.kept
        ? { status: exchange.kept.status, headers: { ...exchange.kept.headers, ...recorded.headers } }
        : recorded,
    preflightAnswer:
      exchange.preflight?.answer && !exchange.preflight.answer.failed ? exchange.preflight.answer : undefined,
    evidence: exchange.source === 'har' ? 'the HAR' : 'curl’s output',
    target: URL.canParse(exchange.request.url) ? new URL(exchange.request.url) : null,
    // What the browser said of the request itself (Fetch Metadata), where the evidence keeps it.
    fetchMode: exchange.request.headers['sec-fetch-mode'],
    fetchSite: exchange.request.headers['sec-fetch-site'],
    notes: [
      ...(recorded && exchange.kept ? [KEPT_NOTE] : []),
      ...(exchange.originFrom === 'referer' ? [REFERER_NOTE] : []),
    ],
  };
}

/** What the CORS rules say of an exchange whose origin and answer the evidence holds. */
export interface CorsReading {
  /** The refusal without credentials (null: readable). */
  withoutThem: Refusal | null;
  /** The refusal with credentials, when the evidence shows none and has an answer. */
  withCredentials: Refusal | null;
  /** The preflight the request needed and the evidence lacks, said as an unknown (none: nothing missing). */
  missingPreflight: string[];
  restsOn: string[];
}

export function corsReading(exchange: RecordedExchange, facts: ExchangeFacts, origin: string): CorsReading {
  const { answer, preflightAnswer, cookie } = facts;
  const request = { origin, method: facts.method, unsafeHeaders: facts.unsafe, credentials: cookie };
  const policy = { ...(preflightAnswer && { preflight: preflightAnswer }), ...(answer && { actual: answer }) };
  return {
    withoutThem: refusalOf(request, policy),
    withCredentials:
      !cookie && (answer || preflightAnswer) ? refusalOf({ ...request, credentials: true }, policy) : null,
    missingPreflight:
      facts.needsPreflight && !exchange.preflight ? [missingPreflightUnknown(exchange.source, facts.method)] : [],
    restsOn: [...facts.notes, answerHeadersNote(facts.evidence)],
  };
}

/** Whether credentials went, as far as the evidence tells, and the refusal that follows. */
export interface CredentialsReading {
  refusal: Refusal | null;
  /** The rule that would refuse it with credentials, when it reads without them and the evidence cannot tell. */
  refusedWithCredentials: Refusal['rule'] | undefined;
  restsOn: string[];
  unknowns: string[];
}

/**
 * The recorder says the read failed (DevTools keeps the answer and the error), yet without
 * credentials every check passes: only credentials explain it, so they were sent (the export
 * stripped the cookie, or the page sent none but asked for them). Credentials: the Cookie header
 * says so; its absence does not (a sanitized HAR strips it, or the page sent none).
 */
export function credentialsReading(
  exchange: RecordedExchange,
  facts: ExchangeFacts,
  cors: CorsReading,
): CredentialsReading {
  const { withoutThem, withCredentials } = cors;
  const known = facts.cookie || facts.authorization;
  const failure = exchange.answer?.error;
  const inferred =
    !withoutThem && !known && failure !== undefined && !NETWORK_ERROR.test(failure) && withCredentials !== null;
  const refusal = inferred ? withCredentials : withoutThem;
  const unknown = !known && !inferred && withCredentials && !refusal ? withCredentials : null;
  return {
    refusal,
    refusedWithCredentials: unknown?.rule,
    restsOn: inferred ? [...cors.restsOn, CREDENTIALS_INFERRED] : cors.restsOn,
    unknowns: [
      ...(!inferred && !facts.cookie ? [credentialsNote(exchange.source)] : []),
      ...cors.missingPreflight,
      ...(unknown ? [withCredentialsUnknown(unknown.text)] : []),
    ],
  };
}
