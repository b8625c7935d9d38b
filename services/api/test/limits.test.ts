import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { defaultLimits } from '../src/config.js';
import { apiForFile, startApi } from './start-api.js';
import { rawExchange } from '@origin-lab/test-kit';

const limits = { ...defaultLimits, bodyBytes: 1_000, fileBytes: 100, files: 1, fields: 3, fieldBytes: 50 };
const api = apiForFile({ limits, slowMs: { min: 0, max: 200, default: 5 } });

describe('query bounds', () => {
  it.each(['-1', '201', 'abc', '1e2', '10.5', '0x10', ' 5', ''])(
    'ms=%s answers 400 naming ms and its bounds',
    async (ms) => {
      const res = await fetch(`${api.url}/api/slow?ms=${encodeURIComponent(ms)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ parameter: 'ms', error: expect.stringContaining('0 to 200') });
    },
  );

  it('ms given twice is refused', async () => {
    const res = await fetch(`${api.url}/api/slow?ms=1&ms=2`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ parameter: 'ms' });
  });

  it('the bounds themselves are accepted, and the default applies without ms', async () => {
    expect(await (await fetch(`${api.url}/api/slow?ms=0`)).json()).toEqual({ waitedMs: 0 });
    expect(await (await fetch(`${api.url}/api/slow?ms=200`)).json()).toEqual({ waitedMs: 200 });
    expect(await (await fetch(`${api.url}/api/slow`)).json()).toEqual({ waitedMs: 5 });
  });

  it('a client that leaves /api/slow stops the wait: the log shows it closed early', async () => {
    const patient = await startApi({ slowMs: { min: 0, max: 600_000, default: 600_000 } });
    try {
      const controller = new AbortController();
      // Leave only once the server holds the request, so the test does not depend on timing.
      patient.server.once('request', () => setImmediate(() => controller.abort()));
      const outcome = await fetch(`${patient.url}/api/slow?ms=600000`, { signal: controller.signal }).catch(
        (err: Error) => err.name,
      );
      expect(outcome).toBe('AbortError');
      await expect
        .poll(() => patient.logs.find((line) => line.url === '/api/slow?ms=600000'))
        .toMatchObject({ completed: false });
    } finally {
      await patient.stop();
    }
  });
});

describe('a client that half-closes its side has left (docs/decisions.md: httpAllowHalfOpen off)', () => {
  it.each(['/api/slow?ms=600000', '/api/stream?count=100'])(
    '%s stops at once, and the log shows it closed early',
    async (path) => {
      // Without the half-close, each would hold the connection for ten minutes.
      const patient = await startApi({ slowMs: { min: 0, max: 600_000, default: 600_000 }, streamIntervalMs: 6_000 });
      try {
        await rawExchange(patient.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, {
          halfClose: true,
          timeoutMs: 10_000,
        });
        await expect.poll(() => patient.logs.find((line) => line.url === path)).toMatchObject({ completed: false });
      } finally {
        await patient.stop();
      }
    },
  );
});

describe('body limits', () => {
  it.each(['/api/echo', '/api/beacon'])('%s refuses a body over the limit with 413', async (path) => {
    const res = await fetch(`${api.url}${path}`, { method: 'POST', body: 'x'.repeat(1_001) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: expect.stringContaining('1000 bytes'), limit: 1_000 });
  });

  it('a body exactly at the limit is accepted', async () => {
    const res = await fetch(`${api.url}/api/echo`, { method: 'POST', body: 'x'.repeat(1_000) });
    expect(res.status).toBe(200);
  });

  it('a chunked body with no length is cut at the limit too', async () => {
    const chunk = 'x'.repeat(600);
    const res = await rawExchange(
      api.port,
      'POST /api/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `258\r\n${chunk}\r\n258\r\n${chunk}\r\n0\r\n\r\n`,
      { halfClose: true },
    );
    expect(res.status).toBe(413);
  });

  it('a body shorter than its Content-Length is a 400, not a hang', async () => {
    const res = await rawExchange(
      api.port,
      'POST /api/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 10\r\n\r\nabc',
      { halfClose: true },
    );
    // The client half-closed: the server sees the body end early.
    expect([400]).toContain(res.status);
  });

  it('a urlencoded post over the limit is 413', async () => {
    const res = await fetch(`${api.url}/api/posts`, {
      method: 'POST',
      body: new URLSearchParams({ title: 'x'.repeat(2_000), author: 'a' }),
    });
    expect(res.status).toBe(413);
  });
});

describe('multipart limits on POST /api/posts', () => {
  function post(data: FormData) {
    return fetch(`${api.url}/api/posts`, { method: 'POST', body: data });
  }

  const file = (name: string, content: string) => new File([content], name);
  const refusals: { refusal: string; parts: [string, string | File][]; answer: Record<string, unknown> }[] = [
    {
      refusal: 'a file over the size limit is 413 naming the limit',
      parts: [
        ['title', 't'],
        ['author', 'a'],
        ['file', file('big.txt', 'x'.repeat(101))],
      ],
      answer: { detail: 'LIMIT_FILE_SIZE' },
    },
    {
      refusal: 'too many files is 413',
      parts: [
        ['title', 't'],
        ['file', file('a.txt', 'a')],
        ['file', file('b.txt', 'b')],
      ],
      answer: { detail: expect.stringMatching(/LIMIT_(FILE|PART)_COUNT/) },
    },
    {
      refusal: 'too many fields is 413',
      parts: [
        ['title', 'v'],
        ['author', 'v'],
        ['tags', 'v'],
        ['extra', 'v'],
      ],
      answer: { detail: expect.stringMatching(/LIMIT_(FIELD|PART)_COUNT/) },
    },
    {
      refusal: 'a field value over the limit is 413 naming the field',
      parts: [
        ['title', 'x'.repeat(51)],
        ['author', 'a'],
      ],
      answer: { detail: 'LIMIT_FIELD_VALUE', field: 'title' },
    },
  ];
  for (const { refusal, parts, answer } of refusals) {
    it(refusal, async () => {
      const data = new FormData();
      for (const [name, value] of parts) data.append(name, value);
      const res = await post(data);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject(answer);
    });
  }

  it('a declared Content-Length far over every limit is refused before reading', async () => {
    const res = await rawExchange(
      api.port,
      'POST /api/posts HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 99999999\r\n\r\n',
      { halfClose: true },
    );
    expect(res.status).toBe(413);
  });
});

/**
 * Sends a request's head with Expect: 100-continue and waits for the server's first answer,
 * sending the body only if that is 100 Continue (as curl does). Returns everything the server
 * sent, up to its close.
 */
function expectContinue(
  path: string,
  body: string,
  declared = Buffer.byteLength(body),
  type = 'text/plain',
  connection = 'Connection: close\r\n',
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(api.port, '127.0.0.1');
    let received = '';
    let sent = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 10 s; received: ${received}`));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!sent && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        sent = true;
        socket.write(body);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${connection}Expect: 100-continue\r\n` +
        `Content-Type: ${type}\r\nContent-Length: ${declared}\r\n\r\n`,
    );
  });
}

describe('Expect: 100-continue', () => {
  it('a body within the limit is asked for (100 Continue), then answered', async () => {
    const answer = await expectContinue('/api/echo', 'x'.repeat(1_000));
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
  });

  it('a multipart post is asked for too: its parser reads through the same request', async () => {
    const part = (name: string, value: string) =>
      `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = `${part('title', 'sent after 100')}${part('author', 'curl')}--b--\r\n`;
    const answer = await expectContinue('/api/posts', body, undefined, 'multipart/form-data; boundary=b');
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created\r\n/);
  });

  it('a declared length over the limit gets 413 at once, never 100, and the connection closes', async () => {
    // The connection is not asked to close: the server closes it, since the body may follow.
    const answer = await expectContinue('/api/echo', '', 5_000_000, 'text/plain', '');
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).not.toContain('100 Continue');
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('a path that takes no body gets its answer without 100', async () => {
    const answer = await expectContinue('/api/nope', 'x'.repeat(10));
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).not.toContain('100 Continue');
  });
});
