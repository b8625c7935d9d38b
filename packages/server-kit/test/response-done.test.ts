import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '@origin-lab/test-kit';
import { onResponseDone } from '../src/response-done.js';

type Handler = (res: http.ServerResponse) => void;

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering with handler; every request's onResponseDone outcome is pushed to outcomes. */
async function serverWith(handler: Handler): Promise<{ port: number; outcomes: boolean[] }> {
  const outcomes: boolean[] = [];
  server = http.createServer((req, res) => {
    onResponseDone(req, res, (completed) => outcomes.push(completed));
    handler(res);
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, outcomes };
}

/** Reads the first chunk of a streamed answer, then leaves: closing the connection, or only its own side of it (as a proxy in front may). */
function leaveAfterFirstChunk(port: number, how: 'close' | 'half-close' = 'close'): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get({ port, host: '127.0.0.1', path: '/' }, (res) =>
      res.once('data', () => {
        if (how === 'close') req.destroy();
        else req.socket!.end();
        resolve();
      }),
    );
    req.on('error', () => undefined);
  });
}

describe('onResponseDone', () => {
  it('says completed once for each answer sent in full, over one keep-alive connection', async () => {
    const { port, outcomes } = await serverWith((res) => res.end('ok'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; n < 3; n++) {
      const status = await new Promise<number>((resolve) =>
        http.get({ port, host: '127.0.0.1', path: '/', agent }, (res) =>
          res.resume().on('end', () => resolve(res.statusCode!)),
        ),
      );
      expect(status).toBe(200);
    }
    agent.destroy();
    await pollUntil('three outcomes', () => outcomes.length === 3, { timeoutMs: 5_000 });
    expect(outcomes).toEqual([true, true, true]);
  });

  it('says not completed when the client leaves a stream', async () => {
    const { port, outcomes } = await serverWith((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: tick\n\n'), 20);
      res.on('close', () => clearInterval(timer));
    });
    await leaveAfterFirstChunk(port);
    await pollUntil('an outcome', () => outcomes.length === 1, { timeoutMs: 5_000 });
    expect(outcomes).toEqual([false]);
  });

  it('says not completed when the handler ends its answer after the client left', async () => {
    const { port, outcomes } = await serverWith((res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('data: first\n\n');
      res.on('close', () => res.end());
    });
    await leaveAfterFirstChunk(port, 'half-close');
    await pollUntil('an outcome', () => outcomes.length >= 1, { timeoutMs: 5_000 });
    expect(outcomes).toEqual([false]);
  });
});
