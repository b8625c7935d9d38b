import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  pollUntil,
  rawExchange,
  rawGet,
  runBounded,
  spawnWatched,
  startNodeScript,
  type Listening,
} from '@origin-lab/test-kit';
import { forFile } from '@origin-lab/test-kit/vitest';

/** A TCP server that answers every connection with fixed bytes (or says nothing) and closes. */
function cannedServer(answer: string | null): Promise<Listening & { received: () => string; stop(): Promise<void> }> {
  let received = '';
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) {
        if (answer === null) socket.end();
        else socket.end(answer, 'latin1');
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        received: () => received,
        stop: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

const canned = forFile(() =>
  cannedServer(
    'HTTP/1.1 200 OK\r\nX-Twice: a\r\nX-Twice: b\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nd\u00e9\r\n0\r\n\r\n',
  ),
);

describe('rawExchange and rawGet', () => {
  it('send the bytes as given and parse a chunked answer: every header value, the de-chunked body, the raw answer', async () => {
    const answer = await rawGet(canned.port, '/a/../b?x=%2e');
    expect(canned.received()).toContain('GET /a/../b?x=%2e HTTP/1.1\r\n');
    expect(answer).toMatchObject({ answered: true, status: 200, framingProblems: [] });
    expect(answer.headers.get('x-twice')).toEqual(['a', 'b']);
    expect(answer.header('X-Twice')).toBe('a, b');
    expect(answer.body).toEqual(Buffer.from('abcd\u00e9', 'latin1'));
    expect(answer.raw).toContain('3\r\nabc\r\n');
  });

  it.each([
    ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc', 'Content-Length 5 but 3 body bytes'],
    ['HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\na', 'more than one Content-Length'],
    ['HTTP/1.1 204 No Content\r\n\r\nextra', '5 bytes after a bodiless answer'],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n', 'chunked body ends without the last chunk'],
    ['HTTP/1.1 200 OK\r\nbroken\r\n\r\n', 'bad header line "broken"'],
    ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n', 'no end of headers'],
  ])('report the framing problem of %j', async (bytes, problem) => {
    const server = await cannedServer(bytes);
    try {
      const answer = await rawExchange(server.port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(answer.framingProblems).toContain(problem);
    } finally {
      await server.stop();
    }
  });

  it('a close without a byte is answered: false; a refused connection rejects', async () => {
    const silent = await cannedServer(null);
    const port = silent.port;
    try {
      expect((await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')).answered).toBe(false);
    } finally {
      await silent.stop();
    }
    await expect(rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('rejects, naming the request, when the server neither answers nor closes in time', async () => {
    const mute = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = mute.address() as net.AddressInfo;
      await expect(rawExchange(port, 'GET /hang HTTP/1.1\r\nHost: x\r\n\r\n', { timeoutMs: 100 })).rejects.toThrow(
        /GET \/hang HTTP\/1\.1: no answer and no close within 100 ms/,
      );
    } finally {
      mute.close();
    }
  });
});

describe('pollUntil', () => {
  it('resolves with the first result that is done', async () => {
    let n = 0;
    expect(
      await pollUntil('n to reach 3', () => ++n, { timeoutMs: 5_000, intervalMs: 1, done: (value) => value >= 3 }),
    ).toBe(3);
  });

  it('rejects after the timeout, naming what it waited for and the last result', async () => {
    await expect(
      pollUntil('the impossible', () => ({ seen: 'nothing' }), { timeoutMs: 30, intervalMs: 5, done: () => false }),
    ).rejects.toThrow('timed out after 30 ms waiting for the impossible (last: {"seen":"nothing"})');
  });

  it('an attempt that throws ends the wait with that error', async () => {
    await expect(pollUntil('anything', () => Promise.reject(new Error('gone')), { timeoutMs: 5_000 })).rejects.toThrow(
      'gone',
    );
  });
});

describe('child processes', () => {
  const script = (code: string) => ['--input-type=module', '-e', code];

  it('waitFor sees what was already printed and what comes later; exitWithin gives the code', async () => {
    const child = spawnWatched(
      process.execPath,
      script("console.log('ready on 41'); setTimeout(() => { console.error('later'); process.exit(3); }, 50);"),
    );
    try {
      expect((await child.waitFor(/ready on (\d+)/, 5_000, 'the script'))[1]).toBe('41');
      expect((await child.waitFor(/ready on (\d+)/, 5_000, 'the script'))[1]).toBe('41');
      await child.waitFor(/later/, 5_000, 'the script');
      expect(await child.exitWithin(5_000)).toBe(3);
      expect(child.stderr()).toBe('later\n');
      expect(child.output()).toContain('ready on 41');
    } finally {
      await child.stop();
    }
  });

  it('waitFor rejects with the output when the process exits first; exitWithin rejects when it does not exit', async () => {
    const quitter = spawnWatched(process.execPath, script("console.log('bye'); process.exit(1);"));
    await expect(quitter.waitFor(/never/, 5_000, 'the quitter')).rejects.toThrow(/bye/);
    const stayer = spawnWatched(process.execPath, script('setInterval(() => {}, 1_000);'));
    try {
      await expect(stayer.exitWithin(50)).rejects.toThrow(/did not exit within 50 ms/);
    } finally {
      await stayer.stop();
    }
  });

  it('a program that cannot be started ends with the reason in its output', async () => {
    const missing = spawnWatched('/nonexistent/program', []);
    expect(await missing.exitWithin(5_000)).toBeNull();
    expect(missing.output()).toMatch(/ENOENT/);
  });

  it('runBounded: a program that ends without reading its input gives its code, and the closed pipe throws nothing', async () => {
    // More than a pipe holds, so the write is still under way when the program has gone (EPIPE).
    const ran = await runBounded(process.execPath, script('process.exit(3);'), {
      input: 'x'.repeat(4 * 1024 * 1024),
      timeoutMs: 10_000,
    });
    expect(ran.code).toBe(3);
  });

  it('startNodeScript says when the script is not built', async () => {
    await expect(
      startNodeScript('/nonexistent/dist/main.js', { ready: /x/, timeoutMs: 1_000, what: 'nothing' }),
    ).rejects.toThrow(/missing: run "npm run build" first/);
  });
});
