/**
 * The in-run baseline: a bare node:http echo giving the same answer as /api/echo (the same JSON
 * fields, Content-Type, Content-Length, Vary: Origin and the CORS reflection), without Koa.
 * It also answers a preflight and serves one fixed JSON document, the baselines of the
 * preflight and proxy-hit figures. Prints "listening on <port>".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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

const server = http.createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const origin = req.headers.origin;
  res.setHeader('Vary', 'Origin');
  if (origin !== undefined && allowlist.has(origin)) res.setHeader('Access-Control-Allow-Origin', origin);
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Requested-With');
    res.setHeader('Access-Control-Max-Age', '86400');
    res.statusCode = 204;
    res.end();
    return;
  }
  if (path === '/fixed') {
    const text = '{"tags":["cors","fetch","preflight","sse","beacon"]}';
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const query: Record<string, string | string[]> = {};
    if (mark !== -1) {
      for (const [name, value] of new URLSearchParams(url.slice(mark + 1))) {
        const seen = query[name];
        query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
      }
    }
    const text = JSON.stringify({
      method: req.method,
      path,
      query,
      headers: req.headers,
      body: body.toString('utf8'),
      bodyBytes: body.length,
      bodyKind: bodyKind(req.method ?? 'GET', req.headers['content-type'], body.length),
    });
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`listening on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
