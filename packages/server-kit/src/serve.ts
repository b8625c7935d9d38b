import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { CountedResponse } from './counted-response.js';

export interface ServeOptions {
  port: number;
  /** Undefined listens on every interface (dual-stack), so both localhost and 127.0.0.1 reach it. */
  host?: string;
  /**
   * Idle keep-alive time. It must exceed the idle timeout of any reverse proxy in front
   * (Caddy's is set to 30 s in the Caddyfile), or the proxy may reuse a socket we just closed.
   */
  keepAliveTimeoutMs?: number;
  /** Called when a stop begins, before in-flight requests are awaited: end long-lived responses here. */
  onStopping?: () => void;
}

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish for up to graceMs, then cuts what is left. */
  stop(graceMs?: number): Promise<void>;
}

/** How often a stopping server closes connections that have gone idle. */
const IDLE_SWEEP_MS = 25;

/**
 * A request handler. Koa's app.callback() returns a promise that never rejects (Koa answers its
 * own errors), so a handler may return one; serve() does not wait for it.
 */
export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

export async function serve(handler: Handler, options: ServeOptions): Promise<RunningServer> {
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? 65_000;
  const server = http.createServer(
    {
      keepAliveTimeout,
      headersTimeout: keepAliveTimeout + 1_000,
      requestTimeout: 120_000,
      // Each response can count the body bytes it writes (countBodyBytes: the visitors' journal asks).
      ServerResponse: CountedResponse,
    },
    (req, res) => {
      void handler(req, res);
    },
  );
  server.on('connect', refuseConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 1_500): Promise<void> => {
    stopping ??= new Promise<void>((resolve) => {
      // Connections become idle as their last answer ends (an ended stream, a finished slow
      // request); keep-alive would hold them open until the force timer, so close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      sweep.unref();
      force.unref();
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(force);
        resolve();
      });
      options.onStopping?.();
      server.closeIdleConnections();
    });
    return stopping;
  };
  return { server, port, stop };
}

/**
 * CONNECT never reaches a request handler: Node hands it to a 'connect' listener, and without one
 * closes the connection unanswered. It gets the 405 every other method the server does not take
 * gets, as JSON, and the connection is closed (it was asked to become a tunnel: nothing may follow).
 */
function refuseConnect(req: http.IncomingMessage, socket: Duplex): void {
  const body = JSON.stringify({
    error: 'method not allowed',
    detail: 'CONNECT: this server is not a proxy and opens no tunnel',
    allowed: ['GET', 'HEAD', 'OPTIONS'],
  });
  socket.on('error', () => socket.destroy());
  socket.end(
    [
      'HTTP/1.1 405 Method Not Allowed',
      'Allow: GET, HEAD, OPTIONS',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  req.resume();
}

/** Runs stop() on SIGINT and SIGTERM once, then exits; a second signal exits at once. */
export function stopOnSignals(stop: () => Promise<void>, log: (line: string) => void = console.error): void {
  let received = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) process.exit(130);
    received = true;
    log(`${signal} received: finishing in-flight requests and closing open streams`);
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log(`stop failed: ${String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
