import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LAB_MCP_PATH, LAB_MCP_TOOL, readLabMcpQuery, type LabMcpSettings } from '@origin-lab/contract/lab-mcp';
import { HttpError } from '@origin-lab/server-kit';
import { readBody } from '../http/read-body.js';

/**
 * The MCP lab: a Model Context Protocol server over Streamable HTTP (the official TypeScript
 * SDK's transport and server), behind the CORS a browser client needs. The URL's switches
 * (packages/contract/src/lab-mcp.ts) each put back one mistake that breaks such a client. Outside
 * /api/, which holds only the spec's endpoints.
 *
 * It keeps no session: any api replica answers any call. Initialize hands out a new session id;
 * a later call must carry one of that shape (400 without it, 404 with one the lab could not have
 * given). Answers are JSON, never an event stream, so GET is 405 as the transport's
 * specification allows.
 */
export { LAB_MCP_PATH };

export interface LabMcpConfig {
  /** The origins the lab trusts when origin=check: the api's allowed origins (and their SITE_C names). */
  trustedOrigins: readonly string[];
  /** The most bytes a call's body may have. */
  bodyBytes: number;
}

const METHODS = 'GET, POST, DELETE';
const SESSION_HEADER = 'Mcp-Session-Id';
const PROTOCOL_HEADER = 'Mcp-Protocol-Version';
/** The session ids the lab gives: a UUID, as randomUUID writes it. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Any token68 after Bearer: the lab checks that a token is there, not what it is. */
const BEARER = /^Bearer [A-Za-z0-9\-._~+/]+=*$/;
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="origin-lab mcp"' };

function settingsOf(ctx: Context): LabMcpSettings {
  const read = readLabMcpQuery(new URLSearchParams(ctx.querystring));
  if (!read.ok) throw new HttpError(400, read.error, { parameter: read.parameter });
  return read.settings;
}

/** Whether this Origin may call: the MCP specification's 403 for one that may not is thrown by the caller. */
function originAllowed(ctx: Context, settings: LabMcpSettings, trusted: readonly string[]): boolean {
  const origin = ctx.get('Origin');
  if (origin === '' || settings.origin === 'off') return true;
  if (settings.origin === 'own') return origin === `${ctx.protocol}://${ctx.host}`;
  return trusted.includes(origin);
}

/** The CORS headers of every answer the lab gives a caller it let in. */
function corsHeaders(ctx: Context, settings: LabMcpSettings): Record<string, string> {
  const origin = ctx.get('Origin');
  if (origin === '') return {};
  if (settings.origin === 'off') return { 'Access-Control-Allow-Origin': '*' };
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

/** The preflight's answer: the methods and headers an MCP client sends, less what the switches take away. */
function preflight(ctx: Context, settings: LabMcpSettings): void {
  // An auth layer in front of everything: the browser's preflight carries no token, so it fails here.
  if (settings.auth === 'bearer-preflight' && !BEARER.test(ctx.get('Authorization')))
    throw new HttpError(401, 'a bearer token is required', {}, CHALLENGE);
  const headers = ['Content-Type', 'Authorization', SESSION_HEADER, 'Last-Event-ID'];
  if (settings['protocol-header'] === 'allowed') headers.push(PROTOCOL_HEADER);
  ctx.set({
    ...corsHeaders(ctx, settings),
    'Access-Control-Allow-Methods': METHODS,
    'Access-Control-Allow-Headers': headers.join(', '),
    'Access-Control-Max-Age': '60',
  });
  ctx.status = 204;
}

/** The MCP server of one call: the lab's one tool, which says what the server saw. */
function mcpServer(ctx: Context): McpServer {
  const server = new McpServer({ name: 'origin-lab', version: '1.0.0' });
  const seen = { origin: ctx.get('Origin') || null, host: ctx.host };
  server.registerTool(
    LAB_MCP_TOOL,
    { description: 'Says which Origin and Host the call came with, as the server saw them.' },
    () => ({ content: [{ type: 'text', text: JSON.stringify(seen) }], structuredContent: seen }),
  );
  return server;
}

/** The call's JSON, or a 400 naming what is wrong with it (an empty body is left to the transport). */
async function jsonBody(ctx: Context, limit: number): Promise<unknown> {
  const raw = (await readBody(ctx, limit)).toString('utf8');
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

const isInitialize = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';

/**
 * Every call but initialize names its session: 400 without one (what a browser client sends when
 * it could not read the header), 404 with one the lab did not give.
 */
function checkSession(ctx: Context, body: unknown): void {
  if (ctx.method === 'POST' && isInitialize(body)) return;
  const id = ctx.get(SESSION_HEADER);
  if (id === '') throw new HttpError(400, `${SESSION_HEADER} is missing: initialize gave one, send it back`);
  if (!SESSION_ID.test(id)) throw new HttpError(404, `no such session: ${id.slice(0, 64)}`);
}

/** The call handed to the SDK's transport as a web Request; its Response written back through Koa. */
async function answerCall(ctx: Context, body: unknown): Promise<void> {
  const base = `${ctx.protocol}://${ctx.host}`;
  if (!URL.canParse(ctx.originalUrl, base))
    throw new HttpError(400, 'the Host header is not a host name with an optional port', { header: 'Host' });
  const initialize = ctx.method === 'POST' && isInitialize(body);
  const transport = new WebStandardStreamableHTTPServerTransport({
    // Stateless but for the id itself: initialize gives one, later calls are checked by shape above.
    sessionIdGenerator: initialize ? randomUUID : undefined,
    enableJsonResponse: true,
  });
  const server = mcpServer(ctx);
  await server.connect(transport);
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(ctx.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(new URL(ctx.originalUrl, base), {
      method: ctx.method,
      headers,
    });
    const response = await transport.handleRequest(request, { parsedBody: body });
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
    const text = await response.text();
    ctx.body = text;
    if (text === '') ctx.remove('Content-Type');
  } finally {
    await server.close();
  }
}

/** The MCP lab's handler: every method, the preflight included. */
export function labMcp(config: LabMcpConfig): Middleware {
  return async (ctx) => {
    const settings = settingsOf(ctx);
    if (!originAllowed(ctx, settings, config.trustedOrigins))
      throw new HttpError(403, `origin ${ctx.get('Origin').slice(0, 200)} may not call this server`);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '') return preflight(ctx, settings);
    ctx.set(corsHeaders(ctx, settings));
    if (settings.expose === 'session-id') ctx.set('Access-Control-Expose-Headers', SESSION_HEADER);
    if (!['POST', 'DELETE', 'GET'].includes(ctx.method))
      throw new HttpError(405, 'method not allowed', { path: LAB_MCP_PATH }, { Allow: METHODS });
    if (settings.auth !== 'none' && !BEARER.test(ctx.get('Authorization')))
      throw new HttpError(401, 'a bearer token is required', {}, CHALLENGE);
    if (ctx.method === 'GET')
      throw new HttpError(405, 'this server opens no event stream: every answer is JSON', {}, { Allow: METHODS });
    const body = ctx.method === 'POST' ? await jsonBody(ctx, config.bodyBytes) : undefined;
    checkSession(ctx, body);
    await answerCall(ctx, body);
  };
}
