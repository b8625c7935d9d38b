import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@origin-lab/server-kit';
import { pollUntil, startNodeScript, type StartedProcess } from '@origin-lab/test-kit';
import { findCaddy, httpsAnswer, startCaddy, type RunningCaddy } from '../src/caddy.js';

// The repository's Caddyfile in front of one api, in both of its ways of finding replicas: the
// addresses in API_UPSTREAM (`npm start -- --tls`), and a name's addresses (docker compose's
// default, one replica). A visitor who abandons an upload halfway (a tab closed, a page's own
// abort) has ended a request of their own; the api did nothing wrong, so every other visitor's
// next request is still answered. (Caddy 2.6.2's passive health counted such a request as the
// replica's failure and, with one replica, answered everyone 503 for the next 10 s.)
const apiMain = fileURLToPath(new URL('../../services/api/dist/main.js', import.meta.url));
const haveCaddy = findCaddy() !== undefined;
const UPLOAD_BYTES = 900_000;

/**
 * A TCP pipe from Caddy to the api that notes what Caddy sends: the test aborts the upload only
 * once the api is being sent it (so the failure is the round trip's, not a request never sent).
 */
interface Pipe {
  port: number;
  /** Whether Caddy has begun sending the api this request line. */
  sent(requestLine: string): boolean;
  close(): Promise<void>;
}

async function pipeTo(apiPort: number): Promise<Pipe> {
  const requestLines = new Set<string>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((fromCaddy) => {
    const toApi = net.connect(apiPort, '127.0.0.1');
    for (const socket of [fromCaddy, toApi]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    let tail = '';
    fromCaddy.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      for (const [line] of text.matchAll(/[A-Z]+ \S+ HTTP\/1\.1(?=\r\n)/g)) requestLines.add(line);
      tail = text.slice(-512);
    });
    fromCaddy.pipe(toApi).pipe(fromCaddy);
    fromCaddy.on('close', () => toApi.destroy());
    toApi.on('close', () => fromCaddy.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    sent: (requestLine) => [...requestLines].some((line) => line.startsWith(requestLine)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An echo upload over HTTP/2 that is reset (CANCEL) once the api is being sent it. */
async function abandonOverHttp2(caddy: RunningCaddy, port: number, pipe: Pipe): Promise<void> {
  const session = http2.connect(`https://127.0.0.1:${port}`, {
    ca: readFileSync(caddy.caCert),
    servername: 'a.localhost',
  });
  session.on('error', () => undefined);
  try {
    const stream = session.request({
      ':method': 'POST',
      ':authority': `a.localhost:${port}`,
      ':path': '/api/echo?abandoned=h2',
      'content-type': 'application/octet-stream',
      'content-length': String(UPLOAD_BYTES),
    });
    stream.on('error', () => undefined);
    stream.write(Buffer.alloc(64 * 1024));
    await pollUntil('the api being sent the upload', () => pipe.sent('POST /api/echo?abandoned=h2'), {
      timeoutMs: 10_000,
    });
    stream.close(http2.constants.NGHTTP2_CANCEL);
  } finally {
    session.destroy();
  }
}

/** An echo upload over HTTP/1.1 whose connection is closed once the api is being sent it. */
async function abandonOverHttp1(caddy: RunningCaddy, port: number, pipe: Pipe): Promise<void> {
  const request = https.request({
    host: '127.0.0.1',
    servername: 'a.localhost',
    port,
    method: 'POST',
    path: '/api/echo?abandoned=h1',
    headers: {
      host: `a.localhost:${port}`,
      'content-type': 'application/octet-stream',
      'content-length': String(UPLOAD_BYTES),
    },
    ca: readFileSync(caddy.caCert),
    agent: false,
  });
  request.on('error', () => undefined);
  request.write(Buffer.alloc(64 * 1024));
  await pollUntil('the api being sent the upload', () => pipe.sent('POST /api/echo?abandoned=h1'), {
    timeoutMs: 10_000,
  });
  request.destroy();
}

describe.skipIf(!haveCaddy && !process.env.CI)('a request the visitor abandons, behind Caddy', () => {
  let api: StartedProcess;

  beforeAll(async () => {
    api = await startNodeScript(apiMain, {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: 'false' },
      ready: /"msg":"api listening","port":(\d+)/,
      timeoutMs: 15_000,
      what: 'the api',
    });
  }, 30_000);

  afterAll(async () => {
    await api?.stop();
  });

  const fronts = {
    'replicas listed (npm start -- --tls)': (pipe: Pipe) => ({ apiUpstream: `127.0.0.1:${pipe.port}` }),
    "replicas found by name (docker compose's)": (pipe: Pipe) => ({
      apiUpstream: '',
      apiByName: { name: 'localhost', port: pipe.port },
    }),
  };

  it.each(Object.entries(fronts))(
    'with %s, an upload cut short leaves the only api answering everyone',
    async (_, upstream) => {
      const pipe = await pipeTo(Number(api.ready[1]));
      const [httpsPort, httpPort] = await Promise.all([freePort(), freePort()]);
      let caddy: RunningCaddy | undefined;
      try {
        caddy = await startCaddy({
          sites: ['a.localhost', 'b.localhost'],
          httpsPort,
          httpPort,
          pagesUpstream: `127.0.0.1:${pipe.port}`,
          searchPath: process.env.PATH ?? '',
          ...upstream(pipe),
        });
        const answers: (number | string)[] = [];
        for (const abandon of [abandonOverHttp2, abandonOverHttp1]) {
          await abandon(caddy, httpsPort, pipe);
          // The next visitors' requests, each on a connection of its own.
          for (let i = 0; i < 3; i++)
            answers.push(await httpsAnswer('b.localhost', httpsPort, '/lab/health', caddy.caCert));
        }
        expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
      } finally {
        await caddy?.stop();
        await pipe.close();
      }
    },
    60_000,
  );
});
