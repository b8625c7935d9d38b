import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { EchoReflection } from '@origin-lab/contract';
import { ConfigError, freePort } from '@origin-lab/server-kit';
import { rawExchange } from '@origin-lab/test-kit';
import { startEmbedded } from '../src/embedded.js';
import { journalOnceRecorded } from './journal.js';

/** A visitor token as a page makes one: 22 base64url characters. */
const VISITOR = 'embeddedVersionTest_0A';

describe('startEmbedded', () => {
  it('a bad setting rejects and leaves nothing listening on the port', async () => {
    const port = await freePort();
    await expect(startEmbedded({ port, host: '127.0.0.1', env: { FLAKY_RATE: 'often' } })).rejects.toThrow(ConfigError);
    const probe = http.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise((resolve) => probe.close(resolve));
  });

  it('a request target in absolute form reaches the api and the lab as its path says (RFC 9112, 3.2.2)', async () => {
    const stack = await startEmbedded({ port: 0, host: '127.0.0.1', env: {} });
    try {
      // The proxy too, which reads the path it is handed.
      for (const path of ['/api/posts', '/lab/health', '/api/upstream/posts']) {
        const answer = await rawExchange(
          stack.port,
          `GET http://127.0.0.1:${stack.port}${path} HTTP/1.1\r\nHost: 127.0.0.1:${stack.port}\r\nConnection: close\r\n\r\n`,
        );
        expect([path, answer.status, answer.header('content-type')]).toEqual([
          path,
          200,
          'application/json; charset=utf-8',
        ]);
      }
    } finally {
      await stack.stop();
    }
  });

  it("the HTTP version a client claims in the front's header is dropped: the journal records what the front spoke", async () => {
    const stack = await startEmbedded({ port: 0, host: '127.0.0.1', env: {} });
    try {
      const base = `http://127.0.0.1:${stack.port}`;
      const echo = await fetch(`${base}/api/echo?visitor=${VISITOR}`, {
        headers: { 'X-Origin-Lab-Http-Version': 'HTTP/3.0' },
      });
      const seen = (await echo.json()) as EchoReflection;
      expect(seen.headers['x-origin-lab-http-version']).toBeUndefined();
      const entries = await journalOnceRecorded(
        async (path, headers) => (await fetch(`${base}${path}`, { headers })).json(),
        VISITOR,
      );
      expect(entries.map(({ entry }) => [entry.path, entry.httpVersion])).toEqual([['/api/echo', 'HTTP/1.1']]);
    } finally {
      await stack.stop();
    }
  });
});
