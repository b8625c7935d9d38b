import { rawExchange } from '@origin-lab/test-kit';
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
