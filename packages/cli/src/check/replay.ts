/**
 * The exchange, asked for by the check itself: the preflight a cell's request needs (OPTIONS with
 * Origin, Access-Control-Request-Method and -Headers, as an engine sends it) and, for a GET, the
 * request with its Origin. Never what decides a cell (the engines do); it is what the rules read
 * to say why (WebKit reports nothing, Firefox no preflight), and it holds Vary for the findings.
 * Nothing but OPTIONS and GET is ever sent from here, but for the MCP handshake's steps, which
 * --profile mcp asks for.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Answer, Exchange } from '@origin-lab/cors-rules';
import { needsPreflight } from '@origin-lab/cors-rules';
import type { Cell } from './cells.js';
import { preflightHeaders } from './cells.js';
import { MCP_SESSION } from '../drivers/probe-page.js';

/** What went wrong reaching the target, as a person would name it. */
export interface Unreachable {
  kind: 'dns' | 'refused' | 'tls' | 'timeout' | 'network';
  message: string;
}

export interface Replayed {
  exchange: Exchange;
  /** The Location of a redirect the actual answer carried. */
  redirectedTo: string | null;
  /** How many requests it took (for the run's limit). */
  requests: number;
}

/** Bodies larger than this are not read (only the headers matter). */
const MAX_BODY_BYTES = 64 * 1024;

function ask(
  url: URL,
  method: string,
  headers: Record<string, string>,
  timeoutMs: number,
  address?: string,
  body: string | null = null,
): Promise<Answer | Unreachable> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    // A name the check resolves itself (the rebinding name): sent to that address, Host kept.
    const req = send(
      address ? new URL(url.href.replace(url.hostname, address.includes(':') ? `[${address}]` : address)) : url,
      {
        method,
        headers: { 'user-agent': 'origin-lab-check', ...(address && { host: url.host }), ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_BODY_BYTES) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, headers: joined(res.headers) });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'TIMEOUT' })),
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(unreachable(err)));
    req.end(body ?? undefined);
  });
}

/** Response headers with repeated ones joined by ", " (how an engine combines them). */
function joined(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]],
    ),
  );
}

export function unreachable(err: NodeJS.ErrnoException): Unreachable {
  const code = err.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { kind: 'dns', message: `its name does not resolve (${code})` };
  if (code === 'ECONNREFUSED') return { kind: 'refused', message: 'nothing listens there (connection refused)' };
  if (code === 'TIMEOUT' || code === 'ETIMEDOUT') return { kind: 'timeout', message: err.message };
  if (/CERT|SSL|TLS|SELF_SIGNED|ERR_TLS/i.test(code) || /certificate/i.test(err.message))
    return { kind: 'tls', message: `its TLS certificate is not trusted (${code || err.message})` };
  return { kind: 'network', message: `${code ? `${code}: ` : ''}${err.message}` };
}

export const isUnreachable = <T extends object>(value: T | Unreachable): value is Unreachable => 'kind' in value;

/**
 * The exchange for one cell from one origin: the preflight when the rules say one goes out, then
 * the actual request when it is a GET and the preflight (if any) passed its status. A same-origin
 * cell goes without Origin, as an engine sends a same-origin GET, to address where given.
 */
export async function replay(
  target: URL,
  origin: string,
  cell: Cell,
  timeoutMs: number,
  address?: string,
  /** An origin's MCP session, kept from its initialize for the steps after it (--profile mcp). */
  state: { mcpSession?: string } = {},
): Promise<Replayed | Unreachable> {
  const exchange: Exchange = {};
  let requests = 0;
  // A same-origin request (the rebinding page's) has no preflight.
  if (!cell.sameOrigin && needsPreflight(cell.method, cell.headers)) {
    const names = preflightHeaders(cell);
    const preflight = await ask(
      target,
      'OPTIONS',
      {
        origin,
        'access-control-request-method': cell.method,
        ...(names.length > 0 && { 'access-control-request-headers': names.join(',') }),
      },
      timeoutMs,
    );
    requests += 1;
    if (isUnreachable(preflight)) return preflight;
    exchange.preflight = preflight;
    if (preflight.status < 200 || preflight.status > 299) return { exchange, redirectedTo: null, requests };
  }
  // Only GET, and the MCP handshake's steps (--profile mcp: the user asked for them), go out for real.
  if (cell.method !== 'GET' && !cell.mcp) return { exchange, redirectedTo: null, requests };
  const given = cell.headers.flatMap(([name, value]): [string, string][] =>
    value !== MCP_SESSION ? [[name, value]] : state.mcpSession ? [[name, state.mcpSession]] : [],
  );
  // A same-origin GET carries no Origin; every other request does (Fetch).
  const withOrigin = !(cell.sameOrigin && cell.method === 'GET');
  const headers = { ...Object.fromEntries(given), ...(withOrigin && { origin }) };
  const actual = await ask(target, cell.method, headers, timeoutMs, address, cell.body);
  requests += 1;
  if (isUnreachable(actual)) return actual;
  exchange.actual = actual;
  if (actual.headers['mcp-session-id']) state.mcpSession = actual.headers['mcp-session-id'];
  const location = actual.status >= 300 && actual.status < 400 ? (actual.headers.location ?? null) : null;
  const redirectedTo = location && URL.canParse(location, target) ? new URL(location, target).href : location;
  return { exchange, redirectedTo, requests };
}
