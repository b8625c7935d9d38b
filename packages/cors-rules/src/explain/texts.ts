/**
 * The explainer's prose: the sentences and titles people read, apart from the judges that choose
 * them. Each takes what it names as arguments; none decides anything.
 */
import type { FetchStep, RefusalRule } from '../rules/refusal.js';
import type { ConsoleReading } from './console-messages.js';

/** What Fetch-metadata protection is, said once for both of the explainer's guesses at it. */
export const FETCH_METADATA_GUARDS =
  'Fetch-metadata protection (Go’s http.CrossOriginProtection, and the CSRF guards of frameworks that read Sec-Fetch-Site)';

/** Where the engines stand on Authorization under *, as measured (e2e, every engine). */
export const AUTHORIZATION_TODAY =
  'Today the engines do not refuse it yet (measured: Chromium 156, Firefox 153 and WebKit (GTK) 2.50 let it through; Chromium warns that it will stop): name it before they do.';

export const STEP_TEXT: Record<FetchStep, string> = {
  'CORS check': 'the CORS check of the answer (Fetch, “CORS check”)',
  'CORS-preflight fetch': 'the checks of the preflight’s answer (Fetch, “CORS-preflight fetch”)',
};

export const NOT_CORS_TEXT: Record<string, string> = {
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
  'opener-policy':
    'Not CORS: Cross-Origin-Opener-Policy. An opener policy on the page or on the window it opened (a sign-in popup) puts the two in separate browsing context groups: the popup’s window.opener is null, the page’s popup.closed reads true, and no message crosses. “Would block” is a report-only policy saying what it would cut. Send same-origin-allow-popups on the page that opens the popup and no policy on the popup’s sign-in answer, or sign in by redirect.',
  'cookie-partitioned':
    'Not CORS: a partitioned cookie jar (Firefox’s Total Cookie Protection). This site is framed, or called, by a page of another site, so Firefox gives it the cookies and storage it has under that top-level site, not its own: a session it set when visited directly (signed in on its own page) does not come, and its server sees a visitor who is not signed in. No CORS header sends them. Have the framed page call document.requestStorageAccess() after a click in it, or sign in top-level (a popup or a redirect) and keep the token rather than the cookie; a cookie set with Partitioned keeps a state per top-level site.',
  'resource-policy':
    'Not CORS: cross-origin isolation. The server answered, and the browser would not embed the answer: the page is served with Cross-Origin-Embedder-Policy: require-corp and the resource, loaded without CORS (an <img>, a <script> without crossorigin, a no-cors fetch), does not say Cross-Origin-Resource-Policy: cross-origin; or the resource says CORP same-origin or same-site. No Access-Control header changes it. Have the resource send Cross-Origin-Resource-Policy: cross-origin, load it with CORS (crossorigin) from a server that allows the origin, or serve the page with COEP credentialless.',
};

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

/** What a message that names no rule still tells, and which rules it fits. */
export function unspecifiedText(
  reading: ConsoleReading,
  candidates: readonly RefusalRule[],
  preflightOnly: boolean,
): string {
  if (reading.engine !== 'webkit') return 'The engine refused to let the page read the answer without naming the rule.';
  if (preflightOnly)
    return 'WebKit (Safari) printed only that access control checks failed, with no reason before it: that is all it prints when the preflight was answered with a status outside 200–299 or with a redirect (measured in WebKit (GTK) 2.50). The request itself was then never sent. The preflight’s status tells which.';
  if (candidates.includes('no-allow-origin'))
    return `WebKit (Safari) refused to let the page read the answer${reading.status ? ` (status ${reading.status})` : ''}: its Access-Control-Allow-Origin was missing, or named another origin than the page’s${reading.origin ? ` (${reading.origin})` : ''}. WebKit words the two alike; the answer’s headers tell which.`;
  return 'WebKit (Safari) refused to let the page read the answer, without saying which rule. The answer’s headers tell which.';
}

/** What a console message says of its rule, in a sentence. */
export function messageSentence(reading: ConsoleReading): string {
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

// The console message's path.

/** What a console explanation rests on: the engine's own message. */
export const consoleRestsOn = (engine: ConsoleReading['engine']) =>
  `the ${engine === 'webkit' ? 'WebKit (Safari)' : engine === 'chromium' ? 'Chromium (Chrome, Edge)' : 'Firefox'} console message`;

export const CONSOLE_UNKNOWN =
  'The answer’s headers are not in a console message: `curl -v -H "Origin: <your origin>" <URL>` (and `-X OPTIONS -H "Access-Control-Request-Method: <method>"` for the preflight) shows them.';

export const PREFLIGHT_ANSWER_UNKNOWN =
  'The preflight’s answer is not in the message: `curl -v -X OPTIONS -H "Origin: <your origin>" -H "Access-Control-Request-Method: <method>" <URL>` shows its status and headers.';

export const NETWORK_UNKNOWN =
  'Whether it is CORS at all: open the URL on its own, or `curl -v` it, to see whether anything answers.';

export const CUT_SHORT = 'The message looks cut short: paste it whole.';

/** A 403 to the request itself, as a console message shows it. */
export const CONSOLE_FETCH_METADATA_RISK = `The answer was a 403 without the CORS headers. If the request changes something (POST, PUT, DELETE…) and the server runs ${FETCH_METADATA_GUARDS}, that refused it before its CORS code ran: not CORS, and fixing CORS alone will not help. The server’s log, or the answer’s body, says which.`;

/** Where the request got to, after the rule's step. */
const reachText = (sent: boolean) =>
  sent
    ? ' The request reached the server and was answered; only the page may not read it.'
    : ' The request itself was never sent.';

/** A console message's refusal: its sentence, the step, and whether the request was sent. */
export const consoleRefusedText = (reading: ConsoleReading, preflight: boolean) =>
  `${messageSentence(reading)} The rule: ${STEP_TEXT[preflight ? 'CORS-preflight fetch' : 'CORS check']}.${reachText(!preflight)}`;

// An exchange's path (HAR, curl).

/** Which header told the request was not cross-origin CORS. */
export const notCrossOriginRestsOn = (header: 'Site' | 'Mode', evidence: string) =>
  `the request’s Sec-Fetch-${header} header, as ${evidence} shows it`;

export const NO_ORIGIN_TEXT =
  'The request’s Origin is not in the evidence (curl -i shows only the answer): the rules cannot be applied without it.';
export const NO_ORIGIN_UNKNOWN = 'Use curl -v with -H "Origin: <your origin>", or tell the page’s origin (--origin).';

export const mixedContentRestsOn = (evidence: string) => `the page’s origin and the URL, as ${evidence} shows them`;

export const recordOfRequest = (evidence: string) => `${evidence}’s record of the request`;

export const notKeptText = (evidence: string) =>
  `A 304: the browser revalidated an answer it kept, and hands the page that answer with its headers updated by the 304’s (HTTP caching). ${evidence} does not hold the kept answer, so its CORS headers cannot be read.`;
export const NOT_KEPT_UNKNOWN =
  'The kept answer: record from before the first request (a HAR of the whole session), or clear the cache and record again.';

export const KEPT_NOTE =
  'the answer the browser kept, as refreshed by the 304: its headers updated with the 304’s (HTTP caching, RFC 9111)';
export const REFERER_NOTE =
  'the page’s origin as its Referer shows it (the recorder kept no Origin header for this request)';

export const headerlessText = (evidence: string, status: number) =>
  `${evidence} recorded the answer (${status}) without any of its headers: Chromium’s recorder does so for an opaque answer (a no-cors request), so the rules cannot be applied to it.`;
export const headerlessUnknown = (origin: string, url: string) =>
  `The answer’s headers: \`curl -v -H "Origin: ${origin}" ${url}\` shows them, and the request’s Sec-Fetch-Mode says whether it was sent in cors mode.`;

export const networkText = (error: string) =>
  `Not CORS: the request got no answer (${error}): a DNS, connection or certificate failure, which the page sees as the same TypeError.`;
export const unrecordedRefusalText = (evidence: string, error: string, status: number) =>
  `${evidence} recorded the request with no answer (${error || `status ${status}`}): Chromium records a read it refused so, without the answer’s headers, so the rule cannot be read from it.`;
export const answerHeadersUnknown = (origin: string, url: string) =>
  'The answer’s headers: `curl -v -H "Origin: ' +
  origin +
  '" ' +
  url +
  '` shows them, or the console message says the rule.';
export const HAR_WITHOUT_PREFLIGHT =
  'The preflight: this HAR has none (Playwright’s recorder leaves it out; DevTools can hide it).';

export const answerHeadersNote = (evidence: string) => `the answer’s headers as ${evidence} recorded them`;

export const credentialsNote = (source: 'har' | 'curl') =>
  source === 'har'
    ? 'Whether the request was sent with credentials: no Cookie header here (the page sent none, or a sanitized export removed it). The explanation holds for a request without credentials; with them, see the note below.'
    : 'Whether the page sends credentials: curl sends what you gave it. The explanation is for a request without credentials.';

export const missingPreflightUnknown = (source: 'har' | 'curl', method: string) =>
  source === 'har'
    ? 'The preflight: this request needed one, and the HAR has none (Playwright’s recorder leaves preflights out; DevTools can hide them). Its checks are not read here.'
    : 'The preflight: this request needs one; add `-X OPTIONS -H "Access-Control-Request-Method: ' +
      method +
      '"` to see its answer.';

export const REDIRECT_USERINFO_NOTE = `the redirect’s Location, which holds a user name and password`;

export const redirectText = (stopped: boolean, status: number, location: string) =>
  stopped
    ? `A redirect (${status}) to ${location} that passes the CORS check, and the engine went no further: the request’s redirect mode stopped it ('error' rejects, 'manual' hands the page an opaque redirect), or the next answer was refused.`
    : `A redirect (${status}) to ${location} that passes the CORS check: a browser that follows redirects (fetch’s default) sends the request on, and the checks apply again to the next answer.`;
export const redirectUnknown = (stopped: boolean) =>
  stopped
    ? 'Why the engine stopped: the request’s redirect mode is not in the evidence; the console says (“Not allowed to follow a redirection”, or a CORS message for the next URL).'
    : 'Whether the page followed it: the request’s redirect mode is not in the evidence (“manual” and “error” stop at a redirect).';

export const CREDENTIALS_INFERRED =
  'credentials, inferred: the recorder says the read failed, and without credentials nothing in the answer refuses it';
export const withCredentialsUnknown = (refusalText: string) => `With credentials it would be refused: ${refusalText}`;

export const missingVaryRisk = (allow: string) =>
  `Access-Control-Allow-Origin names ${allow} without Vary: Origin: a shared cache may hand that permission to another origin.`;
export const REFLECTED_RISK =
  'The answer names the page’s origin with credentials allowed. Right if the server compares origins with an exact list; if it reflects any Origin, every site reads with the user’s cookies: `origin-lab check` tries that.';
export const WILDCARD_RISK = 'Access-Control-Allow-Origin is *: any site reads it, never with credentials.';
export const fetchMetadataRisk = (method: string, fetchSite: string | undefined, origin: string, refused: boolean) =>
  `Not CORS, most likely: the server answered 403 to a ${method} that is not same-origin (${fetchSite ? `Sec-Fetch-Site: ${fetchSite}` : `Origin: ${origin}, another host`}). That is what ${FETCH_METADATA_GUARDS} answers, before the handler runs. ${refused ? 'Its answer carries no CORS headers, so the browser reports a CORS failure, and fixing CORS alone will not help: ' : 'CORS let the page read that answer: '}let this origin through the protection (a trusted origin), or send the request from the server’s own origin.`;
export const readableErrorRisk = (status: number) =>
  `Not a CORS failure: the answer is ${status}, and the page may read it. The error is the server’s (or the request’s).`;

export const readableText = (allow: string | undefined, origin: string, credentials: boolean, status: number) =>
  `The page may read this answer: ${allow === '*' ? 'Access-Control-Allow-Origin is *' : `Access-Control-Allow-Origin names ${origin}`}${credentials ? ' and credentials are allowed' : ''}.${status >= 400 ? ' The status is an error, but not a CORS one.' : ''}`;
export const PREFLIGHT_PASSES = 'The preflight passes; the request after it is not in the evidence.';

/** An exchange's refusal: the rule's own text, its step, whether the request was sent, and where the engines stand. */
export const refusedText = (refusal: { text: string; step: FetchStep; requestSent: boolean; rule: RefusalRule }) =>
  `${refusal.text} The rule: ${STEP_TEXT[refusal.step]}.${reachText(refusal.requestSent)}${refusal.rule === 'authorization-not-covered' ? ` ${AUTHORIZATION_TODAY}` : ''}`;
