import net from 'node:net';

/** One raw HTTP/1.1 exchange: the bytes sent as given, the answer parsed strictly. */
export interface RawAnswer {
  /** False when the server closed the connection without a single byte. */
  answered: boolean;
  status: number;
  headers: Map<string, string[]>;
  body: Buffer;
  /** Ways the answer breaks HTTP/1.1 framing; empty when well-formed. */
  framingProblems: string[];
}

export interface RawOptions {
  timeoutMs: number;
  /** The request's method: a HEAD answer has no body whatever its headers say. */
  method: string;
  /**
   * Half-close after sending. Node's HTTP server takes a client's FIN as the client leaving
   * (the request is aborted), so only requests whose body is cut short use it.
   */
  halfClose?: boolean;
}

/**
 * Sends request (which should say Connection: close) and reads until the server closes. Rejects when the server neither answers nor closes within timeoutMs: a hang.
 */
export function rawExchange(port: number, request: Buffer, options: RawOptions): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after a complete answer is fine (the server may close while we still send a body).
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks), options.method));
    });
    if (options.halfClose) socket.end(request);
    else socket.write(request);
  });
}

function parseAnswer(bytes: Buffer, method: string): RawAnswer {
  const problems: string[] = [];
  const headers = new Map<string, string[]>();
  if (bytes.length === 0) return { answered: false, status: 0, headers, body: Buffer.alloc(0), framingProblems: problems };
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) return { answered: true, status: 0, headers, body: Buffer.alloc(0), framingProblems: ['no end of headers'] };
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
  return { answered: true, status, headers, body, framingProblems: problems };
}
