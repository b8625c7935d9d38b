import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfig } from '../../src/config.js';
import { createApp } from '../../src/app.js';
import { ALLOWED, startApi, type TestApi } from '../start-api.js';
import { readJournalOf } from './read-journal.js';

/**
 * bytesOut is the body the client received, whether the response counts its own bytes (served by
 * server-kit's serve()) or the journal wraps its writes (the app mounted on any other server).
 */
const ANSWERS = [
  { name: 'a JSON answer', path: '/api/posts?cors=on' },
  { name: 'an event stream written in pieces', path: '/api/stream?count=3' },
  { name: 'a refused origin', path: '/api/posts', origin: 'https://evil.example' },
];

/** The same api on a plain node:http server, not serve(). */
async function onPlainServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const app = createApp(apiConfig({ allowedOrigins: [ALLOWED], streamIntervalMs: 10, log: () => undefined }));
  const handle = app.callback();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    },
  };
}

const servers: Record<string, { url: string; stop(): Promise<void> }> = {};
beforeAll(async () => {
  const served: TestApi = await startApi({ streamIntervalMs: 10 });
  servers['serve()'] = served;
  servers['a plain node:http server'] = await onPlainServer();
});
afterAll(() => Promise.all(Object.values(servers).map((server) => server.stop())));

describe('the journal counts the body bytes each answer sent', () => {
  const cases = ['serve()', 'a plain node:http server'].flatMap((server) =>
    ANSWERS.map((answer) => ({ server, ...answer })),
  );
  it.each(cases)('$name on $server', async ({ server, path, origin }) => {
    const { url } = servers[server]!;
    const visitor = randomBytes(16).toString('base64url');
    const separator = path.includes('?') ? '&' : '?';
    const answer = await fetch(`${url}${path}${separator}visitor=${visitor}`, {
      headers: { Origin: origin ?? ALLOWED },
    });
    const received = (await answer.arrayBuffer()).byteLength;
    expect(received).toBeGreaterThan(0);
    const [entry] = await readJournalOf(url, visitor, 1);
    expect(entry!.entry.bytesOut).toBe(received);
  });
});
