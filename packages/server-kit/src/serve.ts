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
      // Node's own 400 for a missing Host has no body: hostFault answers it, as every error.
      requireHostHeader: false,
    },
    (req, res) => {
      const fault = hostFault(req);
      if (fault === null) void handler(req, res);
      else answerAndClose(req.socket, 400, [], req.method === 'HEAD' ? null : { error: 'bad request', detail: fault });
    },
  );
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    continueOnRead(req, res);
    server.emit('request', req, res);
  });
  server.on('connect', refuseConnect);
  server.on('clientError', answerClientError);
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
  answerAndClose(socket, 405, ['Allow: GET, HEAD, OPTIONS'], {
    error: 'method not allowed',
    detail: 'CONNECT: this server is not a proxy and opens no tunnel',
    allowed: ['GET', 'HEAD', 'OPTIONS'],
  });
  req.resume();
}

/**
 * A request that says `Expect: 100-continue` is told to send its body (100 Continue) only once
 * its handler starts reading it. An answer given before that (413 for the length it declared, 404,
 * a preflight's) goes out without inviting the upload; Node then closes the connection after it,
 * as the body it did not ask for may still follow (RFC 9110, 10.1.1). Node's own way sends 100
 * before any handler runs.
 */
function continueOnRead(req: http.IncomingMessage, res: http.ServerResponse): void {
  const read = req._read;
  req._read = function (this: http.IncomingMessage, size: number) {
    req._read = read;
    // After the answer, Node reads what the client sends anyway, to discard it: no 100 then.
    if (!res.headersSent) res.writeContinue();
    return read.call(this, size);
  };
}

/** How long a client may keep its side open after an answer that closes the connection. */
const LINGER_MS = 2_000;

/**
 * A raw answer that closes the connection: its status line, extra headers and a JSON body (none
 * when fields is null: the answer to a HEAD). The server keeps a connection half-open when the
 * client does, so a client that never closes its side is cut LINGER_MS after the answer (a few
 * hundred bytes, in the connection's buffers long before).
 */
function answerAndClose(
  socket: Duplex,
  status: number,
  headers: string[],
  fields: Record<string, unknown> | null,
): void {
  const body = fields ? JSON.stringify(fields) : '';
  socket.on('error', () => socket.destroy());
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.end(
    [
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
      ...headers,
      'X-Content-Type-Options: nosniff',
      ...(fields ? ['Content-Type: application/json; charset=utf-8'] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

/**
 * A request an HTTP/1.1 server must refuse for its Host (RFC 9112, 3.2): none in HTTP/1.1, or more
 * than one. Null when Host is as it may be.
 */
function hostFault(req: http.IncomingMessage): string | null {
  // Counted in the raw names: every request passes here, and headersDistinct would build an
  // object of all its headers only to count one.
  let hosts = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'more than one Host header: send one';
  if (hosts === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
    return 'no Host header: an HTTP/1.1 request names its host';
  return null;
}

/** The status and Error object of a request Node's parser could not read, by its error's code. */
function clientErrorAnswer(err: Error & { code?: string; reason?: string }): [number, string, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        'request header fields too large',
        `the request line and headers are over ${http.maxHeaderSize} bytes`,
      ];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'content too large', 'the chunk extensions are over the size this server reads'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request timeout', 'the request did not arrive whole in time'];
    default:
      return [
        400,
        'bad request',
        `not a valid HTTP/1.1 request: ${err.reason ?? err.message} (${err.code ?? 'no code'})`,
      ];
  }
}

/**
 * Whether the answer to a request Node could not read may have a body: not to a HEAD. Node hands
 * over the bytes it was reading, which begin with the request line only when they came in one
 * piece with it; a body is sent only where they do and name another method (or, with an answer
 * under way, where that one's request was no HEAD and no HEAD follows).
 */
function mayHaveBody(bytes: Buffer | undefined, inFlight: http.ServerResponse | null): boolean {
  const firstLine = (bytes?.subarray(0, 16_384).toString('latin1') ?? '').split('\r\n', 1)[0]!;
  if (firstLine.startsWith('HEAD ')) return false;
  if (inFlight) return inFlight.req.method !== 'HEAD';
  // A request line: a method, a target, a version (what follows a header line is no version).
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\r\n]* HTTP\/\d/.test(firstLine);
}

/**
 * A request Node could not read (bad framing, headers or chunk extensions over their size, one
 * that never arrived whole) never reaches a handler: Node answers it 400, 431, 413 or 408 with no
 * body. It gets the same status with an Error object naming the fault, as every other error does
 * (nothing of the request is repeated: the reason is the parser's own words), and the connection
 * is closed. As Node does, a connection gone or already sending an answer is closed without one;
 * one between answers (kept alive) is answered too, where Node closes it without a word. An answer
 * to a HEAD has no body.
 */
function answerClientError(err: Error & { code?: string; reason?: string; rawPacket?: Buffer }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse | null })._httpMessage ?? null;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, error, detail] = clientErrorAnswer(err);
  answerAndClose(socket, status, [], mayHaveBody(err.rawPacket, inFlight) ? { error, detail } : null);
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
