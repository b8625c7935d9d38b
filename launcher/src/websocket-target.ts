import http from 'node:http';
import { listenOn } from './listen-on.js';
import { WebSocketServer } from 'ws';

/**
 * The Local Network Access page's WebSocket target: a small server of its own beside the lab,
 * never the api or the pages (nothing on the service upgrades a connection, SPEC.md). It listens
 * on both loopback addresses at one port, so a page at either reaches it at the other. Each
 * connection is told the Origin it came with, then closed; anything else is 404.
 */
export interface WebSocketTarget {
  port: number;
  stop(): Promise<void>;
}

/** The most connections open at once; more are refused 503 at the handshake. */
const MAX_OPEN = 64;

function serverWithSocket(): { server: http.Server; sockets: WebSocketServer } {
  const server = http.createServer((_req, res) =>
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('a WebSocket target\n'),
  );
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  server.on('upgrade', (req, socket, head) => {
    if (sockets.clients.size >= MAX_OPEN) return socket.end('HTTP/1.1 503 Service Unavailable\r\n\r\n');
    sockets.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ origin: req.headers.origin ?? null }));
      ws.close(1000, 'seen');
    });
  });
  return { server, sockets };
}

/** Starts it on 127.0.0.1 (a free port) and on [::1] at the same port where this machine has IPv6. */
export async function startWebSocketTarget(): Promise<WebSocketTarget> {
  const v4 = serverWithSocket();
  await listenOn(v4.server, 0, '127.0.0.1');
  const port = (v4.server.address() as { port: number }).port;
  const v6 = serverWithSocket();
  const both = [v4];
  // No IPv6 loopback: the page at 127.0.0.1 then has no other address to call, and says so.
  if (
    await listenOn(v6.server, port, '::1').then(
      () => true,
      () => false,
    )
  )
    both.push(v6);
  return {
    port,
    stop: async () => {
      for (const { server, sockets } of both) {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
