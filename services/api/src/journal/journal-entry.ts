import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyKindOf, type ServerJournalEntry } from '@origin-lab/contract';
import { cookieNames, setCookieNames } from '../http/cookie-names.js';

/** Longest header or query value kept; the rest is cut with an ellipsis. */
const MAX_VALUE_CHARS = 256;

/** The front (Caddy) tells the api which HTTP version the browser spoke; see the Caddyfile. */
export const HTTP_VERSION_HEADER = 'x-origin-lab-http-version';

export interface ExchangeFacts {
  req: IncomingMessage;
  res: ServerResponse;
  arrivedAt: number;
  finishedAt: number;
  /** The query string with the visitor token taken out. */
  query: string;
  bytesOut: number;
}

/** What the journal keeps of one exchange: the request as it arrived and the answer as sent. */
export function journalEntry(facts: ExchangeFacts): ServerJournalEntry {
  const { req, res } = facts;
  const header = (name: string) => cut(req.headers[name]);
  const method = req.method ?? '';
  const bytesIn = Number(req.headers['content-length'] ?? 0) || 0;
  const preflight = method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  const entry: ServerJournalEntry = {
    at: isoTime(facts.arrivedAt),
    method,
    path: cut(pathOf(req.url ?? '/')) ?? '/',
    query: cut(facts.query) ?? '',
    httpVersion: header(HTTP_VERSION_HEADER) ?? `HTTP/${req.httpVersion}`,
    origin: header('origin'),
    secFetch: {
      mode: header('sec-fetch-mode'),
      site: header('sec-fetch-site'),
      dest: header('sec-fetch-dest'),
      storageAccess: header('sec-fetch-storage-access'),
    },
    preflight,
    accessControlRequest: {
      method: header('access-control-request-method'),
      headers: header('access-control-request-headers'),
    },
    accept: header('accept'),
    contentType: header('content-type'),
    bodyKind: bodyKindOf(method, req.headers['content-type'], bytesIn),
    bytesIn,
    bytesOut: facts.bytesOut,
    status: res.statusCode,
    durationMs: Math.round(facts.finishedAt - facts.arrivedAt),
    cors: corsHeaders(res),
    credentials: {
      cookie: req.headers.cookie !== undefined,
      authorization: req.headers.authorization !== undefined,
      cookieNames: keptNames(cookieNames(req.headers.cookie)),
    },
    upgrade: header('upgrade'),
    lastEventId: header('last-event-id'),
  };
  const enforced = res.getHeader('cross-origin-opener-policy');
  const reportOnly = res.getHeader('cross-origin-opener-policy-report-only');
  if (enforced !== undefined || reportOnly !== undefined)
    entry.openerPolicy = { enforced: cut(enforced?.toString()), reportOnly: cut(reportOnly?.toString()) };
  const setCookies = res.getHeader('set-cookie');
  if (setCookies !== undefined) entry.setCookies = keptNames(setCookieNames(setCookies));
  // Only the proxy sets X-Cache. A hit called nobody; otherwise the proxy passed the upstream's
  // status on (a failed call is thrown before X-Cache is set, so it has none).
  const cache = res.getHeader('x-cache');
  if (cache !== undefined)
    entry.proxy = { cache: String(cache), upstreamStatus: cache === 'HIT' ? null : res.statusCode };
  return entry;
}

/** The most cookie names an entry keeps, and the longest name. */
const MAX_COOKIE_NAMES = 16;
const MAX_COOKIE_NAME_CHARS = 64;

const keptNames = (names: string[]) =>
  names.slice(0, MAX_COOKIE_NAMES).map((name) => cut(name, MAX_COOKIE_NAME_CHARS)!);

/** The last time formatted: requests arriving in the same millisecond share it (formatting costs more than the rest of an entry). */
let lastTime = { ms: NaN, iso: '' };
function isoTime(ms: number): string {
  if (ms !== lastTime.ms) lastTime = { ms, iso: new Date(ms).toISOString() };
  return lastTime.iso;
}

const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * Every response header of the CORS protocol (Fetch standard). Looked up by name: listing all
 * of a response's headers cost each recorded request more than the rest of its entry.
 */
const CORS_RESPONSE_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'access-control-expose-headers',
];

function corsHeaders(res: ServerResponse): Record<string, string> | null {
  let found: Record<string, string> | null = null;
  for (const name of CORS_RESPONSE_HEADERS) {
    const value = res.getHeader(name);
    if (value === undefined) continue;
    found ??= {};
    found[name] = cut(String(value)) ?? '';
  }
  return found;
}

function cut(value: string | string[] | undefined, max = MAX_VALUE_CHARS): string | null {
  if (value === undefined) return null;
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
