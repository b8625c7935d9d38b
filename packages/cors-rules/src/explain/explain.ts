/**
 * Explains evidence: a console message, or an exchange read from a HAR or curl's output. Each
 * explanation names the Fetch rule that refused (or would refuse) the read, the header and value
 * that decided it, whether the request reached the server anyway, the fix, the playground case
 * that shows the same refusal, what is not CORS, risky setups that work today, and what the
 * evidence cannot tell. One engine of reasons: the rules are refusal.ts's, the fixes fixes.ts's.
 */
import { readConsoleMessage, type ConsoleReading, type Engine, type MessageRule } from './console-messages.js';
import type { RecordedExchange } from './evidence.js';
import { FIX_FOR_REFUSAL, fixFor, type Fix } from '../advice/fixes.js';
import { playgroundFields, type CaseDetail } from '../advice/playground-case.js';
import { refusalOf, variesByOrigin, type Answer, type FetchStep, type RefusalRule } from '../rules/refusal.js';
import { isLoopbackHost } from '../rules/engine-facts.js';
import { isSafelistedMethod, normalizeMethod, unsafeHeaderNames } from '../rules/safelist.js';
import { fetchMetadataRefusal } from '@origin-lab/contract/fetch-metadata';

/** What Fetch-metadata protection is, said once for both of the explainer's guesses at it. */
const FETCH_METADATA_GUARDS =
  'Fetch-metadata protection (Go’s http.CrossOriginProtection, and the CSRF guards of frameworks that read Sec-Fetch-Site)';

export type Verdict = 'refused' | 'readable' | 'not-cors' | 'unknown';

/** One step of the exchange, for the sequence drawing: an arrow between two parties, or a check in the browser. */
export interface SequenceStep {
  from: 'page' | 'browser' | 'server';
  to: 'page' | 'browser' | 'server';
  label: string;
  /** false marks the step that failed. */
  ok: boolean;
  /** The step is what the rules say happened, not something the evidence shows. */
  inferred?: boolean;
}

export interface Risk {
  kind: 'missing-vary' | 'reflected-with-credentials' | 'readable-error-status' | 'wildcard' | 'fetch-metadata';
  text: string;
}

export interface Explanation {
  source: 'console' | 'har' | 'curl';
  /** The HAR entry's index, the curl exchange's, or the message's. */
  index: number;
  engine: Engine | null;
  url: string | null;
  origin: string | null;
  method: string | null;
  verdict: Verdict;
  /** The rule, or a refusal that is not CORS; null for a read. */
  rule: RefusalRule | Exclude<MessageRule, RefusalRule> | null;
  /** The Fetch standard's step, in plain words. */
  step: FetchStep | null;
  header?: string;
  value?: string;
  /** The explanation, in a few sentences. */
  text: string;
  /** Whether the request reached the server: true, false, or null when the evidence cannot say. */
  reachedServer: boolean | null;
  fix: Fix | null;
  /** The playground's fields for the same refusal (the caller puts them after /playground.html#). */
  playground: Record<string, string> | null;
  /** When the exchange is readable only because the evidence shows no credentials: the rule that refuses it with them. */
  withCredentials?: RefusalRule;
  /**
   * When the evidence fits more than one rule (WebKit's words often do): each rule it fits, with
   * the playground case that shows it. rule is null then, and unknowns say what would tell.
   */
  candidates?: { rule: RefusalRule; title: string; playground: Record<string, string> }[];
  risks: Risk[];
  /** What the conclusions rest on. */
  restsOn: string[];
  /** What the evidence cannot tell, and what to capture to know. */
  unknowns: string[];
  sequence: SequenceStep[];
}

/** Names a page's script cannot set (the Fetch standard's forbidden request headers), and what browsers add themselves. */
const BROWSER_HEADERS =
  /^(accept-charset|accept-encoding|access-control-request-(headers|method)|connection|content-length|cookie2?|date|dnt|expect|host|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|via|user-agent|priority|pragma|cache-control|proxy-.*|sec-.*)$/;

/** Where the engines stand on Authorization under *, as measured (e2e, every engine). */
const AUTHORIZATION_TODAY =
  'Today the engines do not refuse it yet (measured: Chromium 156, Firefox 153 and WebKit (GTK) 2.50 let it through; Chromium warns that it will stop): name it before they do.';

const STEP_TEXT: Record<FetchStep, string> = {
  'CORS check': 'the CORS check of the answer (Fetch, “CORS check”)',
  'CORS-preflight fetch': 'the checks of the preflight’s answer (Fetch, “CORS-preflight fetch”)',
};

const NOT_CORS_TEXT: Record<string, string> = {
  'local-network-access':
    'Not CORS: Local Network Access. Chromium (since 142) and Firefox (rolling it out; on in 153) ask the user before a page they count as public reaches a loopback or private address, and the request waits or fails without leaving; Chromium refuses a page that is not a secure context outright. Serve the page over https and let the user allow it, or call a public address.',
  'mixed-content':
    'Not CORS: mixed content. An https page may not fetch an http:// URL (except loopback, in Chromium and Firefox): the request never left. Serve the API over https.',
  network:
    'Not CORS, or not yet: the request did not get an answer at all (a connection refused, a DNS or certificate failure, a reset). Firefox says “CORS request did not succeed” for all of these.',
  scheme: 'Not CORS: the URL’s scheme is not http or https (a file:// page, a custom scheme).',
  'redirect-credentials':
    'Not CORS: a redirect to a URL with a username and password in it is refused for cross-origin requests.',
  'redirect-mode':
    "Not CORS: the server answered with a redirect, and the request was made with redirect: 'error', which refuses to follow any (with redirect: 'manual' the page gets an opaque redirect instead). Follow it (redirect: 'follow', the default) or call the final URL.",
  'cors-disabled': 'Not CORS: CORS is switched off in this browser (content.cors.disable).',
  'no-cors-mode':
    "Not CORS: the request went out in no-cors mode (Sec-Fetch-Mode: no-cors): an <img>, a <script> without crossorigin, or fetch with mode: 'no-cors'. The browser hands the page an opaque answer, whatever the server’s headers say, and sends only what needs no preflight. To read the answer, send it in cors mode (fetch’s default) and have the server allow the origin.",
  'same-origin':
    'Not cross-origin: the page’s own origin sent it (Sec-Fetch-Site: same-origin), so no CORS rule applies and the page reads the answer.',
  'resource-policy':
    'Not CORS: cross-origin isolation. The server answered, and the browser would not embed the answer: the page is served with Cross-Origin-Embedder-Policy: require-corp and the resource, loaded without CORS (an <img>, a <script> without crossorigin, a no-cors fetch), does not say Cross-Origin-Resource-Policy: cross-origin; or the resource says CORP same-origin or same-site. No Access-Control header changes it. Have the resource send Cross-Origin-Resource-Policy: cross-origin, load it with CORS (crossorigin) from a server that allows the origin, or serve the page with COEP credentialless.',
};

function fixOf(
  rule: RefusalRule,
  origin: string | null,
  method: string | null,
  header: string | undefined,
  preflight: boolean,
): Fix {
  return fixFor(FIX_FOR_REFUSAL[rule], {
    origins: origin && origin !== 'null' ? [origin] : [],
    ...(method && { method }),
    ...(header && { header }),
    ...(preflight && { preflight }),
  });
}

const fieldsOf = (rule: RefusalRule, detail: CaseDetail) => playgroundFields(rule, detail);

/** Explains one console message (null when it is no CORS message any engine prints). */
export function explainMessage(message: string, index = 0): Explanation | null {
  const reading = readConsoleMessage(message);
  if (!reading) return null;
  return explainReading(reading, index);
}

function explainReading(reading: ConsoleReading, index: number): Explanation {
  const base = {
    source: 'console' as const,
    index,
    engine: reading.engine,
    url: reading.url ?? null,
    origin: reading.origin ?? null,
    method: reading.rule === 'method-not-allowed' ? (reading.value ?? null) : null,
    risks: [],
    restsOn: [
      `the ${reading.engine === 'webkit' ? 'WebKit (Safari)' : reading.engine === 'chromium' ? 'Chromium (Chrome, Edge)' : 'Firefox'} console message`,
    ],
  };
  const unknowns = [
    'The answer’s headers are not in a console message: `curl -v -H "Origin: <your origin>" <URL>` (and `-X OPTIONS -H "Access-Control-Request-Method: <method>"` for the preflight) shows them.',
  ];
  if (reading.rule === 'unspecified') {
    const candidates = reading.candidates ?? [];
    const preflightOnly = candidates.length > 0 && candidates.every((rule) => PREFLIGHT_RULES.has(rule));
    return {
      ...base,
      verdict: 'refused',
      rule: null,
      step: preflightOnly ? 'CORS-preflight fetch' : null,
      text: unspecifiedText(reading, candidates, preflightOnly),
      reachedServer: reading.preflight === true || preflightOnly ? false : null,
      fix: null,
      playground: null,
      candidates: candidates.map((rule) => ({
        rule,
        title: RULE_TITLE[rule],
        playground: fieldsOf(rule, { ...(reading.status && { status: reading.status }) }),
      })),
      unknowns: preflightOnly
        ? [
            'The preflight’s answer is not in the message: `curl -v -X OPTIONS -H "Origin: <your origin>" -H "Access-Control-Request-Method: <method>" <URL>` shows its status and headers.',
          ]
        : unknowns,
      sequence: sequenceOf({
        preflight: preflightOnly || reading.preflight,
        failedAt: preflightOnly || reading.preflight ? 'preflight' : 'actual',
        method: null,
        inferred: true,
      }),
    };
  }
  if (reading.rule in NOT_CORS_TEXT) {
    return {
      ...base,
      verdict: 'not-cors',
      rule: reading.rule as Exclude<MessageRule, RefusalRule>,
      step: null,
      text: NOT_CORS_TEXT[reading.rule]!,
      // A resource policy is read from the server's answer; every other refusal here stops the request first.
      reachedServer: reading.rule === 'network' ? null : reading.rule === 'resource-policy',
      fix: null,
      playground: null,
      unknowns:
        reading.rule === 'network'
          ? ['Whether it is CORS at all: open the URL on its own, or `curl -v` it, to see whether anything answers.']
          : [],
      sequence: [],
    };
  }
  const rule = reading.rule as RefusalRule;
  const header = rule === 'header-not-allowed' ? reading.value : undefined;
  const preflight = reading.preflight ?? null;
  // A 403 to the request itself: what a server's own refusal before its CORS code looks like.
  const risks: Risk[] =
    reading.status === 403 && !preflight
      ? [
          {
            kind: 'fetch-metadata',
            text: `The answer was a 403 without the CORS headers. If the request changes something (POST, PUT, DELETE…) and the server runs ${FETCH_METADATA_GUARDS}, that refused it before its CORS code ran: not CORS, and fixing CORS alone will not help. The server’s log, or the answer’s body, says which.`,
          },
        ]
      : [];
  const text = `${messageSentence(reading)} The rule: ${STEP_TEXT[preflight ? 'CORS-preflight fetch' : 'CORS check']}.${preflight ? ' The request itself was never sent.' : ' The request reached the server and was answered; only the page may not read it.'}`;
  return {
    ...base,
    verdict: 'refused',
    rule,
    step: preflight ? 'CORS-preflight fetch' : 'CORS check',
    // The value a message gives is the answer's, except for a method or header it names as missing.
    ...headerOf(rule, rule === 'method-not-allowed' || rule === 'header-not-allowed' ? undefined : reading.value),
    text,
    reachedServer: preflight === null ? null : !preflight,
    fix: fixOf(rule, reading.origin ?? null, base.method, header, preflight === true),
    playground: fieldsOf(rule, {
      ...(base.method && { method: base.method }),
      ...(header && { header }),
      ...(reading.status && { status: reading.status }),
      ...(preflight && { preflight }),
    }),
    risks,
    unknowns: reading.text.length < 60 ? [...unknowns, 'The message looks cut short: paste it whole.'] : unknowns,
    sequence: sequenceOf({
      preflight,
      failedAt: preflight ? 'preflight' : 'actual',
      method: base.method,
      inferred: true,
    }),
  };
}

/** A recorder's error for a request that got no answer at all: DNS, connection, certificate, reset. */
const NETWORK_ERROR =
  /CERT|SSL|NAME_NOT_RESOLVED|CONNECTION_(REFUSED|RESET|CLOSED|ABORTED)|ADDRESS_UNREACHABLE|TIMED_OUT|EMPTY_RESPONSE|NS_ERROR_(CONNECTION|UNKNOWN_HOST|NET)/i;

/** Each rule in a few words, as a candidate is named to people. */
export const RULE_TITLE: Record<RefusalRule, string> = {
  'no-allow-origin': 'no Access-Control-Allow-Origin',
  'origin-mismatch': 'Access-Control-Allow-Origin names another origin',
  'allow-origin-list': 'Access-Control-Allow-Origin holds several origins',
  'wildcard-with-credentials': 'Access-Control-Allow-Origin * with credentials',
  'credentials-not-allowed': 'credentials without Access-Control-Allow-Credentials: true',
  'method-not-allowed': 'the method not in Access-Control-Allow-Methods',
  'header-not-allowed': 'a header not in Access-Control-Allow-Headers',
  'authorization-not-covered': 'Authorization under Access-Control-Allow-Headers *',
  'preflight-status': 'the preflight answered with an error status',
  'preflight-redirect': 'the preflight answered with a redirect',
};

/** The rules only a preflight's answer can break. */
const PREFLIGHT_RULES: ReadonlySet<RefusalRule> = new Set(['preflight-status', 'preflight-redirect']);

/** What a message that names no rule still tells, and which rules it fits. */
function unspecifiedText(reading: ConsoleReading, candidates: readonly RefusalRule[], preflightOnly: boolean): string {
  if (reading.engine !== 'webkit') return 'The engine refused to let the page read the answer without naming the rule.';
  if (preflightOnly)
    return 'WebKit (Safari) printed only that access control checks failed, with no reason before it: that is all it prints when the preflight was answered with a status outside 200–299 or with a redirect (measured in WebKit (GTK) 2.50). The request itself was then never sent. The preflight’s status tells which.';
  if (candidates.includes('no-allow-origin'))
    return `WebKit (Safari) refused to let the page read the answer${reading.status ? ` (status ${reading.status})` : ''}: its Access-Control-Allow-Origin was missing, or named another origin than the page’s${reading.origin ? ` (${reading.origin})` : ''}. WebKit words the two alike; the answer’s headers tell which.`;
  return 'WebKit (Safari) refused to let the page read the answer, without saying which rule. The answer’s headers tell which.';
}

/** The header a rule is about, and its value as the message or answer gave it. */
function headerOf(rule: RefusalRule, value: string | undefined): { header?: string; value?: string } {
  const header: Record<RefusalRule, string | undefined> = {
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
  return { ...(header[rule] && { header: header[rule] }), ...(value !== undefined && { value }) };
}

function messageSentence(reading: ConsoleReading): string {
  const v = reading.value;
  switch (reading.rule as RefusalRule) {
    case 'no-allow-origin':
      return 'The answer had no Access-Control-Allow-Origin header: no other origin may read it.';
    case 'origin-mismatch':
      return `The answer’s Access-Control-Allow-Origin is ${v ?? 'another origin'}, not the page’s origin${reading.origin ? ` (${reading.origin})` : ''}: it must match exactly, scheme, host and port.`;
    case 'allow-origin-list':
      return `The answer’s Access-Control-Allow-Origin holds several origins${v ? ` (${v})` : ''}; it must hold exactly one.`;
    case 'wildcard-with-credentials':
      return 'The answer’s Access-Control-Allow-Origin is *, and the request carried credentials: * never covers them, the origin must be named.';
    case 'credentials-not-allowed':
      return `The request carried credentials and the answer’s Access-Control-Allow-Credentials is ${v ? `"${v}"` : 'missing'}; it must be exactly "true".`;
    case 'method-not-allowed':
      return `The preflight’s answer does not list ${v ?? 'the method'} in Access-Control-Allow-Methods.`;
    case 'header-not-allowed':
      return `The preflight’s answer does not list the request header ${v ?? ''} in Access-Control-Allow-Headers.`;
    case 'authorization-not-covered':
      return 'The preflight’s answer allows any header (*), which never covers Authorization: it must be named.';
    case 'preflight-status':
      return `The preflight was answered ${reading.status ?? 'with a status that is not 2xx'}; only 200 or 204 (any 2xx) lets the request follow.`;
    case 'preflight-redirect':
      return 'The preflight was answered with a redirect, which is never followed.';
  }
}

interface SequenceFacts {
  preflight: boolean | null;
  failedAt: 'preflight' | 'actual' | null;
  method: string | null;
  inferred: boolean;
  preflightStatus?: number;
  status?: number;
}

/** The exchange as steps between page, browser and server, the failing one marked. */
function sequenceOf(facts: SequenceFacts): SequenceStep[] {
  const method = facts.method ?? 'the request';
  const steps: SequenceStep[] = [{ from: 'page', to: 'browser', label: `fetch: ${method}`, ok: true }];
  if (facts.preflight) {
    steps.push({ from: 'browser', to: 'server', label: 'OPTIONS (preflight)', ok: true, inferred: facts.inferred });
    steps.push({
      from: 'server',
      to: 'browser',
      label: facts.preflightStatus ? `${facts.preflightStatus}` : 'answer',
      ok: true,
      inferred: facts.inferred,
    });
    const failed = facts.failedAt === 'preflight';
    steps.push({ from: 'browser', to: 'browser', label: 'checks the preflight’s answer', ok: !failed });
    if (failed) {
      steps.push({ from: 'browser', to: 'page', label: 'TypeError (never sent)', ok: false });
      return steps;
    }
  }
  steps.push({ from: 'browser', to: 'server', label: method, ok: true, inferred: facts.inferred });
  steps.push({
    from: 'server',
    to: 'browser',
    label: facts.status ? `${facts.status}` : 'answer',
    ok: true,
    inferred: facts.inferred,
  });
  const failed = facts.failedAt === 'actual';
  steps.push({ from: 'browser', to: 'browser', label: 'CORS check of the answer', ok: !failed });
  steps.push({
    from: 'browser',
    to: 'page',
    label: failed ? 'TypeError (not readable)' : 'the answer',
    ok: !failed,
  });
  return steps;
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

/** Explains one exchange of a HAR or of curl's output. */
export function explainExchange(exchange: RecordedExchange, options: { origin?: string } = {}): Explanation {
  const origin = exchange.origin ?? options.origin ?? null;
  const method = normalizeMethod(exchange.request.method);
  const unsafe = scriptHeaders(exchange);
  const cookie = exchange.request.headers.cookie !== undefined;
  const authorization = exchange.request.headers.authorization !== undefined;
  const needsPreflight = exchange.preflight !== null || !isSafelistedMethod(method) || unsafe.length > 0;
  const recorded: Answer | undefined = exchange.answer && !exchange.answer.failed ? exchange.answer : undefined;
  // A 304 refreshes a kept answer: the page reads that one, its headers updated with the 304's.
  const answer: Answer | undefined =
    recorded && exchange.kept
      ? { status: exchange.kept.status, headers: { ...exchange.kept.headers, ...recorded.headers } }
      : recorded;
  const preflightAnswer =
    exchange.preflight?.answer && !exchange.preflight.answer.failed ? exchange.preflight.answer : undefined;
  const restsOn: string[] = [];
  const unknowns: string[] = [];
  const evidence = exchange.source === 'har' ? 'the HAR' : 'curl’s output';
  const base = {
    source: exchange.source,
    index: exchange.index,
    engine: null,
    url: exchange.request.url,
    origin,
    method,
  };

  // What the browser said of the request itself (Fetch Metadata), where the evidence keeps it.
  const fetchMode = exchange.request.headers['sec-fetch-mode'];
  const fetchSite = exchange.request.headers['sec-fetch-site'];
  const notCrossOrigin = fetchSite === 'same-origin' ? 'same-origin' : fetchMode === 'no-cors' ? 'no-cors-mode' : null;
  if (notCrossOrigin)
    return {
      ...base,
      verdict: 'not-cors',
      rule: notCrossOrigin,
      step: null,
      text: NOT_CORS_TEXT[notCrossOrigin]!,
      reachedServer: exchange.answer && !exchange.answer.failed ? true : null,
      fix: null,
      playground: notCrossOrigin === 'no-cors-mode' ? { mode: 'no-cors' } : null,
      risks: [],
      restsOn: [
        `the request’s Sec-Fetch-${notCrossOrigin === 'same-origin' ? 'Site' : 'Mode'} header, as ${exchange.source === 'har' ? 'the HAR' : 'curl’s output'} shows it`,
      ],
      unknowns: [],
      sequence: [],
    };

  if (origin === null)
    return {
      ...base,
      verdict: 'unknown',
      rule: null,
      step: null,
      text: 'The request’s Origin is not in the evidence (curl -i shows only the answer): the rules cannot be applied without it.',
      reachedServer: exchange.answer ? true : null,
      fix: null,
      playground: null,
      risks: [],
      restsOn,
      unknowns: ['Use curl -v with -H "Origin: <your origin>", or tell the page’s origin (--origin).'],
      sequence: [],
    };

  // Mixed content first: such a request never leaves, whatever CORS would say.
  const target = URL.canParse(exchange.request.url) ? new URL(exchange.request.url) : null;
  if (target && origin.startsWith('https:') && target.protocol === 'http:' && !isLoopbackHost(target.hostname))
    return {
      ...base,
      verdict: 'not-cors',
      rule: 'mixed-content',
      step: null,
      text: NOT_CORS_TEXT['mixed-content']!,
      reachedServer: false,
      fix: null,
      playground: null,
      risks: [],
      restsOn: [`the page’s origin and the URL, as ${evidence} shows them`],
      unknowns,
      sequence: [],
    };

  if (recorded && exchange.kept === null)
    return {
      ...base,
      verdict: 'unknown',
      rule: null,
      step: null,
      text: `A 304: the browser revalidated an answer it kept, and hands the page that answer with its headers updated by the 304’s (HTTP caching). ${evidence} does not hold the kept answer, so its CORS headers cannot be read.`,
      reachedServer: true,
      fix: null,
      playground: null,
      risks: [],
      restsOn: [`${evidence}’s record of the request`],
      unknowns: [
        'The kept answer: record from before the first request (a HAR of the whole session), or clear the cache and record again.',
      ],
      sequence: [],
    };
  if (recorded && exchange.kept)
    restsOn.push(
      'the answer the browser kept, as refreshed by the 304: its headers updated with the 304’s (HTTP caching, RFC 9111)',
    );
  if (exchange.originFrom === 'referer')
    restsOn.push('the page’s origin as its Referer shows it (the recorder kept no Origin header for this request)');
  // An answer recorded without a single header: the recorder kept none of it (Chromium's does so
  // for an opaque answer, a no-cors request's), which is no evidence about CORS headers either way.
  const headerless =
    exchange.source === 'har' &&
    exchange.answer &&
    !exchange.answer.failed &&
    Object.keys(exchange.answer.headers).length === 0;
  if (headerless && !preflightAnswer)
    return {
      ...base,
      verdict: 'unknown',
      rule: null,
      step: null,
      text: `${evidence} recorded the answer (${exchange.answer!.status}) without any of its headers: Chromium’s recorder does so for an opaque answer (a no-cors request), so the rules cannot be applied to it.`,
      reachedServer: true,
      fix: null,
      playground: null,
      risks: [],
      restsOn: [...restsOn, `${evidence}’s record of the request`],
      unknowns: [
        `The answer’s headers: \`curl -v -H "Origin: ${origin}" ${exchange.request.url}\` shows them, and the request’s Sec-Fetch-Mode says whether it was sent in cors mode.`,
      ],
      sequence: [],
    };
  // A recorder that saw no answer: a network error, or a read Chromium refused (it keeps no headers then).
  const noAnswer = exchange.answer?.failed ? (exchange.answer.error ?? '') : null;
  // (After a preflight that passed, only a network error: a refused request after it is read below.)
  if (noAnswer !== null && !exchange.preflight?.answer?.failed && (!preflightAnswer || NETWORK_ERROR.test(noAnswer))) {
    const error = noAnswer;
    const notCors = NETWORK_ERROR.test(error);
    return {
      ...base,
      verdict: notCors ? 'not-cors' : 'unknown',
      rule: notCors ? 'network' : null,
      step: null,
      text: notCors
        ? `Not CORS: the request got no answer (${error}): a DNS, connection or certificate failure, which the page sees as the same TypeError.`
        : `${evidence} recorded the request with no answer (${error || `status ${exchange.answer!.status}`}): Chromium records a read it refused so, without the answer’s headers, so the rule cannot be read from it.`,
      reachedServer: notCors ? false : null,
      fix: null,
      playground: null,
      risks: [],
      restsOn: [...restsOn, `${evidence}’s record of the request`],
      unknowns: notCors
        ? []
        : [
            'The answer’s headers: `curl -v -H "Origin: ' +
              origin +
              '" ' +
              exchange.request.url +
              '` shows them, or the console message says the rule.',
            ...(needsPreflight && !exchange.preflight
              ? ['The preflight: this HAR has none (Playwright’s recorder leaves it out; DevTools can hide it).']
              : []),
          ],
      sequence: sequenceOf({ preflight: needsPreflight, failedAt: null, method, inferred: true }),
    };
  }

  restsOn.push(`the answer’s headers as ${evidence} recorded them`);
  // Credentials: the Cookie header says so; its absence does not (a sanitized HAR strips it, or the page sent none).
  const credentialsKnown = cookie || authorization;
  const credentials = cookie;
  const credentialsNote =
    exchange.source === 'har'
      ? 'Whether the request was sent with credentials: no Cookie header here (the page sent none, or a sanitized export removed it). The explanation holds for a request without credentials; with them, see the note below.'
      : 'Whether the page sends credentials: curl sends what you gave it. The explanation is for a request without credentials.';
  if (needsPreflight && !exchange.preflight)
    unknowns.push(
      exchange.source === 'har'
        ? 'The preflight: this request needed one, and the HAR has none (Playwright’s recorder leaves preflights out; DevTools can hide them). Its checks are not read here.'
        : 'The preflight: this request needs one; add `-X OPTIONS -H "Access-Control-Request-Method: ' +
            method +
            '"` to see its answer.',
    );
  const request = { origin, method, unsafeHeaders: unsafe, credentials };
  const policy = { ...(preflightAnswer && { preflight: preflightAnswer }), ...(answer && { actual: answer }) };
  const withoutThem = refusalOf(request, policy);
  const withCredentials =
    !credentials && (answer || preflightAnswer) ? refusalOf({ ...request, credentials: true }, policy) : null;
  // A redirect: the browser checks it like any answer, then follows its Location (Fetch, HTTP-redirect fetch).
  const location = answer && answer.status >= 300 && answer.status < 400 ? answer.headers['location'] : undefined;
  if (location !== undefined && !withoutThem) {
    const next = URL.canParse(location, exchange.request.url) ? new URL(location, exchange.request.url) : null;
    const stopped = exchange.answer?.error !== undefined;
    const userinfo = next !== null && (next.username !== '' || next.password !== '');
    if (stopped && userinfo)
      return {
        ...base,
        verdict: 'not-cors',
        rule: 'redirect-credentials',
        step: null,
        text: NOT_CORS_TEXT['redirect-credentials']!,
        reachedServer: true,
        fix: null,
        playground: null,
        risks: [],
        restsOn: [...restsOn, `the redirect’s Location, which holds a user name and password`],
        unknowns: [],
        sequence: [],
      };
    return {
      ...base,
      verdict: stopped ? 'unknown' : 'readable',
      rule: null,
      step: null,
      text: stopped
        ? `A redirect (${answer!.status}) to ${location} that passes the CORS check, and the engine went no further: the request’s redirect mode stopped it ('error' rejects, 'manual' hands the page an opaque redirect), or the next answer was refused.`
        : `A redirect (${answer!.status}) to ${location} that passes the CORS check: a browser that follows redirects (fetch’s default) sends the request on, and the checks apply again to the next answer.`,
      reachedServer: true,
      fix: null,
      playground: null,
      risks: [],
      restsOn,
      unknowns: [
        ...unknowns,
        stopped
          ? 'Why the engine stopped: the request’s redirect mode is not in the evidence; the console says (“Not allowed to follow a redirection”, or a CORS message for the next URL).'
          : 'Whether the page followed it: the request’s redirect mode is not in the evidence (“manual” and “error” stop at a redirect).',
      ],
      sequence: [],
    };
  }
  // The recorder says the read failed (DevTools keeps the answer and the error), yet without
  // credentials every check passes: only credentials explain it, so they were sent (the export
  // stripped the cookie, or the page sent none but asked for them).
  const failure = exchange.answer?.error;
  const credentialsInferred =
    !withoutThem &&
    !credentialsKnown &&
    failure !== undefined &&
    !NETWORK_ERROR.test(failure) &&
    withCredentials !== null;
  const refusal = credentialsInferred ? withCredentials : withoutThem;
  if (credentialsInferred)
    restsOn.push(
      'credentials, inferred: the recorder says the read failed, and without credentials nothing in the answer refuses it',
    );
  else if (!cookie) unknowns.unshift(credentialsNote);
  if (!credentialsKnown && !credentialsInferred && withCredentials && !refusal)
    unknowns.push(`With credentials it would be refused: ${withCredentials.text}`);
  const refusedWithCredentials =
    !credentialsKnown && !credentialsInferred && withCredentials && !refusal ? withCredentials.rule : undefined;

  const risks: Risk[] = [];
  const allow = answer?.headers['access-control-allow-origin'];
  if (answer && allow !== undefined && allow !== '*' && !variesByOrigin(answer))
    risks.push({
      kind: 'missing-vary',
      text: `Access-Control-Allow-Origin names ${allow} without Vary: Origin: a shared cache may hand that permission to another origin.`,
    });
  if (answer && allow === origin && answer.headers['access-control-allow-credentials'] === 'true')
    risks.push({
      kind: 'reflected-with-credentials',
      text: 'The answer names the page’s origin with credentials allowed. Right if the server compares origins with an exact list; if it reflects any Origin, every site reads with the user’s cookies: `origin-lab check` tries that.',
    });
  if (answer && allow === '*')
    risks.push({
      kind: 'wildcard',
      text: 'Access-Control-Allow-Origin is *: any site reads it, never with credentials.',
    });
  // A 403 to a request that changes something and is not same-origin: what Fetch-metadata protection
  // answers, before the handler (and before CORS code placed after it). The contract's rule decides.
  const protection =
    answer?.status === 403 && target
      ? fetchMetadataRefusal({ method, secFetchSite: fetchSite ?? null, origin, host: target.host })
      : null;
  if (protection)
    risks.push({
      kind: 'fetch-metadata',
      text: `Not CORS, most likely: the server answered 403 to a ${method} that is not same-origin (${fetchSite ? `Sec-Fetch-Site: ${fetchSite}` : `Origin: ${origin}, another host`}). That is what ${FETCH_METADATA_GUARDS} answers, before the handler runs. ${refusal ? 'Its answer carries no CORS headers, so the browser reports a CORS failure, and fixing CORS alone will not help: ' : 'CORS let the page read that answer: '}let this origin through the protection (a trusted origin), or send the request from the server’s own origin.`,
    });
  else if (!refusal && answer && answer.status >= 400)
    risks.push({
      kind: 'readable-error-status',
      text: `Not a CORS failure: the answer is ${answer.status}, and the page may read it. The error is the server’s (or the request’s).`,
    });

  const preflightStatus = exchange.preflight?.answer?.status;
  if (!refusal) {
    const readable = answer !== undefined;
    return {
      ...base,
      verdict: readable ? 'readable' : exchange.isPreflight ? 'readable' : 'unknown',
      rule: null,
      step: null,
      text: readable
        ? `The page may read this answer: ${allow === '*' ? 'Access-Control-Allow-Origin is *' : `Access-Control-Allow-Origin names ${origin}`}${credentials ? ' and credentials are allowed' : ''}.${answer.status >= 400 ? ' The status is an error, but not a CORS one.' : ''}`
        : 'The preflight passes; the request after it is not in the evidence.',
      reachedServer: readable ? true : null,
      fix: null,
      playground: null,
      ...(refusedWithCredentials && { withCredentials: refusedWithCredentials }),
      risks,
      restsOn,
      unknowns,
      sequence: sequenceOf({
        preflight: exchange.preflight ? true : needsPreflight,
        failedAt: null,
        method,
        inferred: !exchange.preflight && needsPreflight,
        ...(preflightStatus && { preflightStatus }),
        ...(answer && { status: answer.status }),
      }),
    };
  }
  const header =
    refusal.rule === 'header-not-allowed' || refusal.rule === 'authorization-not-covered'
      ? unsafe.find(
          (name) =>
            !(preflightAnswer?.headers['access-control-allow-headers'] ?? '')
              .toLowerCase()
              .split(/\s*,\s*/)
              .includes(name),
        )
      : undefined;
  return {
    ...base,
    verdict: 'refused',
    rule: refusal.rule,
    step: refusal.step,
    ...(refusal.header && { header: refusal.header }),
    ...(refusal.value !== undefined && { value: refusal.value }),
    text: `${refusal.text} The rule: ${STEP_TEXT[refusal.step]}.${refusal.requestSent ? ' The request reached the server and was answered; only the page may not read it.' : ' The request itself was never sent.'}${refusal.rule === 'authorization-not-covered' ? ` ${AUTHORIZATION_TODAY}` : ''}`,
    reachedServer: refusal.requestSent,
    fix: fixOf(refusal.rule, origin, method, header, refusal.stage === 'preflight'),
    playground: fieldsOf(refusal.rule, {
      method,
      ...(header && { header }),
      ...(preflightStatus && { status: preflightStatus }),
      ...(refusal.stage === 'preflight' && { preflight: true }),
    }),
    risks,
    restsOn,
    unknowns,
    sequence: sequenceOf({
      preflight: refusal.stage === 'preflight' || exchange.preflight !== null || needsPreflight,
      failedAt: refusal.stage,
      method,
      inferred: !exchange.preflight && needsPreflight,
      ...(preflightStatus && { preflightStatus }),
      ...(answer && { status: answer.status }),
    }),
  };
}
