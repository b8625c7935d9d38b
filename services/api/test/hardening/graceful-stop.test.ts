import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep, startNodeScript, type StartedProcess } from '@origin-lab/test-kit';

/** The api as production starts it; `npm test` builds it first. */
const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** The bound the issue sets: SIGTERM to exit, with streams and slow requests open. */
const EXIT_BOUND_MS = 2_000;

let started: StartedProcess | undefined;
afterEach(() => {
  const child = started?.child;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function startApiProcess(): Promise<StartedProcess & { process: StartedProcess['child']; port: number }> {
  started = await startNodeScript(MAIN, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_REQUESTS: 'false',
      STREAM_INTERVAL_MS: '1000',
      UPSTREAM_API_KEY_FILE: '',
    },
    ready: /"port":(\d+)/,
    timeoutMs: 15_000,
    what: 'the api',
  });
  return { ...started, process: started.child, port: Number(started.ready[1]) };
}

interface Exchange {
  /** Everything received, once the server closed the connection (or it failed). */
  done: Promise<string>;
  /** Resolves when the first bytes of the answer arrived. */
  started: Promise<void>;
}

/**
 * Opens a connection and sends GET target on it. With `warmUp`, a quick echo goes first on the
 * same connection and the target is sent only after its answer: the connection is then surely
 * accepted, not waiting in the listen backlog when the stop begins.
 */
function openRequest(port: number, target: string, warmUp = false): Exchange & { sent: Promise<void> } {
  const socket = net.connect(port, '127.0.0.1');
  const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;
  let text = '';
  let markStarted = () => {};
  let markSent = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  let warming = warmUp;
  const done = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      if (warming) {
        warming = false; // the echo's answer fits in one read on loopback
        socket.write(request(target), () => markSent());
        return;
      }
      text += chunk.toString();
      markStarted();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });
  if (warmUp) socket.write(request('/api/echo'));
  else socket.write(request(target), () => markSent());
  return { done, started, sent };
}

/**
 * A new request once the stop has begun: 'refused' at connect, 'dropped' when the connection was
 * taken by the kernel in the instant before the listener closed and then cut without an answer,
 * 'served' if any answer came (which must not happen).
 */
function requestAfterStop(port: number): Promise<'refused' | 'dropped' | 'served'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let connected = false;
    let answered = false;
    socket.on('connect', () => {
      connected = true;
      socket.write('GET /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
    socket.on('data', () => (answered = true));
    socket.on('error', () => {});
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('close', () => resolve(answered ? 'served' : connected ? 'dropped' : 'refused'));
  });
}

describe('graceful stop on SIGTERM', () => {
  it('ends open streams, lets slow requests finish, accepts nothing new, and exits within 2 s', async () => {
    const api = await startApiProcess();
    const streams = Array.from({ length: 5 }, () => openRequest(api.port, '/api/stream?count=60'));
    const slow = Array.from({ length: 3 }, () => openRequest(api.port, '/api/slow?ms=900', true));
    await Promise.all(streams.map((stream) => stream.started));
    await Promise.all(slow.map((request) => request.sent));
    // Time for the server to read the slow requests; their handlers then wait 900 ms.
    await sleep(250);

    const exited = new Promise<number>((resolve) => api.process.once('exit', () => resolve(performance.now())));
    const signalled = performance.now();
    api.process.kill('SIGTERM');
    // The signal is handled at once: the listening socket closes before anything else happens.
    await api.waitFor(/SIGTERM received/, 5_000, 'the stop message');
    expect(await requestAfterStop(api.port)).not.toBe('served');

    const streamAnswers = await Promise.all(streams.map((stream) => stream.done));
    const slowAnswers = await Promise.all(slow.map((request) => request.done));
    const exitedAt = await exited;

    for (const answer of streamAnswers) {
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      // The stream was ended by the server, properly: the last chunk of the chunked body arrived.
      expect(answer.endsWith('0\r\n\r\n')).toBe(true);
      expect(answer).not.toMatch(/n":60/);
    }
    for (const answer of slowAnswers) {
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toMatch(/"waitedMs":900/);
    }
    expect(api.process.exitCode).toBe(0);
    console.log(`graceful stop: exited ${Math.round(exitedAt - signalled)} ms after SIGTERM`);
    expect(exitedAt - signalled).toBeLessThan(EXIT_BOUND_MS);
  }, 30_000);

  // docs/decisions.md, "Graceful stop": in-flight requests get a grace, then are cut; a second
  // signal does not wait for the grace at all.
  /** The api with one request in flight, to be answered after 30 s (the longest /api/slow wait): far past the grace. */
  async function apiHoldingARequest() {
    const api = await startApiProcess();
    const held = openRequest(api.port, '/api/slow?ms=30000', true);
    await held.sent;
    await sleep(250);
    return { api, held };
  }

  it('cuts a request still waiting when the grace is over, and exits 0', async () => {
    const { api, held } = await apiHoldingARequest();
    api.process.kill('SIGTERM');
    // Bounded well under the 30 s answer: only a cut ends this request in time.
    expect(await api.exitWithin(20_000)).toBe(0);
    expect(await held.done).toBe('');
  }, 30_000);

  it('exits at once with 130 on a second signal, without waiting for what is in flight', async () => {
    const { api, held } = await apiHoldingARequest();
    api.process.kill('SIGTERM');
    await api.waitFor(/SIGTERM received/, 5_000, 'the stop message');
    api.process.kill('SIGTERM');
    expect(await api.exitWithin(20_000)).toBe(130);
    expect(await held.done).toBe('');
  }, 30_000);
});
