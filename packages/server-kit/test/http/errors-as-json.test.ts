import Koa, { type Middleware } from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/serve.js';
import { errorsAsJson, type ErrorsAsJsonOptions } from '../../src/http/errors-as-json.js';
import { HttpError } from '../../src/http/http-error.js';

let running: RunningServer | undefined;
afterEach(() => running?.stop());

/** Serves errorsAsJson (first) and then handler; answers one GET of path. */
async function answer(handler: Middleware, path = '/', options: ErrorsAsJsonOptions = {}) {
  const app = new Koa();
  app.silent = true;
  app.use(errorsAsJson(options)).use(handler);
  running = await serve(app.callback(), { port: 0, host: '127.0.0.1' });
  const res = await fetch(`http://127.0.0.1:${running.port}${path}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe('errorsAsJson', () => {
  it('writes a thrown HttpError as its status, its Error object and its headers', async () => {
    const res = await answer(() => {
      throw new HttpError(429, 'too many', { limit: 'slow', max: 2 }, { 'Retry-After': '1' });
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'too many', limit: 'slow', max: 2 });
  });

  it('keeps the headers set before the failure, such as the CORS answer', async () => {
    const res = await answer((ctx) => {
      ctx.set('Access-Control-Allow-Origin', 'http://a.example');
      ctx.set('Vary', 'Origin');
      throw new HttpError(403, 'refused', { origin: 'http://a.example' });
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://a.example');
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.body).toEqual({ error: 'refused', origin: 'http://a.example' });
  });

  it('adds the headers every error answer carries, the thrown ones winning', async () => {
    const options = { headers: { 'Cache-Control': 'no-store', 'X-Extra': 'yes' } };
    const plain = await answer(
      () => {
        throw new HttpError(401, 'unauthorized');
      },
      '/',
      options,
    );
    expect(plain.headers.get('cache-control')).toBe('no-store');
    expect(plain.headers.get('x-extra')).toBe('yes');
    const own = await answer(
      () => {
        throw new HttpError(502, 'bad gateway', {}, { 'X-Extra': 'mine' });
      },
      '/',
      options,
    );
    expect(own.headers.get('x-extra')).toBe('mine');
  });

  it('answers a malformed percent-escape with 400', async () => {
    const res = await answer((ctx) => {
      decodeURIComponent(ctx.path.slice(1));
    }, '/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'the URL has a malformed percent-escape' });
  });

  it("keeps the status and message of Koa's exposed 4xx", async () => {
    const res = await answer((ctx) => ctx.throw(413, 'the body is too large'));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'the body is too large' });
  });

  it('answers anything else with 500 "internal error", logged, its message kept out of the answer', async () => {
    const logged: Record<string, unknown>[] = [];
    const log = (entry: Record<string, unknown>) => void logged.push(entry);
    const res = await answer(
      () => {
        throw new Error('secret detail');
      },
      '/broken?x=1',
      { log },
    );
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal error' });
    expect(logged).toEqual([
      { msg: 'handler failed', method: 'GET', url: '/broken?x=1', error: 'Error: secret detail' },
    ]);
  });

  it('does not log a 500 thrown on purpose', async () => {
    const logged: unknown[] = [];
    const log = (entry: Record<string, unknown>) => void logged.push(entry);
    const res = await answer(
      () => {
        throw new HttpError(500, 'failed on purpose', { rate: 1 });
      },
      '/',
      { log },
    );
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'failed on purpose', rate: 1 });
    expect(logged).toEqual([]);
  });
});
