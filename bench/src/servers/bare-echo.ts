/**
 * The in-run baseline: a bare node:http echo giving the same answer as /api/echo (the same JSON
 * fields, Content-Type, Content-Length, Vary: Origin and the CORS reflection), without Koa.
 * It also answers a preflight and serves one fixed JSON document, the baselines of the
 * preflight and proxy-hit figures. Prints "listening on <port>".
 */
import { echoText, listen, reflectOrigin } from './echo-answer.js';

listen((req, res) => {
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  reflectOrigin(req, res);
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
    const text = echoText(req, path, query, body);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  });
});
