/**
 * Exchanges read from the evidence people already have: a HAR file (DevTools' export in Chromium
 * or Firefox, sanitized or not, or Playwright's recorder) and the output of `curl -v` or
 * `curl -i`. Each exchange is a cross-origin request with what its answer carried, and, where
 * the evidence has it, its preflight. Nothing here fetches anything: it reads text.
 */
import type { Answer } from '../rules/refusal.js';

export interface RecordedRequest {
  method: string;
  url: string;
  /** Request headers, names in lower case (repeated ones joined with ", "). */
  headers: Record<string, string>;
}

export interface RecordedAnswer extends Answer {
  headers: Record<string, string>;
  /** The status as recorded, when it says the answer never came (0, -1) rather than a status. */
  failed: boolean;
  /** What the recorder said went wrong (Chromium's net::ERR_..., Firefox's NS_ERROR_...). */
  error?: string;
}

export interface RecordedExchange {
  /** Where it came from: 'har' (entry index) or 'curl' (the exchange's order in the output). */
  source: 'har' | 'curl';
  index: number;
  /** The page's origin: the request's Origin header (null when the evidence does not show it). */
  origin: string | null;
  /** Where the origin came from: the Origin header, or the Referer when a recorder kept no Origin. */
  originFrom?: 'referer';
  request: RecordedRequest;
  answer: RecordedAnswer | null;
  /** The preflight the evidence holds for it, if any. */
  preflight: { request: RecordedRequest; answer: RecordedAnswer | null } | null;
  /** This exchange is itself a preflight with no request after it in the evidence. */
  isPreflight: boolean;
  /**
   * For a revalidation (a 304, or an answer to If-None-Match with the ETag it named): the answer the browser kept, which the 304 refreshes (the last earlier
   * 2xx answer to the same method and URL in the evidence), or null when the evidence has none.
   */
  kept?: RecordedAnswer | null;
}

/**
 * Each 304 given the answer it refreshes (HTTP caching, RFC 9111, 4.3.4): a browser that
 * revalidates a kept answer and gets 304 hands the page the kept one, its headers updated with the
 * 304's. A recorder lists the two exchanges apart; the kept one is the last earlier 2xx answer to
 * the same method and URL.
 */
/**
 * An answer of 304, or one a recorder lists with the kept answer's status (Chromium's show 200)
 * yet the request's If-None-Match names its ETag: a server only says 304 to that.
 */
function isRevalidation({ request, answer }: RecordedExchange): boolean {
  if (answer === null || answer.failed) return false;
  if (answer.status === 304) return true;
  const etag = answer.headers['etag'];
  const asked = request.headers['if-none-match'];
  return etag !== undefined && asked !== undefined && asked.split(',').some((tag) => tag.trim() === etag.trim());
}

export function withKeptAnswers(exchanges: readonly RecordedExchange[]): RecordedExchange[] {
  const ordered = [...exchanges].sort((a, b) => a.index - b.index);
  return exchanges.map((exchange) => {
    if (!isRevalidation(exchange)) return exchange;
    const kept = ordered
      .filter(
        (earlier) =>
          earlier.index < exchange.index &&
          earlier.request.url === exchange.request.url &&
          earlier.request.method === exchange.request.method &&
          earlier.answer !== null &&
          !earlier.answer.failed &&
          earlier.answer.status >= 200 &&
          earlier.answer.status < 300,
      )
      .pop();
    return { ...exchange, kept: kept?.answer ?? null };
  });
}

/** The largest HAR read, in characters: a HAR of a long session is tens of megabytes. */
export const MAX_EVIDENCE_CHARS = 50 * 1024 * 1024;

export class EvidenceError extends Error {}

/**
 * Headers by lower-case name, a repeated one joined with ", " as Fetch combines them. For a
 * request (of: 'request') a repeat with the same value is one header: a recorder that merges two
 * views of one request (chrome-har: the provisional headers and the ones sent) lists it twice. An
 * answer's repeat is kept: two identical Access-Control-Allow-Origin lines are a real mistake
 * (the app and a proxy both adding it), which the CORS check refuses.
 */
const lowerHeaders = (list: unknown, of: 'request' | 'answer'): Record<string, string> => {
  const headers: Record<string, string> = {};
  if (!Array.isArray(list)) return headers;
  for (const item of list) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, value } = item as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || typeof value !== 'string') continue;
    const key = name.toLowerCase();
    // HTTP/2 pseudo-headers (:authority, :method) are not headers of the exchange.
    if (key.startsWith(':')) continue;
    if (headers[key] === undefined) headers[key] = value;
    else if (of === 'answer' || !headers[key].split(', ').includes(value)) headers[key] = `${headers[key]}, ${value}`;
  }
  return headers;
};

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

const isPreflightRequest = (request: RecordedRequest) =>
  request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

/** Whether text looks like a HAR (a JSON object with log.entries). */
export function looksLikeHar(text: string): boolean {
  return /^\s*\{/.test(text) && /"log"\s*:/.test(text.slice(0, 4096));
}

/** One entry of a HAR, as read: its place, its request and what the recorder kept of the answer. */
interface HarEntry {
  index: number;
  request: RecordedRequest;
  answer: RecordedAnswer | null;
}

/** What the recorder said went wrong: Chromium's _error, Firefox's _failureText, or an error in the status text. */
function recorderError(entry: object, response: Record<string, unknown> | undefined): string | undefined {
  return typeof (entry as { _error?: unknown })._error === 'string'
    ? (entry as { _error: string })._error
    : typeof response?._error === 'string'
      ? (response._error as string)
      : typeof response?._failureText === 'string'
        ? (response._failureText as string)
        : typeof response?.statusText === 'string' && /^(NS_ERROR|net::)/.test(response.statusText)
          ? (response.statusText as string)
          : undefined;
}

/**
 * What the JSON parser says went wrong, without the excerpt of the text it may quote: a cookie or a
 * token in a HAR would be shown with it ("Unexpected token 'S', ...value":S3CRET"...").
 */
function jsonFault(message: string): string {
  if (!message.includes('"')) return message;
  const kind = message.split(', ')[0]!;
  return kind.includes('"') ? 'a character out of place' : kind;
}

/** A HAR's entries that have a request, in the file's order; the HAR's own faults said as EvidenceError. */
function harEntries(text: string): HarEntry[] {
  if (text.length > MAX_EVIDENCE_CHARS)
    throw new EvidenceError(
      `the HAR is ${Math.round(text.length / 1024 / 1024)} MB; the limit is ${MAX_EVIDENCE_CHARS / 1024 / 1024} MB`,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new EvidenceError(
      `not a HAR: the JSON does not parse (${jsonFault((err as Error).message)}); a file cut short?`,
    );
  }
  const entries = (json as { log?: { entries?: unknown } })?.log?.entries;
  if (!Array.isArray(entries)) throw new EvidenceError('not a HAR: no log.entries list in it');
  return entries.flatMap((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { request, response } = entry as { request?: Record<string, unknown>; response?: Record<string, unknown> };
    if (typeof request?.url !== 'string' || typeof request.method !== 'string') return [];
    const recorded: RecordedRequest = {
      method: request.method,
      url: request.url,
      headers: lowerHeaders(request.headers, 'request'),
    };
    const status = typeof response?.status === 'number' ? response.status : 0;
    const error = recorderError(entry, response);
    const answer: RecordedAnswer | null = response
      ? {
          status,
          headers: lowerHeaders(response.headers, 'answer'),
          failed: status <= 0,
          ...(error !== undefined && { error }),
        }
      : null;
    return [{ index, request: recorded, answer }];
  });
}

/**
 * Each request's preflight. A request and its preflight ask for the same URL, Origin and method,
 * and recorders list the pair next to each other in one order or the other: Firefox's DevTools
 * the preflight first; chrome-har, which orders by when a request was announced, the request
 * first. A HAR whose sequences for one such key end with a preflight lists requests first;
 * otherwise preflights come first. A request's preflight is then its neighbour on that side, if it
 * is a preflight (a request whose preflight was cached has a request there, or nothing).
 */
function preflightsOf(read: HarEntry[], requests: { item: HarEntry; origin: string }[]): Map<HarEntry, HarEntry> {
  const keyOf = (url: string, origin: string, method: string) => `${method} ${origin} ${url}`;
  const sequences = new Map<string, HarEntry[]>();
  // Appended in place: a HAR may hold a hundred thousand requests to one URL.
  const add = (key: string, item: HarEntry) => {
    const sequence = sequences.get(key);
    if (sequence) sequence.push(item);
    else sequences.set(key, [item]);
  };
  for (const item of read)
    if (isPreflightRequest(item.request) && item.request.headers.origin)
      add(
        keyOf(item.request.url, item.request.headers.origin, item.request.headers['access-control-request-method']!),
        item,
      );
  for (const { item, origin } of requests) add(keyOf(item.request.url, origin, item.request.method), item);
  const isPreflight = (item: HarEntry | undefined) => item !== undefined && isPreflightRequest(item.request);
  const ordered = [...sequences.values()].map((sequence) => sequence.sort((a, b) => a.index - b.index));
  const requestFirst =
    ordered.some((sequence) => !isPreflight(sequence[0]) && isPreflight(sequence[sequence.length - 1])) &&
    !ordered.some((sequence) => isPreflight(sequence[0]));
  const preflightOf = new Map<HarEntry, HarEntry>();
  for (const sequence of ordered)
    sequence.forEach((item, at) => {
      const neighbour = sequence[requestFirst ? at + 1 : at - 1];
      if (!isPreflight(item) && isPreflight(neighbour)) preflightOf.set(item, neighbour!);
    });
  return preflightOf;
}

/** The cross-origin exchanges of a HAR, each with the preflight recorded before it (if any). */
export function readHar(text: string): RecordedExchange[] {
  const read = harEntries(text);
  // Each cross-origin request (not a preflight) with the origin it came from.
  const requests = read.flatMap((item) => {
    // Chromium's recorder keeps only the provisional headers of a request that failed: no Origin,
    // but its Referer names the page (unless a referrer policy cut it), whose origin sent it.
    const referer = item.request.headers.referer;
    const origin = item.request.headers.origin ?? (referer ? originOf(referer) : null);
    const target = originOf(item.request.url);
    if (origin === null || target === null || origin === target || isPreflightRequest(item.request)) return [];
    return [{ item, origin }];
  });
  const preflightOf = preflightsOf(read, requests);
  const usedPreflights = new Set(preflightOf.values());
  const exchanges: RecordedExchange[] = requests.map(({ item, origin }) => {
    const preflight = preflightOf.get(item);
    return {
      source: 'har',
      index: item.index,
      origin,
      ...(item.request.headers.origin === undefined && { originFrom: 'referer' as const }),
      request: item.request,
      answer: item.answer,
      preflight: preflight ? { request: preflight.request, answer: preflight.answer } : null,
      isPreflight: false,
    };
  });
  // A preflight that no request followed: the request never left (the preflight failed).
  for (const item of read)
    if (isPreflightRequest(item.request) && !usedPreflights.has(item) && item.request.headers.origin)
      exchanges.push({
        source: 'har',
        index: item.index,
        origin: item.request.headers.origin,
        request: {
          method: item.request.headers['access-control-request-method']!,
          url: item.request.url,
          headers: {},
        },
        answer: null,
        preflight: { request: item.request, answer: item.answer },
        isPreflight: true,
      });
  return exchanges.sort((a, b) => a.index - b.index);
}

/** Whether text looks like curl's output: -v's "> " and "< " lines, or -i's status line. */
export function looksLikeCurl(text: string): boolean {
  return /^(?:[<>*] |HTTP\/[\d.]+ \d{3})/m.test(text);
}

/**
 * The exchanges in curl's output. -v shows the request ("> ") and the answer ("< "); -i shows only
 * the answer, so its Origin is unknown unless the caller gives it (origin).
 */
export function readCurl(text: string, origin: string | null = null): RecordedExchange[] {
  const exchanges: RecordedExchange[] = [];
  let request: RecordedRequest | null = null;
  let answer: RecordedAnswer | null = null;
  // The connection each request went over (curl -L makes a new one per host): its host, and its
  // scheme, from its port or curl's TLS lines. A request's own Host header wins over the host.
  let host = '';
  let scheme = 'http';
  let requestOn = { host, scheme };
  let inBody = false;
  const finish = () => {
    if (!request && !answer) return;
    const req = request ?? { method: 'GET', url: '', headers: {} };
    // Absolute URLs for -v's request lines (curl prints the path and the Host header).
    const named = req.headers.host ?? requestOn.host;
    if (req.url.startsWith('/') && named) req.url = `${requestOn.scheme}://${named}${req.url}`;
    exchanges.push({
      source: 'curl',
      index: exchanges.length,
      origin: req.headers.origin ?? origin,
      request: req,
      answer,
      preflight: null,
      isPreflight: isPreflightRequest(req),
    });
    request = null;
    answer = null;
  };
  for (const raw of text.split(/\r?\n/)) {
    const connected = /^\* Connected to (\S+)(?:.* port (\d+))?/.exec(raw);
    if (connected) [host, scheme] = [connected[1]!, connected[2] === '443' ? 'https' : 'http'];
    if (/^\* (?:SSL connection|ALPN|TLSv|Server certificate)/.test(raw)) scheme = 'https';
    const sent = /^> (\S+) (\S+) HTTP\/[\d.]+\s*$/.exec(raw);
    if (sent) {
      finish();
      request = { method: sent[1]!, url: sent[2]!, headers: {} };
      requestOn = { host, scheme };
      continue;
    }
    const sentHeader = /^> ([^:\s]+):\s?(.*)$/.exec(raw);
    if (sentHeader && request) {
      request.headers[sentHeader[1]!.toLowerCase()] = sentHeader[2]!.trim();
      continue;
    }
    const status = /^(?:< )?HTTP\/[\d.]+ (\d{3})/.exec(raw);
    if (status) {
      inBody = false;
      if (answer) finish();
      answer = { status: Number(status[1]), headers: {}, failed: false };
      continue;
    }
    // A blank line ends the answer's headers; what follows is its body (until the next status line).
    if (/^(?:< )?\s*$/.test(raw) && answer) inBody = true;
    const header = inBody ? null : /^(?:< )?([^:\s]+):\s?(.*)$/.exec(raw);
    if (header && answer && !raw.startsWith('> ')) {
      const name = header[1]!.toLowerCase();
      answer.headers[name] =
        answer.headers[name] === undefined ? header[2]!.trim() : `${answer.headers[name]}, ${header[2]!.trim()}`;
    }
  }
  finish();
  // A preflight followed by its request: one exchange, as in a HAR.
  const joined: RecordedExchange[] = [];
  for (const exchange of exchanges) {
    const previous = joined[joined.length - 1];
    if (
      previous?.isPreflight &&
      !exchange.isPreflight &&
      previous.request.url === exchange.request.url &&
      previous.request.headers['access-control-request-method'] === exchange.request.method
    )
      joined[joined.length - 1] = {
        ...exchange,
        index: previous.index,
        preflight: { request: previous.request, answer: previous.answer },
      };
    else joined.push(exchange);
  }
  return joined.map((exchange) =>
    exchange.isPreflight
      ? {
          ...exchange,
          preflight: { request: exchange.request, answer: exchange.answer },
          request: {
            method: exchange.request.headers['access-control-request-method']!,
            url: exchange.request.url,
            headers: {},
          },
          answer: null,
        }
      : exchange,
  );
}
