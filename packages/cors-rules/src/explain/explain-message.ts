/**
 * The console message's path: a message read back into its rule (console-messages.ts), then
 * explained by the one of three judges its rule calls for: a rule the message does not name, a
 * refusal that is not CORS, or a CORS rule.
 */
import type { RefusalRule } from '../rules/refusal.js';
import { readConsoleMessage, type ConsoleReading, type MessageRule } from './console-messages.js';
import { explanation, fieldsOf, fixOf, type Subject } from './explanation.js';
import { sequenceOf } from './sequence.js';
import {
  CONSOLE_FETCH_METADATA_RISK,
  CONSOLE_UNKNOWN,
  consoleRefusedText,
  consoleRestsOn,
  CUT_SHORT,
  NETWORK_UNKNOWN,
  NOT_CORS_TEXT,
  PREFLIGHT_ANSWER_UNKNOWN,
  RULE_TITLE,
  unspecifiedText,
} from './texts.js';
import type { Explanation, Risk } from './types.js';

/** The rules only a preflight's answer can break. */
const PREFLIGHT_RULES: ReadonlySet<RefusalRule> = new Set(['preflight-status', 'preflight-redirect']);

/** The rules whose message does not say whether the request reached the server. */
const UNSAID_REACH: ReadonlySet<MessageRule> = new Set(['network', 'opener-policy', 'cookie-partitioned']);

/** Explains one console message (null when it is no CORS message any engine prints). */
export function explainMessage(message: string, index = 0): Explanation | null {
  const reading = readConsoleMessage(message);
  if (!reading) return null;
  const subject: Subject = {
    source: 'console',
    index,
    engine: reading.engine,
    url: reading.url ?? null,
    origin: reading.origin ?? null,
    method: reading.rule === 'method-not-allowed' ? (reading.value ?? null) : null,
  };
  if (reading.rule === 'unspecified') return unspecifiedRule(reading, subject);
  if (reading.rule in NOT_CORS_TEXT) return notCors(reading, subject);
  return corsRule(reading, subject);
}

/** A message that names no rule (WebKit's often): the rules it fits, each with its case. */
function unspecifiedRule(reading: ConsoleReading, subject: Subject): Explanation {
  const candidates = reading.candidates ?? [];
  const preflightOnly = candidates.length > 0 && candidates.every((rule) => PREFLIGHT_RULES.has(rule));
  const failedAtPreflight = preflightOnly || reading.preflight;
  return explanation(subject, {
    verdict: 'refused',
    step: preflightOnly ? 'CORS-preflight fetch' : null,
    text: unspecifiedText(reading, candidates, preflightOnly),
    reachedServer: reading.preflight === true || preflightOnly ? false : null,
    candidates: candidates.map((rule) => ({
      rule,
      title: RULE_TITLE[rule],
      playground: fieldsOf(rule, { ...(reading.status && { status: reading.status }) }),
    })),
    restsOn: [consoleRestsOn(reading.engine)],
    unknowns: [preflightOnly ? PREFLIGHT_ANSWER_UNKNOWN : CONSOLE_UNKNOWN],
    sequence: sequenceOf({
      preflight: failedAtPreflight,
      failedAt: failedAtPreflight ? 'preflight' : 'actual',
      method: null,
      inferred: true,
    }),
  });
}

/** A refusal the message names that is not CORS (mixed content, the network, a resource policy…). */
function notCors(reading: ConsoleReading, subject: Subject): Explanation {
  return explanation(subject, {
    verdict: 'not-cors',
    rule: reading.rule as Exclude<MessageRule, RefusalRule>,
    text: NOT_CORS_TEXT[reading.rule]!,
    // A resource policy is read from the server's answer; an opener policy is about windows, a
    // partitioned cookie jar about what a request carried, not whether it went; every other
    // refusal here stops the request first.
    reachedServer: UNSAID_REACH.has(reading.rule) ? null : reading.rule === 'resource-policy',
    restsOn: [consoleRestsOn(reading.engine)],
    unknowns: reading.rule === 'network' ? [NETWORK_UNKNOWN] : [],
  });
}

/** The header a rule is about. */
const RULE_HEADER: Record<RefusalRule, string | undefined> = {
  'no-allow-origin': 'access-control-allow-origin',
  'origin-mismatch': 'access-control-allow-origin',
  'allow-origin-list': 'access-control-allow-origin',
  'wildcard-with-credentials': 'access-control-allow-origin',
  'credentials-not-allowed': 'access-control-allow-credentials',
  'method-not-allowed': 'access-control-allow-methods',
  'header-not-allowed': 'access-control-allow-headers',
  'authorization-not-covered': 'access-control-allow-headers',
  'preflight-status': undefined,
  'preflight-redirect': 'location',
};

/** A CORS rule the message names: its step, the fix and the case, from what the message gives. */
function corsRule(reading: ConsoleReading, subject: Subject): Explanation {
  const rule = reading.rule as RefusalRule;
  const named = rule === 'method-not-allowed' || rule === 'header-not-allowed';
  const header = rule === 'header-not-allowed' ? reading.value : undefined;
  const preflight = reading.preflight ?? null;
  // A 403 to the request itself: what a server's own refusal before its CORS code looks like.
  const risks: Risk[] =
    reading.status === 403 && !preflight ? [{ kind: 'fetch-metadata', text: CONSOLE_FETCH_METADATA_RISK }] : [];
  return explanation(subject, {
    verdict: 'refused',
    rule,
    step: preflight ? 'CORS-preflight fetch' : 'CORS check',
    header: RULE_HEADER[rule],
    // The value a message gives is the answer's, except for a method or header it names as missing.
    ...(!named && reading.value !== undefined && { value: reading.value }),
    text: consoleRefusedText(reading, preflight === true),
    reachedServer: preflight === null ? null : !preflight,
    fix: fixOf(rule, reading.origin ?? null, subject.method, header, preflight === true),
    playground: fieldsOf(rule, {
      ...(subject.method && { method: subject.method }),
      ...(header && { header }),
      ...(reading.status && { status: reading.status }),
      ...(preflight && { preflight }),
    }),
    risks,
    restsOn: [consoleRestsOn(reading.engine)],
    unknowns: reading.text.length < 60 ? [CONSOLE_UNKNOWN, CUT_SHORT] : [CONSOLE_UNKNOWN],
    sequence: sequenceOf({
      preflight,
      failedAt: preflight ? 'preflight' : 'actual',
      method: subject.method,
      inferred: true,
    }),
  });
}
