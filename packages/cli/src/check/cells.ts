/**
 * The requests of the matrix: what each origin's page sends to the target. Your origins get every
 * cell; a hostile origin gets those that tell whether it can read at all (with and without
 * credentials), whether its preflight with credentials is approved, and the methods you name.
 * Each URL of an error answer you name (--also-url) gets an origin's reads again, sent there.
 * Nothing but GET and OPTIONS leaves unless --methods names more.
 */
import { normalizeMethod, unsafeHeaderNames } from '@origin-lab/cors-rules';
import { MCP_SESSION } from '../drivers/probe-page.js';

export const BODY_KINDS = ['json', 'form', 'text', 'none'] as const;
export type BodyKind = (typeof BODY_KINDS)[number];

export interface Cell {
  id: string;
  /** One line for people. */
  title: string;
  /** A few words, for the terminal's table. */
  label: string;
  api: 'fetch' | 'xhr';
  method: string;
  headers: [string, string][];
  credentials: boolean;
  body: string | null;
  /** The same request again, to see whether the engine kept the preflight's answer. */
  repeats?: string;
  /** Where it goes, when not to the run's target: the URL of an error answer (--also-url). */
  url?: string;
  /** For such a cell: the id of the same request sent to the target. */
  sameAs?: string;
  /**
   * Sent to the page's own origin at the target's path (the rebinding page's request): same-origin
   * to the engine, so no Origin header and nothing for CORS to decide.
   */
  sameOrigin?: true;
  /**
   * A step of the MCP Streamable HTTP handshake (--profile mcp): sent for real by the check too,
   * in order, its Mcp-Session-Id filled from the check's own initialize.
   */
  mcp?: true;
}

/** The MCP protocol version the handshake speaks (one the SDKs support). */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

const jsonRpc = (method: string, id: number | null, params: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params });

/** What a browser MCP client sends with every POST (the transport's Content-Type and Accept). */
const MCP_POST: [string, string][] = [
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json, text/event-stream'],
];
/** And after initialize: the session it was given, and the version agreed. */
const MCP_AFTER: [string, string][] = [
  ['Mcp-Session-Id', MCP_SESSION],
  ['Mcp-Protocol-Version', MCP_PROTOCOL_VERSION],
];

/** The first step, also what an attacker origin sends (--profile mcp). */
export const MCP_INITIALIZE: Cell = {
  id: 'mcp-initialize',
  title: 'MCP initialize (a POST of JSON, preflighted): the session begins, its id in Mcp-Session-Id',
  label: 'initialize',
  api: 'fetch',
  method: 'POST',
  headers: MCP_POST,
  credentials: false,
  body: jsonRpc('initialize', 1, {
    protocolVersion: MCP_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'origin-lab-check', version: '1' },
  }),
  mcp: true,
};

/** The Streamable HTTP handshake as a browser client makes it, step by step (--profile mcp). */
export function mcpCells(): Cell[] {
  const step = (id: string, title: string, label: string, method: string, body: string | null): Cell => ({
    id,
    title,
    label,
    api: 'fetch',
    method,
    headers: method === 'POST' ? [...MCP_POST, ...MCP_AFTER] : MCP_AFTER,
    credentials: false,
    body,
    mcp: true,
  });
  return [
    MCP_INITIALIZE,
    step(
      'mcp-initialized',
      'MCP notifications/initialized, with Mcp-Session-Id and Mcp-Protocol-Version (preflighted)',
      'notifications/initialized',
      'POST',
      jsonRpc('notifications/initialized', null),
    ),
    step(
      'mcp-tools-list',
      'MCP tools/list: the answer as JSON or an event stream',
      'tools/list',
      'POST',
      jsonRpc('tools/list', 2),
    ),
    step('mcp-delete', 'DELETE of the MCP session, with its id', 'DELETE session', 'DELETE', null),
  ];
}

/** The rebinding page's one request: a GET of the target's path from its own origin (--profile local). */
export const REBINDING_CELL: Cell = {
  id: 'rebinding-get',
  title: "a GET of the target's path from the page's own origin, its name now resolving to your server",
  label: 'GET, same origin (rebound)',
  api: 'fetch',
  method: 'GET',
  headers: [],
  credentials: false,
  body: null,
  sameOrigin: true,
};

const BODIES: Record<Exclude<BodyKind, 'none'>, { type: string; text: string }> = {
  json: { type: 'application/json', text: '{"origin-lab":"check"}' },
  form: { type: 'application/x-www-form-urlencoded', text: 'origin-lab=check' },
  text: { type: 'text/plain', text: 'origin-lab check' },
};

export interface MatrixOptions {
  credentials: 'both' | 'include' | 'omit';
  headers: [string, string][];
  methods: string[];
  body: BodyKind;
  /** URLs that answer an error (--also-url): each origin's reads go there too. */
  alsoUrls?: readonly URL[];
  /** --profile: mcp makes the matrix the MCP handshake. */
  profile?: 'cors' | 'local' | 'mcp';
}

/**
 * The cells for your origins, in the order they run. The repeat follows its request at once: a
 * preflight of other headers in between may replace the engine's cached answer (Chromium keeps
 * one per origin and URL).
 */
export function yourCells(options: MatrixOptions): Cell[] {
  const withCredentials = options.credentials === 'include';
  const cells: Cell[] = [];
  if (options.credentials !== 'include')
    cells.push({
      id: 'get',
      title: 'a simple GET',
      label: 'GET',
      api: 'fetch',
      method: 'GET',
      headers: [],
      credentials: false,
      body: null,
    });
  if (options.credentials !== 'omit') {
    cells.push({
      id: 'get-credentials',
      title: "a GET with credentials (fetch, credentials: 'include')",
      label: 'GET, credentials (fetch)',
      api: 'fetch',
      method: 'GET',
      headers: [],
      credentials: true,
      body: null,
    });
    cells.push({
      id: 'xhr-credentials',
      title: 'a GET with credentials (XMLHttpRequest, withCredentials)',
      label: 'GET, credentials (XHR)',
      api: 'xhr',
      method: 'GET',
      headers: [],
      credentials: true,
      body: null,
    });
  }
  const named = options.headers.map(([name]) => name).join(', ');
  cells.push({
    id: 'custom-header',
    title: `a GET with ${named}: preflighted`,
    label: `GET + ${named}`,
    api: 'fetch',
    method: 'GET',
    headers: options.headers,
    credentials: withCredentials,
    body: null,
  });
  cells.push({
    id: 'preflight-cache',
    title: `the GET with ${named} again: is the preflight's answer kept?`,
    label: 'the same again',
    api: 'fetch',
    method: 'GET',
    headers: options.headers,
    credentials: withCredentials,
    body: null,
    repeats: 'custom-header',
  });
  if (!options.headers.some(([name]) => name.toLowerCase() === 'authorization'))
    cells.push({
      id: 'authorization',
      title: 'a GET with Authorization: Bearer: preflighted',
      label: 'GET + Authorization',
      api: 'fetch',
      method: 'GET',
      headers: [['Authorization', 'Bearer origin-lab-check']],
      credentials: withCredentials,
      body: null,
    });
  for (const method of options.methods) {
    const normalized = normalizeMethod(method);
    const body = options.body === 'none' || ['GET', 'HEAD'].includes(normalized) ? null : BODIES[options.body];
    cells.push({
      id: `method-${normalized.toLowerCase()}`,
      title: `${normalized}${body ? ` with a ${options.body} body` : ''}`,
      label: `${normalized}${body ? ` (${options.body})` : ''}`,
      api: 'fetch',
      method: normalized,
      headers: body ? [['Content-Type', body.type]] : [],
      credentials: withCredentials,
      body: body?.text ?? null,
    });
  }
  return cells;
}

/** The headers of a hostile origin's preflighted request: a custom one, Authorization and a JSON type. */
export const HOSTILE_PREFLIGHT_HEADERS: [string, string][] = [
  ['X-Origin-Lab-Check', '1'],
  ['Authorization', 'Bearer origin-lab-check'],
  ['Content-Type', 'application/json'],
];

/**
 * The cells a hostile origin runs: can it read, without and with credentials; does the preflight
 * let it send headers that prove intent (and defeat a custom-header CSRF check) with the user's
 * cookies; and, only for the methods the user named, does it let it change things as the user.
 */
export function hostileCells(options: Pick<MatrixOptions, 'methods' | 'body'>): Cell[] {
  const cells: Cell[] = [
    {
      id: 'get',
      title: 'a simple GET',
      label: 'GET',
      api: 'fetch',
      method: 'GET',
      headers: [],
      credentials: false,
      body: null,
    },
    {
      id: 'get-credentials',
      title: "a GET with credentials (fetch, credentials: 'include')",
      label: 'GET, credentials (fetch)',
      api: 'fetch',
      method: 'GET',
      headers: [],
      credentials: true,
      body: null,
    },
    {
      id: 'preflight-credentials',
      title: 'a GET with credentials, Authorization, a custom header and a JSON type: preflighted',
      label: 'preflighted, credentials',
      api: 'fetch',
      method: 'GET',
      headers: HOSTILE_PREFLIGHT_HEADERS,
      credentials: true,
      body: null,
    },
  ];
  for (const method of options.methods) {
    const normalized = normalizeMethod(method);
    if (['GET', 'HEAD'].includes(normalized)) continue;
    const body = options.body === 'none' ? null : BODIES[options.body];
    cells.push({
      id: `method-${normalized.toLowerCase()}-credentials`,
      title: `${normalized} with credentials${body ? ` and a ${options.body} body` : ''}`,
      label: `${normalized}, credentials`,
      api: 'fetch',
      method: normalized,
      headers: body ? [['Content-Type', body.type]] : [],
      credentials: true,
      body: body?.text ?? null,
    });
  }
  return cells;
}

/** The headers a preflight for this cell must allow (lower case, sorted): none when it does not preflight. */
export function preflightHeaders(cell: Cell): string[] {
  return unsafeHeaderNames(cell.headers);
}

/** The requests that tell whether an origin can read at all: a simple GET, without and with credentials. */
const READS = ['get', 'get-credentials'];

/** A URL as a table row names it: its path when it is on the target's origin, else host and path. */
function shortUrl(url: URL, target: URL): string {
  const path = `${url.pathname}${url.search}`;
  return url.origin === target.origin ? path : `${url.host}${path}`;
}

/**
 * The reads among cells sent again to each URL of an error answer (--also-url), in the order the
 * URLs were given: also-1-get, also-1-get-credentials, also-2-get, ... Each names its URL and the
 * request it repeats there, so a refusal or a read is told apart from the target's.
 */
export function alsoUrlCells(urls: readonly URL[], cells: readonly Cell[], target: URL): Cell[] {
  const reads = cells.filter((cell) => READS.includes(cell.id));
  return urls.flatMap((url, index) =>
    reads.map((cell) => ({
      ...cell,
      id: `also-${index + 1}-${cell.id}`,
      title: `${cell.title}, to ${url.href}`,
      label: `${cell.label} → ${shortUrl(url, target)}`,
      url: url.href,
      sameAs: cell.id,
    })),
  );
}
