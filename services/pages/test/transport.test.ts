import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@origin-lab/server-kit';
import { apiConfig, createApp } from '@origin-lab/api';
import { classifyFailure, isOkStatus, parseJsonOrNull, TransportError } from '../web/ts/probes/transport/contract.js';
import { fetchTransport } from '../web/ts/probes/transport/fetch-transport.js';

const aborted = () => AbortSignal.abort();
const live = () => new AbortController().signal;

describe('classifying a failure by its signals', () => {
  it('asks the deadline first, then the cancel signal, else it was the network', () => {
    expect(classifyFailure(aborted(), aborted())).toBe('timeout');
    expect(classifyFailure(aborted(), live())).toBe('timeout');
    expect(classifyFailure(live(), aborted())).toBe('abort');
    expect(classifyFailure(undefined, aborted())).toBe('abort');
    expect(classifyFailure(live(), live())).toBe('network');
    expect(classifyFailure(undefined, undefined)).toBe('network');
  });

  it('ignores what the exception says: a timeout reported as AbortError is still a timeout', () => {
    const deadline = AbortSignal.abort(new DOMException('old engines said this', 'AbortError'));
    expect(classifyFailure(deadline, live())).toBe('timeout');
  });
});

describe('the result contract', () => {
  it('parses JSON, and gives null for empty or broken bodies', () => {
    expect(parseJsonOrNull('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonOrNull('')).toBeNull();
    expect(parseJsonOrNull('{"posts":[')).toBeNull();
  });

  it('calls 200 through 299 ok', () => {
    expect([199, 200, 202, 299, 300, 404].map(isOkStatus)).toEqual([false, true, true, true, false, false]);
  });

  it('keeps the original as the cause', () => {
    const cause = new TypeError('failed to fetch');
    const error = new TransportError('network', '/x', cause);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TransportError');
    expect(error.kind).toBe('network');
    expect(error.cause).toBe(cause);
  });
});

describe('the fetch transport against the real API', () => {
  let running: RunningServer;
  let base: string;

  beforeAll(async () => {
    const api = createApp(apiConfig({ logRequests: false, log: () => {} }));
    running = await serve(api.callback(), { port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${running.port}`;
  });
  afterAll(() => running.stop());

  it.each([
    ['/api/posts', 200, true],
    ['/api/nothing-here', 404, false],
    ['/api/flaky?rate=1', 500, false],
    ['/api/bad-json', 200, true],
  ])('%s gives { ok, status, data } with status %i', async (path, status, ok) => {
    const result = await fetchTransport(`${base}${path}`);
    expect(result.status).toBe(status);
    expect(result.ok).toBe(ok);
    if (path === '/api/bad-json') expect(result.data).toBeNull();
    if (status === 404) expect(result.data).toEqual({ error: expect.any(String), path: '/api/nothing-here' });
  });

  it('gives data null for the empty 202', async () => {
    expect(await fetchTransport(`${base}/api/beacon`, { method: 'POST', body: 'x' })).toEqual({
      ok: true,
      status: 202,
      data: null,
    });
  });

  it('throws kind timeout when the deadline passes', async () => {
    const error = await fetchTransport(`${base}/api/slow?ms=3000`, { timeoutMs: 100 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).kind).toBe('timeout');
  });

  it('throws kind abort when the caller cancels, even with a string reason', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('user left'), 50);
    const error = (await fetchTransport(`${base}/api/slow?ms=3000`, {
      signal: controller.signal,
      timeoutMs: 5_000,
    }).catch((err: unknown) => err)) as TransportError;
    expect(error.kind).toBe('abort');
    expect(error.cause).toBe('user left');
  });

  it('throws kind network when no connection can be made', async () => {
    const closed = await serve((_req, res) => res.end(), { port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${closed.port}/`;
    await closed.stop();
    const error = (await fetchTransport(url).catch((err: unknown) => err)) as TransportError;
    expect(error.kind).toBe('network');
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});
