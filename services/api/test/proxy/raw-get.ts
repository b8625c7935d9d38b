import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** The whole answer as received, headers included: for searching it. */
  text: string;
}

/**
 * GET with the request target sent byte for byte (fetch would normalise `..`, backslashes and
 * the like before sending). The socket stays open for writing until the answer is complete:
 * a half-closed request is abandoned by Node's server before a slow (proxied) answer is ready.
 */
export function rawGet(port: number, target: string, method = 'GET', timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`raw ${method} ${target.slice(0, 80)} timed out`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('latin1')));
    });
    socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, 'latin1');
  });
}

function parse(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split === -1 ? text.length : split).split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = split === -1 ? '' : text.slice(split + 4);
  return { status: Number(statusLine.split(' ')[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8'), text };
}
