/**
 * What Koa itself costs: the cheapest Koa app giving the same echo answer as the bare node:http
 * baseline: one middleware, synchronous when there is no body, the JSON serialised once with a
 * fixed Content-Type, no CORS middleware, no routing, no error handling. The api cannot be faster
 * than this while it is a Koa app; its figure beside the api's shows what the api adds.
 * Prints "listening on <port>".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const allowlist = new Set(['http://localhost:8080', 'http://127.0.0.1:8080', 'https://a.localhost', 'https://b.localhost']);

function bodyKind(method: string, contentType: string | undefined, bytes: number): string {
  if (method === 'GET' || method === 'HEAD') return 'none';
  if (!contentType) return bytes === 0 ? 'none' : 'other';
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/json') return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'urlencoded';
  if (essence === 'multipart/form-data') return 'multipart';
  return 'other';
}

function readAll(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const app = new Koa();
app.use((ctx) => {
  const { req, res } = ctx;
  res.setHeader('Vary', 'Origin');
  const origin = req.headers.origin;
  if (origin !== undefined && allowlist.has(origin)) res.setHeader('Access-Control-Allow-Origin', origin);
  const answer = (body: Buffer) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    ctx.body = JSON.stringify({
      method: req.method,
      path: ctx.path,
      query: ctx.query,
      headers: req.headers,
      body: body.toString('utf8'),
      bodyBytes: body.length,
      bodyKind: bodyKind(req.method ?? 'GET', req.headers['content-type'], body.length),
    });
  };
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return answer(Buffer.alloc(0));
  return readAll(req).then(answer);
});

const server = http.createServer({ keepAliveTimeout: 65_000 }, app.callback());
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`listening on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
