import net from 'node:net';

/** How the fake upstream misbehaves on the next requests. */
export type FaultMode =
  'ok' | 'hang' | 'reset-mid-body' | 'close-mid-body' | 'garbage' | 'status-500' | 'headers-then-silence';

export interface FaultUpstream {
  url: string;
  mode: FaultMode;
  /** Requests received (every mode counts). */
  calls: number;
  /** Sockets currently open from the proxy to this upstream. */
  openSockets(): number;
  stop(): Promise<void>;
}

/**
 * A third party that fails on demand, written on raw sockets so it can break HTTP itself:
 * never answer, reset or close in the middle of a body, send bytes that are not HTTP, or
 * answer 500. In 'ok' mode it answers a small JSON document and closes the connection.
 */
export async function startFaultUpstream(): Promise<FaultUpstream> {
  const sockets = new Set<net.Socket>();
  const state = { mode: 'ok' as FaultMode, calls: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      state.calls += 1;
      answer(socket, state.mode, state.calls);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: FaultMode) {
      state.mode = mode;
    },
    get calls() {
      return state.calls;
    },
    openSockets: () => sockets.size,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(socket: net.Socket, mode: FaultMode, call: number): void {
  const json = JSON.stringify({ tags: ['cors', 'sse'], call });
  switch (mode) {
    case 'ok':
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
      );
      return;
    case 'hang':
      return;
    case 'headers-then-silence':
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"tags":[');
      return;
    case 'reset-mid-body':
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"tags":[', () =>
        socket.resetAndDestroy(),
      );
      return;
    case 'close-mid-body':
      socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"tags":[');
      return;
    case 'garbage':
      socket.end('\x00\x01this is not HTTP at all\r\n\r\n\xff\xfe');
      return;
    case 'status-500': {
      const body = '{"error":"upstream exploded"}';
      socket.end(
        `HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
  }
}
