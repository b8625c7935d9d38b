/**
 * What every echo server of the bench shares, so they give the same answer as /api/echo and
 * differ only in what carries it (bare node:http, Koa, Koa + @koa/router): the allowlist, the
 * CORS reflection, the body classification, the JSON answer, and listening on PORT with
 * "listening on <port>" printed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'koa';
import type { BodyKind, EchoReflection } from '@origin-lab/contract';

const allowlist = new Set([
  'http://localhost:8080',
  'http://127.0.0.1:8080',
  'https://a.localhost',
  'https://b.localhost',
]);

/** Vary: Origin always, and Access-Control-Allow-Origin for an allowed origin. */
export function reflectOrigin(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.setHeader('Vary', 'Origin');
  const origin = req.headers.origin;
  if (origin !== undefined && allowlist.has(origin)) res.setHeader('Access-Control-Allow-Origin', origin);
}

function bodyKind(method: string, contentType: string | undefined, bytes: number): BodyKind {
  if (method === 'GET' || method === 'HEAD') return 'none';
  if (!contentType) return bytes === 0 ? 'none' : 'other';
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/json') return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'urlencoded';
  if (essence === 'multipart/form-data') return 'multipart';
  return 'other';
}

/** The echo answer as JSON text: the fields of /api/echo, in its order. */
export function echoText(
  req: http.IncomingMessage,
  path: string,
  query: EchoReflection['query'],
  body: Buffer,
): string {
  const answer: Omit<EchoReflection, 'bodyBase64'> = {
    method: req.method ?? 'GET',
    path,
    query,
    headers: req.headers,
    body: body.toString('utf8'),
    bodyBytes: body.length,
    bodyKind: bodyKind(req.method ?? 'GET', req.headers['content-type'], body.length),
  };
  return JSON.stringify(answer);
}

export function readAll(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The cheapest Koa handler giving the echo answer: synchronous when there is no body, the JSON
 * serialised once with a fixed Content-Type, no CORS middleware, no error handling.
 */
export function koaEcho(ctx: Context): void | Promise<void> {
  const { req, res } = ctx;
  reflectOrigin(req, res);
  const answer = (body: Buffer) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    ctx.body = echoText(req, ctx.path, ctx.query, body);
  };
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
    return answer(Buffer.alloc(0));
  return readAll(req).then(answer);
}

/** Listens on PORT (0: any) and HOST, prints "listening on <port>", and stops on SIGTERM. */
export function listen(handler: (req: http.IncomingMessage, res: http.ServerResponse) => unknown): http.Server {
  const server = http.createServer({ keepAliveTimeout: 65_000 }, (req, res) => void handler(req, res));
  server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
    console.log(`listening on ${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
  });
  return server;
}
