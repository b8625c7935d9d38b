/**
 * The SSE baseline: a bare node:http server sending the same records as /api/stream (a comment,
 * count ticks one interval apart scheduled against the start time, then done) without Koa.
 * Prints "listening on <port>".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const interval = Number(process.env.STREAM_INTERVAL_MS ?? 1_000);

const server = http.createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const match = /[?&]count=(\d+)/.exec(req.url ?? '');
  const count = match ? Number(match[1]) : 5;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
    Vary: 'Origin',
  });
  res.write(`: ${count} ticks, one every ${interval} ms\n\n`);
  const started = performance.now();
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    sent += 1;
    res.write(`event: tick\ndata: ${JSON.stringify({ n: sent, of: count })}\n\n`);
    if (sent === count) {
      res.end('event: done\ndata: {}\n\n');
      return;
    }
    timer = setTimeout(tick, started + sent * interval - performance.now());
  };
  res.once('close', () => clearTimeout(timer));
  tick();
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', 1_024, () => {
  console.log(`listening on ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
