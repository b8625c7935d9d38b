import net from 'node:net';

/** One raw HTTP/1.1 exchange: the bytes sent as given, the answer parsed strictly. */
export interface RawAnswer {
  /** False when the server closed the connection without a single byte. */
  answered: boolean;
  /** 0 when there is no readable status line. */
  status: number;
  /** Lower-case names; every value of a repeated header, in order. */
  headers: Map<string, string[]>;
  /** The values of one header joined with ', ' (as fetch's Headers.get does); undefined when absent. */
  header(name: string): string | undefined;
  /** The body, de-chunked when the answer is chunked. */
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
  /** The whole answer as received, status line and headers included (latin1): for searching it. */
  raw: string;
  /** Ways the answer breaks HTTP/1.1 framing; empty when well-formed. */
  framingProblems: string[];
}

export interface RawOptions {
  /** Rejects when the server neither answers nor closes within this (a hang). Default 10 s. */
  timeoutMs?: number;
  /** The request's method (a HEAD answer has no body whatever its headers say); read from the request line when left out. */
  method?: string;
  /**
   * Half-close after sending. Node's HTTP server takes a client's FIN as the client leaving (it
   * aborts a request whose answer is not ready yet), so use it for requests whose body is cut
   * short or that do not say Connection: close.
   */
  halfClose?: boolean;
}

/**
 * Sends request byte for byte (a string as UTF-8) (duplicate headers, odd targets, broken bodies: what fetch would
 * normalise or refuse) on a fresh connection to 127.0.0.1:port, and reads until the server
 * closes. The request should say `Connection: close` (or use halfClose). A connection error
 * before any byte of an answer rejects; a reset after a complete answer is fine (the server may
 * close while a body is still being sent).
 */
export function rawExchange(port: number, request: string | Buffer, options: RawOptions = {}): Promise<RawAnswer> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const bytes = typeof request === 'string' ? Buffer.from(request, 'utf8') : request;
  const method = options.method ?? bytes.subarray(0, 16).toString('latin1').split(' ')[0]!;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let failure: Error | undefined;
    let connected = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`raw ${describe(bytes)}: no answer and no close within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => (connected = true));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err) => (failure = err));
    socket.on('close', () => {
      clearTimeout(timer);
      const received = Buffer.concat(chunks);
      // Refused: there was never a server to answer. A connection closed without a byte resolves
      // with answered: false.
      if (failure && !connected) reject(failure);
      else resolve(parseAnswer(received, method));
    });
    if (options.halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

/**
 * GET (or another method) with the request target sent byte for byte. The socket stays open for
 * writing until the answer is complete: a half-closed request is abandoned by Node's server
 * before a slow (proxied) answer is ready.
 */
export function rawGet(
  port: number,
  target: string,
  method = 'GET',
  options: Omit<RawOptions, 'method' | 'halfClose'> = {},
): Promise<RawAnswer> {
  const request = Buffer.from(
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
    'latin1',
  );
  return rawExchange(port, request, { ...options, method });
}

function describe(request: Buffer): string {
  const line = request.subarray(0, 100).toString('latin1').split('\r\n')[0]!;
  return line.slice(0, 80);
}

/** Parses what a server sent on one connection; exported for tests of the parser itself. */
export function parseAnswer(bytes: Buffer, method: string): RawAnswer {
  const raw = bytes.toString('latin1');
  const problems: string[] = [];
  const headers = new Map<string, string[]>();
  const header = (name: string) => headers.get(name.toLowerCase())?.join(', ');
  const empty = (answered: boolean, framingProblems: string[]): RawAnswer => ({
    answered,
    status: 0,
    headers,
    header,
    body: Buffer.alloc(0),
    text: '',
    raw,
    framingProblems,
  });
  if (bytes.length === 0) return empty(false, problems);
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) return empty(true, ['no end of headers']);
  const [statusLine = '', ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const statusMatch = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(statusLine);
  if (!statusMatch) problems.push(`bad status line ${JSON.stringify(statusLine.slice(0, 80))}`);
  const status = statusMatch ? Number(statusMatch[1]) : 0;
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) {
      problems.push(`bad header line ${JSON.stringify(line.slice(0, 80))}`);
      continue;
    }
    const name = line.slice(0, colon).toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  let rest: Buffer = bytes.subarray(split + 4);
  let body: Buffer = Buffer.alloc(0);
  const bodiless = method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
  const length = headers.get('content-length');
  if (length !== undefined && length.length > 1) problems.push('more than one Content-Length');
  if (bodiless) {
    if (rest.length > 0) problems.push(`${rest.length} bytes after a bodiless answer`);
  } else if (headers.get('transfer-encoding')?.join(',').toLowerCase() === 'chunked') {
    const chunks: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd === -1) {
        problems.push('chunked body ends without the last chunk');
        break;
      }
      const size = Number.parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (!Number.isInteger(size) || size < 0) {
        problems.push('bad chunk size');
        break;
      }
      if (size === 0) break;
      chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
    body = Buffer.concat(chunks);
  } else if (length !== undefined) {
    const declared = Number(length[0]);
    if (rest.length !== declared) problems.push(`Content-Length ${declared} but ${rest.length} body bytes`);
    body = rest;
  } else {
    body = rest;
  }
  return { answered: true, status, headers, header, body, text: body.toString('utf8'), raw, framingProblems: problems };
}
