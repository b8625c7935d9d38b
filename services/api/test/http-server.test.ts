import { connect } from 'node:net';
import { pollUntil, rawExchange } from '@origin-lab/test-kit';
import { describe, expect, it } from 'vitest';
import { apiForFile } from './start-api.js';

const api = apiForFile();

/** A GET of the echo with one header of the given length, as bytes on the wire. */
const withHeaderOf = (chars: number) =>
  `GET /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(chars)}\r\nConnection: close\r\n\r\n`;

describe("the api's HTTP server (docs/decisions.md, Limits)", () => {
  it.each([
    { chars: 15 * 1024, status: 200 },
    { chars: 16 * 1024, status: 431 },
    { chars: 64 * 1024, status: 431 },
  ])('headers of about $chars bytes: $status (Node keeps 16 KiB of headers)', async ({ chars, status }) => {
    const answer = await rawExchange(api.port, withHeaderOf(chars));
    expect(answer.status).toBe(status);
    if (status === 431) expect(JSON.parse(answer.text)).toMatchObject({ error: 'request header fields too large' });
  });

  // Node's parser answers these before the app sees them, with an empty body: each gets the Error
  // object every other error has (SPEC, Error object), its detail saying what could not be read.
  it.each([
    ['a header name with a space in it', 'GET /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: 1\r\n\r\n', /header/i],
    [
      'two different Content-Lengths',
      'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      /content-length/i,
    ],
    [
      'a chunk size that is not hexadecimal',
      'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      /chunk/i,
    ],
  ])('%s: 400 with an Error object naming the fault', async (_, bytes, fault) => {
    const answer = await rawExchange(api.port, bytes);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toEqual(['application/json; charset=utf-8']);
    const body = JSON.parse(answer.text) as { error: string; detail: string };
    expect(body.error).toBe('bad request');
    expect(body.detail).toMatch(fault);
    expect(answer.header('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['without Host', 'GET /api/echo HTTP/1.1\r\nConnection: close\r\n\r\n', /no Host header/],
    [
      'with two Host headers',
      'GET /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
      /more than one Host header/,
    ],
  ])('an HTTP/1.1 request %s: 400 with an Error object (RFC 9112, 3.2)', async (_, bytes, fault) => {
    const answer = await rawExchange(api.port, bytes);
    expect(answer.status).toBe(400);
    expect(answer.header('x-content-type-options')).toBe('nosniff');
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'bad request', detail: expect.stringMatching(fault) });
  });

  it('an HTTP/1.0 request needs no Host', async () => {
    expect((await rawExchange(api.port, 'GET /api/echo HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  it('a HEAD that cannot be read: 400 without a body, as every answer to a HEAD (RFC 9110)', async () => {
    const answer = await rawExchange(api.port, 'HEAD /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: 1\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.framingProblems).toEqual([]);
    expect(answer.raw.endsWith('\r\n\r\n')).toBe(true);
  });

  it('a HEAD whose bad header comes in a later packet: 400 still without a body', async () => {
    const socket = connect(api.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('HEAD /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('Bad Name: 1\r\n\r\n');
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(received.endsWith('\r\n\r\n')).toBe(true);
  });

  it('a client that keeps its side open after a 400 leaves no connection on the server', async () => {
    const socket = connect({ port: api.port, host: '127.0.0.1', allowHalfOpen: true });
    try {
      const ended = new Promise<void>((resolve) => socket.on('end', () => resolve()));
      socket.resume();
      socket.write('GET /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: 1\r\n\r\n');
      await ended;
      // The server's end is closed (its count of connections falls to none), not left half-open.
      await pollUntil(
        'the server to close its end',
        () => new Promise<number>((resolve) => api.server.getConnections((_, count) => resolve(count))),
        { timeoutMs: 15_000, intervalMs: 100, done: (count) => count === 0 },
      );
    } finally {
      socket.destroy();
    }
  });

  it('a malformed request after an answer on a kept-alive connection is answered too', async () => {
    const socket = connect(api.port, '127.0.0.1');
    let received = '';
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      // The first answer whole (its Content-Length of body after the headers): then the bad request.
      const [head, body] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head ?? '')?.[1];
      if (body !== undefined && length && body.length === Number(length))
        socket.write('GET /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Name: 1\r\n\r\n');
    });
    socket.write('GET /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK[^]*HTTP\/1\.1 400 Bad Request[^]*"error":"bad request"/);
  });

  it('answers CONNECT with a JSON 405 and closes, instead of dropping the connection unanswered', async () => {
    const answer = await rawExchange(api.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toEqual(['GET, HEAD, OPTIONS']);
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'method not allowed' });
  });

  it('gives a request 120 s to arrive whole and keeps idle connections 65 s, past the front idle time', () => {
    expect(api.server.requestTimeout).toBe(120_000);
    expect(api.server.keepAliveTimeout).toBe(65_000);
    // Headers of a reused connection may take as long as the connection may idle.
    expect(api.server.headersTimeout).toBeGreaterThan(api.server.keepAliveTimeout);
  });
});
