/**
 * The exchange's path (a HAR's or curl's): an ordered list of judges, each reading the exchange
 * and the facts worked out once (exchange-facts.ts) and either explaining it or passing it on.
 * The first that explains it wins: what keeps the rules from applying comes first (not
 * cross-origin, no origin, mixed content, a 304 without the kept answer, an answer recorded
 * without headers, no answer), then what the CORS rules say (a redirect, readable, refused).
 */
import { fetchMetadataRefusal } from '@origin-lab/contract/fetch-metadata';
import { isLoopbackHost } from '../rules/engine-facts.js';
import { variesByOrigin, type Refusal } from '../rules/refusal.js';
import { hideUrlSecrets } from './url-secrets.js';
import type { RecordedExchange } from './evidence.js';
import { corsReading, credentialsReading, exchangeFacts, NETWORK_ERROR, type ExchangeFacts } from './exchange-facts.js';
import { explanation, fieldsOf, fixOf } from './explanation.js';
import { sequenceOf } from './sequence.js';
import {
  answerHeadersUnknown,
  fetchMetadataRisk,
  HAR_WITHOUT_PREFLIGHT,
  headerlessText,
  headerlessUnknown,
  missingVaryRisk,
  mixedContentRestsOn,
  networkText,
  NO_ORIGIN_TEXT,
  NO_ORIGIN_UNKNOWN,
  NOT_CORS_TEXT,
  notCrossOriginRestsOn,
  NOT_KEPT_UNKNOWN,
  notKeptText,
  PREFLIGHT_PASSES,
  readableErrorRisk,
  readableText,
  recordOfRequest,
  REDIRECT_USERINFO_NOTE,
  redirectText,
  redirectUnknown,
  refusedText,
  REFLECTED_RISK,
  unrecordedRefusalText,
  WILDCARD_RISK,
} from './texts.js';
import type { Explanation, Risk } from './types.js';

/** One judge: an explanation of the exchange, or null to leave it to the next. */
export type Judge = (exchange: RecordedExchange, facts: ExchangeFacts) => Explanation | null;

/** Sent from the page's own origin (Sec-Fetch-Site), or in no-cors mode (Sec-Fetch-Mode): no CORS rule applies. */
const notCrossOrigin: Judge = (exchange, facts) => {
  const rule =
    facts.fetchSite === 'same-origin' ? 'same-origin' : facts.fetchMode === 'no-cors' ? 'no-cors-mode' : null;
  if (!rule) return null;
  return explanation(facts.subject, {
    verdict: 'not-cors',
    rule,
    text: NOT_CORS_TEXT[rule]!,
    reachedServer: exchange.answer && !exchange.answer.failed ? true : null,
    playground: rule === 'no-cors-mode' ? { mode: 'no-cors' } : null,
    restsOn: [notCrossOriginRestsOn(rule === 'same-origin' ? 'Site' : 'Mode', facts.evidence)],
  });
};

/** No Origin in the evidence (curl -i shows only the answer) and none given. */
const noOrigin: Judge = (exchange, facts) =>
  facts.origin !== null
    ? null
    : explanation(facts.subject, {
        verdict: 'unknown',
        text: NO_ORIGIN_TEXT,
        reachedServer: exchange.answer ? true : null,
        unknowns: [NO_ORIGIN_UNKNOWN],
      });

/** Mixed content: such a request never leaves, whatever CORS would say. */
const mixedContent: Judge = (_, { origin, target, subject, evidence }) =>
  target && origin?.startsWith('https:') && target.protocol === 'http:' && !isLoopbackHost(target.hostname)
    ? explanation(subject, {
        verdict: 'not-cors',
        rule: 'mixed-content',
        text: NOT_CORS_TEXT['mixed-content']!,
        reachedServer: false,
        restsOn: [mixedContentRestsOn(evidence)],
      })
    : null;

/** A 304 whose kept answer the evidence does not hold: its CORS headers cannot be read. */
const notKept: Judge = (exchange, { recorded, subject, evidence }) =>
  recorded && exchange.kept === null
    ? explanation(subject, {
        verdict: 'unknown',
        text: notKeptText(evidence),
        reachedServer: true,
        restsOn: [recordOfRequest(evidence)],
        unknowns: [NOT_KEPT_UNKNOWN],
      })
    : null;

/**
 * An answer recorded without a single header: the recorder kept none of it (Chromium's does so
 * for an opaque answer, a no-cors request's), which is no evidence about CORS headers either way.
 */
const noHeadersRecorded: Judge = (exchange, facts) => {
  const { answer } = exchange;
  const headerless = exchange.source === 'har' && answer && !answer.failed && Object.keys(answer.headers).length === 0;
  if (!headerless || facts.preflightAnswer) return null;
  return explanation(facts.subject, {
    verdict: 'unknown',
    text: headerlessText(facts.evidence, answer.status),
    reachedServer: true,
    restsOn: [...facts.notes, recordOfRequest(facts.evidence)],
    unknowns: [headerlessUnknown(facts.origin!, exchange.request.url)],
  });
};

/**
 * A recorder that saw no answer: a network error, or a read Chromium refused (it keeps no headers
 * then). After a preflight that passed, only a network error: a refused request after it is read
 * by the CORS judges.
 */
const noAnswer: Judge = (exchange, facts) => {
  const error = exchange.answer?.failed ? (exchange.answer.error ?? '') : null;
  if (error === null || exchange.preflight?.answer?.failed) return null;
  const notCors = NETWORK_ERROR.test(error);
  if (facts.preflightAnswer && !notCors) return null;
  const { evidence, needsPreflight, method } = facts;
  return explanation(facts.subject, {
    verdict: notCors ? 'not-cors' : 'unknown',
    rule: notCors ? 'network' : null,
    text: notCors ? networkText(error) : unrecordedRefusalText(evidence, error, exchange.answer!.status),
    reachedServer: notCors ? false : null,
    restsOn: [...facts.notes, recordOfRequest(evidence)],
    unknowns: notCors
      ? []
      : [
          answerHeadersUnknown(facts.origin!, exchange.request.url),
          ...(needsPreflight && !exchange.preflight ? [HAR_WITHOUT_PREFLIGHT] : []),
        ],
    sequence: sequenceOf({ preflight: needsPreflight, failedAt: null, method, inferred: true }),
  });
};

/** A redirect that passes the CORS check: the browser follows its Location (Fetch, HTTP-redirect fetch), or stopped. */
const redirect: Judge = (exchange, facts) => {
  const { answer, origin } = facts;
  const location = answer && answer.status >= 300 && answer.status < 400 ? answer.headers['location'] : undefined;
  if (location === undefined || origin === null) return null;
  const cors = corsReading(exchange, facts, origin);
  if (cors.withoutThem) return null;
  const next = URL.canParse(location, exchange.request.url) ? new URL(location, exchange.request.url) : null;
  const stopped = exchange.answer?.error !== undefined;
  if (stopped && next !== null && (next.username !== '' || next.password !== ''))
    return explanation(facts.subject, {
      verdict: 'not-cors',
      rule: 'redirect-credentials',
      text: NOT_CORS_TEXT['redirect-credentials']!,
      reachedServer: true,
      restsOn: [...cors.restsOn, REDIRECT_USERINFO_NOTE],
    });
  return explanation(facts.subject, {
    verdict: stopped ? 'unknown' : 'readable',
    // Resolved, so that its secrets are hidden as every URL's (a relative one names no scheme).
    text: redirectText(stopped, answer!.status, next?.href ?? hideUrlSecrets(location)),
    reachedServer: true,
    restsOn: cors.restsOn,
    unknowns: [...cors.missingPreflight, redirectUnknown(stopped)],
  });
};

/** What works today and may not be meant: the answer's risks, and a 403 that is not CORS. */
function risksOf(facts: ExchangeFacts, origin: string, refusal: Refusal | null): Risk[] {
  const { answer, target, method, fetchSite } = facts;
  const risks: Risk[] = [];
  const allow = answer?.headers['access-control-allow-origin'];
  if (answer && allow !== undefined && allow !== '*' && !variesByOrigin(answer))
    risks.push({ kind: 'missing-vary', text: missingVaryRisk(allow) });
  if (answer && allow === origin && answer.headers['access-control-allow-credentials'] === 'true')
    risks.push({ kind: 'reflected-with-credentials', text: REFLECTED_RISK });
  if (answer && allow === '*') risks.push({ kind: 'wildcard', text: WILDCARD_RISK });
  // A 403 to a request that changes something and is not same-origin: what Fetch-metadata protection
  // answers, before the handler (and before CORS code placed after it). The contract's rule decides.
  const protection =
    answer?.status === 403 && target
      ? fetchMetadataRefusal({ method, secFetchSite: fetchSite ?? null, origin, host: target.host })
      : null;
  if (protection)
    risks.push({ kind: 'fetch-metadata', text: fetchMetadataRisk(method, fetchSite, origin, refusal !== null) });
  else if (!refusal && answer && answer.status >= 400)
    risks.push({ kind: 'readable-error-status', text: readableErrorRisk(answer.status) });
  return risks;
}

/** What the readable and refused judges both say: credentials, risks, and the sequence's facts. */
function verdictOf(exchange: RecordedExchange, facts: ExchangeFacts, origin: string) {
  const { answer, method, needsPreflight } = facts;
  const credentials = credentialsReading(exchange, facts, corsReading(exchange, facts, origin));
  const preflightStatus = exchange.preflight?.answer?.status;
  return {
    refusal: credentials.refusal,
    refusedWithCredentials: credentials.refusedWithCredentials,
    preflightStatus,
    judged: {
      risks: risksOf(facts, origin, credentials.refusal),
      restsOn: credentials.restsOn,
      unknowns: credentials.unknowns,
    },
    sequence: {
      method,
      inferred: !exchange.preflight && needsPreflight,
      ...(preflightStatus && { preflightStatus }),
      ...(answer && { status: answer.status }),
    },
  };
}

/** Every CORS check passes: the page reads the answer (or the preflight passes, and the request is not in the evidence). */
const readable: Judge = (exchange, facts) => {
  const { origin, answer } = facts;
  if (origin === null) return null;
  const verdict = verdictOf(exchange, facts, origin);
  if (verdict.refusal) return null;
  return explanation(facts.subject, {
    verdict: answer !== undefined || exchange.isPreflight ? 'readable' : 'unknown',
    text: answer
      ? readableText(answer.headers['access-control-allow-origin'], origin, facts.cookie, answer.status)
      : PREFLIGHT_PASSES,
    reachedServer: answer ? true : null,
    withCredentials: verdict.refusedWithCredentials,
    ...verdict.judged,
    sequence: sequenceOf({
      ...verdict.sequence,
      preflight: exchange.preflight ? true : facts.needsPreflight,
      failedAt: null,
    }),
  });
};

/** A CORS check refuses the read: the rule, its header and value, the fix and the case. */
const refused: Judge = (exchange, facts) => {
  const { origin, method } = facts;
  if (origin === null) return null;
  const { refusal, preflightStatus, judged, sequence } = verdictOf(exchange, facts, origin);
  if (!refusal) return null;
  const header = refusedHeader(facts, refusal);
  return explanation(facts.subject, {
    verdict: 'refused',
    rule: refusal.rule,
    step: refusal.step,
    header: refusal.header,
    value: refusal.value,
    text: refusedText(refusal),
    reachedServer: refusal.requestSent,
    fix: fixOf(refusal.rule, origin, method, header, refusal.stage === 'preflight'),
    playground: fieldsOf(refusal.rule, {
      method,
      ...(header && { header }),
      ...(preflightStatus && { status: preflightStatus }),
      ...(refusal.stage === 'preflight' && { preflight: true }),
    }),
    ...judged,
    sequence: sequenceOf({
      ...sequence,
      preflight: refusal.stage === 'preflight' || exchange.preflight !== null || facts.needsPreflight,
      failedAt: refusal.stage,
    }),
  });
};

/** The request header a refused preflight did not allow: the first the script set that its answer does not list. */
function refusedHeader(facts: ExchangeFacts, refusal: Refusal): string | undefined {
  if (refusal.rule !== 'header-not-allowed' && refusal.rule !== 'authorization-not-covered') return undefined;
  const allowed = (facts.preflightAnswer?.headers['access-control-allow-headers'] ?? '').toLowerCase().split(/\s*,\s*/);
  return facts.unsafe.find((name) => !allowed.includes(name));
}

/** The judges, in the order they are asked. */
export const JUDGES: readonly Judge[] = [
  notCrossOrigin,
  noOrigin,
  mixedContent,
  notKept,
  noHeadersRecorded,
  noAnswer,
  redirect,
  readable,
  refused,
];

/** Explains one exchange of a HAR or of curl's output. */
export function explainExchange(exchange: RecordedExchange, options: { origin?: string } = {}): Explanation {
  const facts = exchangeFacts(exchange, options);
  for (const judge of JUDGES) {
    const explained = judge(exchange, facts);
    if (explained) return explained;
  }
  // The last two explain every exchange with an origin, and the second every one without.
  throw new Error('no judge explained the exchange');
}
