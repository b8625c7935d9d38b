import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
