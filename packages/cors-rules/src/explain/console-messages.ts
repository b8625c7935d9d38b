/**
 * What the engines print to their console when they refuse a cross-origin read, read back into
 * the rule that refused it. Chromium prefixes every reason with "Access to fetch at 'URL' from
 * origin 'ORIGIN' has been blocked by CORS policy:"; Firefox prints "Cross-Origin Request
 * Blocked: ... (Reason: ...)"; WebKit prints its reason and, on a second line, "Fetch API cannot
 * load URL due to access control checks." Each pattern below is one message of one engine, in
 * English, as the engine's sources write it and the corpus (recorded from the engines) shows it.
 */
import type { RefusalRule } from '../rules/refusal.js';

export type Engine = 'chromium' | 'firefox' | 'webkit';

/** Refusals that are not CORS, as the engines word them. */
export type NotCorsRule =
  | 'local-network-access'
  | 'mixed-content'
  | 'network'
  | 'scheme'
  | 'redirect-credentials'
  /** A redirect the request's redirect mode ('error') does not let it follow. */
  | 'redirect-mode'
  | 'cors-disabled'
  /** A request the evidence shows in no-cors mode (Sec-Fetch-Mode): its answer is opaque, whatever its headers. */
  | 'no-cors-mode'
  /** A request the evidence shows coming from its own origin (Sec-Fetch-Site): no CORS at all. */
  | 'same-origin'
  /** An embed refused by Cross-Origin-Resource-Policy, or for want of it under COEP require-corp: cross-origin isolation. */
  | 'resource-policy'
  /** A window cut off from the page that opened it (or would be, report-only) by Cross-Origin-Opener-Policy. */
  | 'opener-policy'
  /** A site embedded or called under another top-level site given that site's partition of cookies, not its own. */
  | 'cookie-partitioned';

/** A rule the message names, or 'unspecified' when the engine says only that access control failed. */
export type MessageRule = RefusalRule | NotCorsRule | 'unspecified';

export interface ConsoleReading {
  engine: Engine;
  rule: MessageRule;
  /** Whether the preflight failed (the request itself was never sent), when the message says. */
  preflight: boolean | null;
  /** The URL refused, the page's origin, the header's value or the method, where the message gives them. */
  url?: string;
  origin?: string;
  value?: string;
  /** The status code the engine reported (Firefox and WebKit give one). */
  status?: number;
  /** The request was redirected (Chromium names where from). */
  redirectedFrom?: string;
  /** The API that sent it, where the message says (fetch or XMLHttpRequest). */
  api?: 'fetch' | 'xhr';
  /**
   * Where the engine's words fit more than one rule ('unspecified'): the rules they fit, as the
   * engine's sources and the corpus show it. Only the answer's headers tell which.
   */
  candidates?: RefusalRule[];
  /** The message as given, trimmed. */
  text: string;
}

interface Pattern {
  engine: Engine;
  pattern: RegExp;
  rule: MessageRule;
  /** Which capture group holds the header value, method or header name. */
  value?: number;
  preflight?: boolean;
  candidates?: RefusalRule[];
}

// Chromium: the reason after "has been blocked by CORS policy: ".
const CHROMIUM_REASONS: Pattern[] = [
  {
    engine: 'chromium',
    pattern: /No 'Access-Control-Allow-Origin' header is present on the requested resource/,
    rule: 'no-allow-origin',
  },
  {
    engine: 'chromium',
    pattern: /The 'Access-Control-Allow-Origin' header has a value '([^']*)' that is not equal to the supplied origin/,
    rule: 'origin-mismatch',
    value: 1,
  },
  {
    engine: 'chromium',
    pattern: /The 'Access-Control-Allow-Origin' header contains multiple values '([^']*)', but only one is allowed/,
    rule: 'allow-origin-list',
    value: 1,
  },
  {
    engine: 'chromium',
    pattern: /The 'Access-Control-Allow-Origin' header contains the invalid value '([^']*)'/,
    rule: 'origin-mismatch',
    value: 1,
  },
  {
    engine: 'chromium',
    pattern: /must not be the wildcard '\*' when the request's credentials mode is 'include'/,
    rule: 'wildcard-with-credentials',
  },
  {
    engine: 'chromium',
    pattern:
      /The value of the 'Access-Control-Allow-Credentials' header in the response is '([^']*)' which must be 'true'/,
    rule: 'credentials-not-allowed',
    value: 1,
  },
  {
    engine: 'chromium',
    pattern: /Method (\S+) is not allowed by Access-Control-Allow-Methods in preflight response/,
    rule: 'method-not-allowed',
    value: 1,
    preflight: true,
  },
  {
    engine: 'chromium',
    pattern: /Request header field (\S+) is not allowed by Access-Control-Allow-Headers in preflight response/,
    rule: 'header-not-allowed',
    value: 1,
    preflight: true,
  },
  { engine: 'chromium', pattern: /It does not have HTTP ok status/, rule: 'preflight-status', preflight: true },
  {
    engine: 'chromium',
    pattern: /Redirect is not allowed for a preflight request/,
    rule: 'preflight-redirect',
    preflight: true,
  },
  {
    engine: 'chromium',
    pattern: /Redirect location '([^']*)' contains a username and password/,
    rule: 'redirect-credentials',
    value: 1,
  },
  { engine: 'chromium', pattern: /Cross origin requests are only supported for protocol schemes/, rule: 'scheme' },
  {
    engine: 'chromium',
    pattern:
      /(more-private address space|Permission was denied for this request to access the `\w+` address space|Private Network Access)/,
    rule: 'local-network-access',
  },
];

const FIREFOX_REASONS: Pattern[] = [
  { engine: 'firefox', pattern: /CORS header ‘Access-Control-Allow-Origin’ missing/, rule: 'no-allow-origin' },
  {
    engine: 'firefox',
    pattern: /CORS header ‘Access-Control-Allow-Origin’ does not match ‘([^’]*)’/,
    rule: 'origin-mismatch',
    value: 1,
  },
  {
    engine: 'firefox',
    pattern: /Multiple CORS header ‘Access-Control-Allow-Origin’ not allowed/,
    rule: 'allow-origin-list',
  },
  {
    engine: 'firefox',
    pattern: /Credential is not supported if the CORS header ‘Access-Control-Allow-Origin’ is ‘\*’/,
    rule: 'wildcard-with-credentials',
  },
  {
    engine: 'firefox',
    pattern: /expected ‘true’ in CORS header ‘Access-Control-Allow-Credentials’/,
    rule: 'credentials-not-allowed',
  },
  {
    engine: 'firefox',
    pattern: /Did not find method in CORS header ‘Access-Control-Allow-Methods’/,
    rule: 'method-not-allowed',
    preflight: true,
  },
  {
    engine: 'firefox',
    pattern: /invalid token ‘([^’]*)’ in CORS header ‘Access-Control-Allow-Methods’/,
    rule: 'method-not-allowed',
    value: 1,
    preflight: true,
  },
  {
    engine: 'firefox',
    pattern:
      /header ‘([^’]*)’ is not allowed according to header ‘Access-Control-Allow-Headers’ from CORS preflight response/,
    rule: 'header-not-allowed',
    value: 1,
    preflight: true,
  },
  {
    engine: 'firefox',
    pattern: /missing token ‘([^’]*)’ in CORS header ‘Access-Control-Allow-Headers’/,
    rule: 'header-not-allowed',
    value: 1,
    preflight: true,
  },
  {
    engine: 'firefox',
    pattern: /invalid token ‘([^’]*)’ in CORS header ‘Access-Control-Allow-Headers’/,
    rule: 'header-not-allowed',
    value: 1,
    preflight: true,
  },
  {
    engine: 'firefox',
    pattern: /the `Authorization` header is not covered/,
    rule: 'authorization-not-covered',
    preflight: true,
  },
  { engine: 'firefox', pattern: /CORS preflight response did not succeed/, rule: 'preflight-status', preflight: true },
  { engine: 'firefox', pattern: /CORS preflight channel did not succeed/, rule: 'preflight-status', preflight: true },
  { engine: 'firefox', pattern: /CORS request external redirect not allowed/, rule: 'preflight-redirect' },
  { engine: 'firefox', pattern: /CORS request did not succeed/, rule: 'network' },
  { engine: 'firefox', pattern: /CORS request not HTTP/, rule: 'scheme' },
  { engine: 'firefox', pattern: /CORS disabled/, rule: 'cors-disabled' },
];

const WEBKIT_REASONS: Pattern[] = [
  // WebKit's CORS check: no Access-Control-Allow-Origin, or one that names another single origin.
  {
    engine: 'webkit',
    pattern: /Origin (\S+) is not allowed by Access-Control-Allow-Origin/,
    rule: 'unspecified',
    candidates: ['no-allow-origin', 'origin-mismatch'],
  },
  {
    engine: 'webkit',
    pattern: /Access-Control-Allow-Origin cannot contain more than one origin/,
    rule: 'allow-origin-list',
  },
  {
    engine: 'webkit',
    pattern: /Cannot use wildcard in Access-Control-Allow-Origin when credentials flag is true/,
    rule: 'wildcard-with-credentials',
  },
  {
    engine: 'webkit',
    pattern: /Credentials flag is true, but Access-Control-Allow-Credentials is not "true"/,
    rule: 'credentials-not-allowed',
  },
  { engine: 'webkit', pattern: /Preflight response is not successful/, rule: 'preflight-status', preflight: true },
  {
    engine: 'webkit',
    pattern: /Method (\S+) is not allowed by Access-Control-Allow-Methods/,
    rule: 'method-not-allowed',
    value: 1,
    preflight: true,
  },
  {
    engine: 'webkit',
    pattern: /Request header field (\S+) is not allowed by Access-Control-Allow-Headers/,
    rule: 'header-not-allowed',
    value: 1,
    preflight: true,
  },
  // With no reason before it: all WebKitGTK 2.50 prints when the preflight's answer is not a 2xx
  // or is a redirect (measured, the playground's preflight-401, -404, -500 and -301).
  {
    engine: 'webkit',
    pattern: /(?:Fetch API|XMLHttpRequest) cannot load (\S+) due to access control checks/,
    rule: 'unspecified',
    candidates: ['preflight-status', 'preflight-redirect'],
  },
  {
    engine: 'webkit',
    pattern:
      /Cross-origin redirection to \S+ denied by Cross-Origin Resource Sharing policy: redirection URL (\S+) has credentials/,
    rule: 'redirect-credentials',
    value: 1,
  },
  {
    engine: 'webkit',
    pattern: /Cross-origin redirection to (\S+) denied by Cross-Origin Resource Sharing policy/,
    rule: 'unspecified',
  },
  // fetch's redirect: 'error' (measured, the playground's redirect-error).
  { engine: 'webkit', pattern: /Not allowed to follow a redirection while loading (\S+)/, rule: 'redirect-mode' },
];

const CHROMIUM_LINE =
  /^Access to (fetch|XMLHttpRequest) at '([^']+)'(?: \(redirected from '([^']+)'\))? from origin '([^']+)' has been blocked by CORS policy: (.*)$/s;
const FIREFOX_LINE =
  /^(?:Cross-Origin Request Blocked|Cross-Origin Request Warning): The Same Origin Policy (?:disallows|will disallow) reading the remote resource at (\S+?)\.? (?:soon\. )?\(Reason: (.*?)\)\.?(?: Status code: (\S+?)\.?)?$/s;
const MIXED_CONTENT =
  /^Mixed Content: The page at '([^']+)' was loaded over HTTPS, but requested an insecure (?:resource|XMLHttpRequest endpoint) '([^']+)'/;

/**
 * A resource the browser would not embed for its Cross-Origin-Resource-Policy (or, under COEP
 * require-corp, for want of one), as each engine words it: Chromium names only the net error
 * (measured, Chromium 156), whose reason says CORP or COEP (NotSameOrigin, NotSameSite, each
 * possibly "AfterDefaultedToSameOriginByCoep", or Coep...; its other reasons, such as a frame's
 * X-Frame-Options, are not this); Firefox and WebKit name the URL (their sources' strings).
 */
const RESOURCE_POLICY: readonly { engine: Engine; pattern: RegExp; url?: true }[] = [
  {
    engine: 'chromium',
    pattern: /^Failed to load resource: net::ERR_BLOCKED_BY_RESPONSE\.((?:Corp)?NotSame(?:Origin|Site)\w*|Coep\w+)/,
  },
  {
    engine: 'firefox',
    pattern: /^The resource at “([^”]+)” was blocked due to its Cross-Origin-Resource-Policy header/,
    url: true,
  },
  {
    engine: 'webkit',
    pattern: /^Cancelled load to (\S+) because it violates the resource's Cross-Origin-Resource-Policy response header/,
    url: true,
  },
];

/**
 * Chromium's line when an opener policy cuts (or, report-only, would cut) a popup from its opener
 * and one of them reaches across: window.closed, window.postMessage... (measured, Chromium 156,
 * with the provider's policy report-only on the sign-in page). Firefox 153 and WebKitGTK 2.50
 * print nothing there, enforced or report-only (measured): no line to read.
 */
const OPENER_POLICY = /^Cross-Origin-Opener-Policy policy would block the window\.(\w+) call\.?$/;

/**
 * Firefox's line when a frame (or a request) of one site under a page of another gets the
 * cookies and storage it has under that top-level site, not its own (Total Cookie Protection), as
 * Firefox's strings and MDN's page on state partitioning word it ("storage partitioning" in
 * MDN's copy). Untested in a real engine here: Firefox 153 gives its driver no such line for the
 * provider's frame on the sign-in page (measured), only its own console shows it.
 */
const PARTITIONED =
  /^Partitioned cookie or storage access was provided to [“"](.+)[”"] because it is loaded in the third-party context and (?:dynamic state|storage) partitioning is enabled\.?$/;

/** Reads one console message; null when it is not a CORS or network refusal any engine prints. */
export function readConsoleMessage(message: string): ConsoleReading | null {
  const text = message.trim();
  const opener = OPENER_POLICY.exec(text);
  if (opener) return { engine: 'chromium', rule: 'opener-policy', preflight: null, value: opener[1]!, text };
  const partitioned = PARTITIONED.exec(text);
  if (partitioned)
    return { engine: 'firefox', rule: 'cookie-partitioned', preflight: null, url: partitioned[1]!, text };
  for (const { engine, pattern, url } of RESOURCE_POLICY) {
    const found = pattern.exec(text);
    if (found)
      return {
        engine,
        rule: 'resource-policy',
        preflight: false,
        ...(url ? { url: found[1]! } : { value: found[1]! }),
        text,
      };
  }
  const mixed = MIXED_CONTENT.exec(text);
  if (mixed)
    return {
      engine: 'chromium',
      rule: 'mixed-content',
      preflight: null,
      origin: new URL(mixed[1]!).origin,
      url: mixed[2]!,
      text,
    };
  const chromium = CHROMIUM_LINE.exec(text);
  if (chromium) {
    const [, api, url, redirectedFrom, origin, reason] = chromium;
    const preflightPrefix = /^Response to preflight request doesn't pass access control check: /.test(reason!);
    const found = match(CHROMIUM_REASONS, reason!);
    return {
      engine: 'chromium',
      rule: found?.rule ?? 'unspecified',
      preflight: found?.preflight ?? preflightPrefix,
      url,
      origin,
      ...(found?.value !== undefined && { value: found.value }),
      ...(redirectedFrom && { redirectedFrom }),
      api: api === 'fetch' ? 'fetch' : 'xhr',
      text,
    };
  }
  const firefox = FIREFOX_LINE.exec(text);
  if (firefox) {
    const [, url, reason, status] = firefox;
    const found = match(FIREFOX_REASONS, reason!);
    return {
      engine: 'firefox',
      rule: found?.rule ?? 'unspecified',
      preflight: found?.preflight ?? null,
      url,
      ...(found?.value !== undefined && { value: found.value }),
      ...(status && /^\d+$/.test(status) && { status: Number(status) }),
      text,
    };
  }
  const webkit = match(WEBKIT_REASONS, text);
  if (webkit) {
    const status = /Status code: (\d+)/.exec(text);
    const origin = /^Origin (\S+) is not allowed/.exec(text);
    const url = /cannot load (\S+) due to access control checks/.exec(text);
    return {
      engine: 'webkit',
      rule: webkit.rule,
      preflight: webkit.preflight ?? null,
      ...(origin && { origin: origin[1] }),
      ...(url && { url: url[1] }),
      ...(webkit.value !== undefined && { value: webkit.value }),
      ...(webkit.candidates && { candidates: webkit.candidates }),
      ...(status && { status: Number(status[1]) }),
      ...(/^XMLHttpRequest/.test(text) && { api: 'xhr' as const }),
      ...(/^Fetch API/.test(text) && { api: 'fetch' as const }),
      text,
    };
  }
  return null;
}

function match(
  patterns: readonly Pattern[],
  text: string,
): { rule: MessageRule; preflight?: boolean; value?: string; candidates?: RefusalRule[] } | null {
  for (const { pattern, rule, value, preflight, candidates } of patterns) {
    const found = pattern.exec(text);
    if (found)
      return {
        // "does not match 'a, b'" (Firefox): the header holds a list, which is its own rule.
        rule:
          rule === 'origin-mismatch' && value !== undefined && found[value]?.includes(',') ? 'allow-origin-list' : rule,
        ...(preflight !== undefined && { preflight }),
        ...(candidates && { candidates }),
        ...(value !== undefined && found[value] !== undefined && { value: found[value] }),
      };
  }
  return null;
}

/** A source location as DevTools may print it after a message: a script's file and line (and column). */
const LOCATION = /^[\w./-]+\.(?:js|html|ts):\d+(?::\d+)?$/;

/**
 * A line without the location DevTools may end it with, found from the line's last word: a pattern
 * anchored at the end would be tried from every space of a long run of them (pasted text may hold
 * megabytes), a time that grows with the square of the run.
 */
function withoutLocation(line: string): string {
  const trimmed = line.trimEnd();
  let space = trimmed.length - 1;
  while (space >= 0 && !/\s/.test(trimmed[space]!)) space--;
  return space > 0 && LOCATION.test(trimmed.slice(space + 1)) ? trimmed.slice(0, space) : trimmed;
}

/**
 * Splits pasted console text into messages: each engine's message starts a line in a known way
 * (DevTools may add the file and line after it, Firefox's console a trailing location); anything
 * else joins the message before it, so a message wrapped by a terminal is read whole.
 */
export function splitConsoleText(text: string): string[] {
  const starts =
    /^(Access to (fetch|XMLHttpRequest) at |Cross-Origin Request (Blocked|Warning):|Mixed Content:|Failed to load resource: net::ERR_BLOCKED_BY_RESPONSE|The resource at |Cancelled load to |Origin \S+ is not allowed|Fetch API cannot load|XMLHttpRequest cannot load|Preflight response is not successful|Request header field |Method \S+ is not allowed|Cannot use wildcard|Credentials flag is true|Access-Control-Allow-Origin cannot contain|Cross-origin redirection to|Not allowed to follow a redirection|\[Error\]|\[Warning\])/;
  const messages: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    // Safari's and WebKit's inspector prefix each line with [Error]; DevTools may end one with a file:line.
    const line = withoutLocation(raw.replace(/^\s*\[(Error|Warning)\]\s*/, '')).trim();
    if (line === '') continue;
    // WebKit prints its reason, then "Fetch API cannot load URL ...": one refusal, one message.
    const webkitSecondLine =
      /^(Fetch API|XMLHttpRequest) cannot load /.test(line) &&
      /^(Origin \S+ is not allowed|Preflight response|Request header field|Method \S+ is not allowed|Cannot use wildcard|Credentials flag|Access-Control-Allow-Origin cannot|Cross-origin redirection to|Not allowed to follow a redirection)/.test(
        messages[messages.length - 1] ?? '',
      );
    if ((starts.test(line) && !webkitSecondLine) || messages.length === 0) messages.push(line);
    else messages[messages.length - 1] += ` ${line}`;
  }
  return messages;
}
