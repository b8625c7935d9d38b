/**
 * The servers `check` is tested against: real CORS middlewares in the configurations people
 * deploy (and get wrong), each on a free loopback port. Nothing here decides what `check` should
 * find: each test writes its expected findings by hand, from the rules.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import koaCors from '@koa/cors';
import { apiConfig, createApp } from '@origin-lab/api';
import { serve } from '@origin-lab/server-kit';
import cors from 'cors';
import express from 'express';
import Koa from 'koa';

/** The origin of "your" pages in every fixture: the one the correct configurations allow. */
export const YOURS = 'http://app.example.test';

export interface Fixture {
  /** The URL to check. */
  url: string;
  stop(): Promise<void>;
}

const answer = (_req: unknown, res: express.Response) => res.json({ me: 'someone' });

async function listen(server: Server, path = '/me'): Promise<Fixture> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** express with cors({ origin: true, credentials: true }): reflects every origin, with credentials. */
export function expressReflectingAll(): Promise<Fixture> {
  const app = express();
  app.use(cors({ origin: true, credentials: true }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/** @koa/cors with its defaults (5.x: Access-Control-Allow-Origin: *, no credentials). */
export function koaCorsDefaults(): Promise<Fixture> {
  const app = new Koa();
  app.use(koaCors());
  app.use((ctx) => {
    ctx.body = { me: 'someone' };
  });
  const handler = app.callback();
  return listen(createServer((req, res) => void handler(req, res)));
}

/** express with cors and an exact allowlist, credentials and the headers the app sends: correct. */
export function expressExactAllowlist(): Promise<Fixture> {
  const app = express();
  app.use(
    cors({ origin: [YOURS], credentials: true, allowedHeaders: ['X-Origin-Lab-Check', 'Authorization'], maxAge: 600 }),
  );
  app.get('/me', answer);
  return listen(createServer(app));
}

/**
 * The same allowlist, widened by a regular expression that trusts every subdomain of
 * example.test (a change such as "let our preview deployments in"): any subdomain then reads,
 * with credentials.
 */
export function expressAllowlistAndSubdomains(): Promise<Fixture> {
  const app = express();
  app.use(
    cors({
      origin: [YOURS, /^http:\/\/[a-z0-9-]+\.example\.test$/],
      credentials: true,
      allowedHeaders: ['X-Origin-Lab-Check', 'Authorization'],
      maxAge: 600,
    }),
  );
  app.get('/me', answer);
  return listen(createServer(app));
}

/**
 * express with cors and an exact allowlist of the given origins, counting every request that
 * reaches it (preflights included): what the server saw, for a refusal that stops a request
 * before it leaves.
 */
export async function expressCountingAllowlist(origins: string[]): Promise<Fixture & { arrived(): number }> {
  let arrived = 0;
  const app = express();
  app.use((_req, _res, next) => {
    arrived += 1;
    next();
  });
  app.use(cors({ origin: origins, allowedHeaders: ['X-Origin-Lab-Check', 'Authorization'] }));
  app.get('/me', answer);
  return { ...(await listen(createServer(app))), arrived: () => arrived };
}

/** express with cors({ origin: '*', credentials: true }): * and Allow-Credentials together. */
export function expressStarWithCredentials(): Promise<Fixture> {
  const app = express();
  app.use(cors({ origin: '*', credentials: true }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with cors and an origin function that checks a suffix (the endsWith bug). */
export function expressSuffixMatch(): Promise<Fixture> {
  const app = express();
  app.use(
    cors({
      origin: (origin, callback) => callback(null, origin === undefined || origin.endsWith('app.example.test')),
      credentials: true,
    }),
  );
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with cors and an origin function that checks a prefix (the startsWith bug). */
export function expressPrefixMatch(): Promise<Fixture> {
  const app = express();
  app.use(
    cors({
      origin: (origin, callback) => callback(null, origin === undefined || origin.startsWith(YOURS)),
      credentials: true,
    }),
  );
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with cors and a regular expression whose dots are not escaped. */
export function expressUnescapedDot(): Promise<Fixture> {
  const app = express();
  // The bug under test: "." matches any character.
  app.use(cors({ origin: /^http:\/\/app.example.test$/, credentials: true }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with cors and "null" in the allowlist (a sandboxed page of the app's own, it was thought). */
export function expressNullTrusted(): Promise<Fixture> {
  const app = express();
  app.use(cors({ origin: [YOURS, 'null'] }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/**
 * express with a hand-written middleware that reflects the Origin, without Vary; with maxAge, the
 * answer may be kept that many seconds by any cache (Cache-Control: public).
 */
export function expressReflectedWithoutVary({ maxAge }: { maxAge?: number } = {}): Promise<Fixture> {
  const app = express();
  app.use((req, res, next) => {
    const origin = req.get('Origin');
    if (origin) res.set('Access-Control-Allow-Origin', origin);
    if (maxAge !== undefined) res.set('Cache-Control', `public, max-age=${maxAge}`);
    next();
  });
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with authentication before cors: the preflight, which carries no credentials, gets 401. */
export function expressPreflightUnauthorized(): Promise<Fixture> {
  const app = express();
  app.use((req, res, next) => (req.get('Authorization') ? next() : res.status(401).json({ error: 'sign in' })));
  app.use(cors({ origin: [YOURS], credentials: true, allowedHeaders: ['X-Origin-Lab-Check', 'Authorization'] }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/** This project's own api (its exact allowlist, YOURS on it), checked at path. */
export async function originLabApi(path: string): Promise<Fixture> {
  const app = createApp(apiConfig({ allowedOrigins: [YOURS], logRequests: false, streamIntervalMs: 20 }));
  const running = await serve(app.callback(), { port: 0, host: '127.0.0.1', onStopping: () => app.endStreams() });
  return {
    url: `http://127.0.0.1:${running.port}${path}`,
    stop: async () => {
      await running.stop();
      await app.close();
    },
  };
}

/**
 * A hand-written middleware that sends one fixed Allow-Origin (and Allow-Credentials) on every
 * answer, as an nginx add_header line does: nothing in it depends on the Origin.
 */
export function expressFixedAllowOrigin(): Promise<Fixture> {
  const app = express();
  app.use((_req, res, next) => {
    res.set({ 'Access-Control-Allow-Origin': YOURS, 'Access-Control-Allow-Credentials': 'true' });
    next();
  });
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with cors: yours, a RegExp for any GitHub Pages site, and codepen.io (for demos), with credentials. */
export function expressTrustsThirdPartyHosting(): Promise<Fixture> {
  const app = express();
  app.use(cors({ origin: [YOURS, /\.github\.io$/, 'https://codepen.io'], credentials: true }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with cors: yours and any origin that starts with http://localhost (for development), with credentials. */
export function expressTrustsLocalhostPrefix(): Promise<Fixture> {
  const app = express();
  app.use(cors({ origin: [YOURS, /^http:\/\/localhost/], credentials: true }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/** express with cors: yours and the development servers left on the allowlist, with credentials. */
export function expressTrustsDevServers(): Promise<Fixture> {
  const app = express();
  app.use(cors({ origin: [YOURS, 'http://localhost:3000', 'http://127.0.0.1:5173'], credentials: true }));
  app.get('/me', answer);
  return listen(createServer(app));
}

/**
 * express with cors and an origin function that compares host names only, after dropping a
 * trailing dot: another port, the https scheme and the trailing-dot name all pass.
 */
export function expressHostOnlyCheck(): Promise<Fixture> {
  const app = express();
  app.use(
    cors({
      origin: (origin, callback) =>
        callback(null, origin === undefined || new URL(origin).hostname.replace(/\.$/, '') === 'app.example.test'),
      credentials: true,
    }),
  );
  app.get('/me', answer);
  return listen(createServer(app));
}

/**
 * @koa/cors with an origin function that trusts every subdomain of example.test, over http as
 * well as https (/^https?:/), with credentials.
 */
export function koaCorsTrustsHttpSubdomains(): Promise<Fixture> {
  const app = new Koa();
  app.use(
    koaCors({
      origin: (ctx) => {
        const origin = ctx.get('Origin');
        return /^https?:\/\/([a-z0-9-]+\.)*example\.test$/.test(origin) ? origin : '';
      },
      credentials: true,
    }),
  );
  app.use((ctx) => {
    ctx.body = { me: 'someone' };
  });
  const handler = app.callback();
  return listen(createServer((req, res) => void handler(req, res)));
}

/**
 * express with the cors README's "enable pre-flight across-the-board" written as
 * app.options(path, cors({ origin: true, credentials: true })), and the routes themselves behind
 * an exact allowlist: every origin's preflight is approved for every method and header.
 */
export function expressPreflightForAll(): Promise<Fixture> {
  const app = express();
  app.options('/me', cors({ origin: true, credentials: true }));
  app.use(cors({ origin: [YOURS], credentials: true }));
  app.all('/me', answer);
  return listen(createServer(app));
}

// Error answers (--also-url): middlewares that send CORS headers on success only, or on errors only.

/**
 * express with an authentication middleware for /private that answers 401 before cors runs, and
 * cors (an exact allowlist, with credentials) after it for everything else: /me is read, the 401
 * carries no CORS header at all.
 */
export function expressAuthBeforeCors(): Promise<Fixture> {
  const app = express();
  app.use('/private', (req, res, next) =>
    req.get('Authorization') ? next() : res.status(401).json({ error: 'sign in' }),
  );
  app.use(cors({ origin: [YOURS], credentials: true }));
  app.get('/me', answer);
  app.get('/private', answer);
  return listen(createServer(app));
}

/**
 * express with an exact allowlist on its routes, and a 404 handler with a cors of its own,
 * cors({ origin: true, credentials: true }) ("so that every page can read the 404"): the 404
 * reflects any origin, with credentials.
 */
export function expressNotFoundReflectsAll(): Promise<Fixture> {
  const app = express();
  const routes = express.Router();
  routes.use(cors({ origin: [YOURS], credentials: true }));
  routes.get('/me', answer);
  app.use(routes);
  app.use(cors({ origin: true, credentials: true }), (_req: express.Request, res: express.Response) => {
    res.status(404).json({ error: 'not found' });
  });
  return listen(createServer(app));
}

/**
 * A development server as most are written: express on 127.0.0.1, a JSON route, no CORS and no
 * check of Host. Any name that points to 127.0.0.1 gets its answers.
 */
export function expressDevServer(): Promise<Fixture> {
  const app = express();
  app.get('/me', answer);
  return listen(createServer(app));
}

/**
 * The MCP TypeScript SDK's express app for Streamable HTTP servers, createMcpExpressApp: on its
 * default host (127.0.0.1) it validates Host (DNS rebinding protection); told host 0.0.0.0, as
 * servers reachable from a container or a LAN are, it does not. /me is one of the server's routes.
 */
export async function mcpSdkExpressApp(protection: 'default' | 'none'): Promise<Fixture> {
  const { createMcpExpressApp } = await import('@modelcontextprotocol/sdk/server/express.js');
  const app = createMcpExpressApp(protection === 'default' ? {} : { host: '0.0.0.0' });
  app.get('/me', answer);
  return listen(createServer(app));
}

/** How an MCP fixture sets CORS: as the SDK's docs show, without the exposed session id, or without the protocol header. */
export type McpCors = 'complete' | 'session-not-exposed' | 'protocol-header-not-allowed';

/**
 * The MCP TypeScript SDK's Streamable HTTP server (stateful: a session per initialize, its id in
 * Mcp-Session-Id), behind express and the cors middleware set one of three ways, and with the
 * transport's own Origin validation (allowedOrigins: YOURS) or without it. One tool, "echo".
 */
export async function mcpStreamableServer(corsSet: McpCors, validateOrigin: boolean): Promise<Fixture> {
  const { randomUUID } = await import('node:crypto');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
  const app = express();
  const allowed = ['Content-Type', 'Mcp-Session-Id', 'Mcp-Protocol-Version'];
  app.use(
    cors({
      origin: [YOURS],
      ...(corsSet !== 'session-not-exposed' && { exposedHeaders: ['Mcp-Session-Id'] }),
      ...(corsSet === 'complete' && { allowedHeaders: allowed }),
      // The SDK's README once showed these two alone: Mcp-Protocol-Version is then refused.
      ...(corsSet === 'protocol-header-not-allowed' && { allowedHeaders: ['Content-Type', 'mcp-session-id'] }),
    }),
  );
  app.use(express.json());
  const transports = new Map<string, InstanceType<typeof StreamableHTTPServerTransport>>();
  app.post('/mcp', async (req, res) => {
    const id = req.get('mcp-session-id');
    let transport = id ? transports.get(id) : undefined;
    if (!transport && !id && isInitializeRequest(req.body)) {
      const made = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void transports.set(sessionId, made),
        ...(validateOrigin && { enableDnsRebindingProtection: true, allowedOrigins: [YOURS] }),
      });
      made.onclose = () => made.sessionId && transports.delete(made.sessionId);
      const server = new McpServer({ name: 'fixture', version: '1.0.0' });
      server.registerTool('echo', { description: 'says it back' }, () => ({
        content: [{ type: 'text', text: 'echo' }],
      }));
      await server.connect(made);
      transport = made;
    }
    if (!transport) {
      res.status(400).json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
        id: null,
      });
      return;
    }
    await transport.handleRequest(req, res, req.body);
  });
  const bySession = async (req: express.Request, res: express.Response) => {
    const transport = transports.get(req.get('mcp-session-id') ?? '');
    if (!transport) res.status(400).send('Invalid or missing session ID');
    else await transport.handleRequest(req, res);
  };
  app.get('/mcp', bySession);
  app.delete('/mcp', bySession);
  return listen(createServer(app), '/mcp');
}
