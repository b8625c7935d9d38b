import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/serve.js';
import { errorsAsJson } from '../../src/http/errors-as-json.js';
import { unroutedAsJson, type UnroutedOptions } from '../../src/http/unrouted.js';

const servers: RunningServer[] = [];
let full: string;
let partial: string;

/** errors, the table, unrouted between routes() and allowedMethods(), then a stand-in for static files. */
async function start(router: Router, options?: UnroutedOptions): Promise<string> {
  const app = new Koa();
  app.silent = true;
  app.use(errorsAsJson()).use(router.routes()).use(unroutedAsJson(options)).use(router.allowedMethods());
  app.use((ctx) => {
    if (ctx.path === '/static.txt') ctx.body = 'static';
  });
  const running = await serve(app.callback(), { port: 0, host: '127.0.0.1' });
  servers.push(running);
  return `http://127.0.0.1:${running.port}`;
}

beforeAll(async () => {
  full = await start(
    new Router({ methods: http.METHODS })
      .get('/things', (ctx) => void (ctx.body = { things: [] }))
      .post('/things', (ctx) => void (ctx.body = { made: true }))
      .delete('/things/one', (ctx) => void (ctx.status = 204)),
  );
  partial = await start(
    new Router({ methods: http.METHODS }).get('/config.js', (ctx) => void (ctx.body = 'config')),
    { notFound: false },
  );
});
afterAll(() => Promise.all(servers.map((running) => running.stop())));

describe('unroutedAsJson', () => {
  it('leaves an answered request alone', async () => {
    const res = await fetch(`${full}/things`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ things: [] });
  });

  it('answers a path without a route with 404 and the Error object naming the path', async () => {
    const res = await fetch(`${full}/nothing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no such endpoint', path: '/nothing' });
  });

  it('answers a known path asked with another method with 405, Allow and the allowed list in order', async () => {
    const res = await fetch(`${full}/things`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(await res.json()).toEqual({
      error: 'method not allowed',
      path: '/things',
      allowed: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    });
    const other = await fetch(`${full}/things/one`, { method: 'GET' });
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('DELETE, OPTIONS');
  });

  it('with notFound: false, leaves an unknown path to what follows, and still answers 405 as JSON', async () => {
    const passed = await fetch(`${partial}/static.txt`);
    expect(passed.status).toBe(200);
    expect(await passed.text()).toBe('static');
    const missing = await fetch(`${partial}/missing.txt`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('Not Found');
    const refused = await fetch(`${partial}/config.js`, { method: 'POST' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await refused.json()).toMatchObject({ error: 'method not allowed', path: '/config.js' });
  });
});
