import http from 'node:http';
import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import compose from 'koa-compose';
import { errorsAsJson, HttpError, requestLogger, unroutedAsJson } from '@origin-lab/server-kit';
import type { CallSummary } from '@origin-lab/contract';
import { bearerChecker } from './auth.js';
import { behaviour, HeldRequests } from './behaviour.js';
import { CallLog } from './call-log.js';
import { upstreamConfig, type UpstreamConfig } from './config.js';
import { listPosts, listTags } from './resources.js';

export interface UpstreamApp extends Koa {
  calls(): CallSummary;
  resetCalls(): void;
  /** Lets every ?mock=hold request answer now; returns how many were waiting. */
  release(): number;
}

/**
 * Exact, case-sensitive paths, as the proxy's allowlist names them. Every method Node parses is
 * known to the router, so an odd one gets 405, never 501.
 */
const ROUTER_OPTIONS = { strict: true, sensitive: true, methods: http.METHODS };

/** The admin answers are about this moment: never kept by a cache. */
const noStore: Middleware = (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  return next();
};

/**
 * The stand-in third party behind /api/upstream/: bearer-protected JSON, call counting, and
 * switches for slow, failing, closing and uncacheable answers.
 * Admin routes under /_admin/ (calls, reset, release) sit on its own port, which no front exposes.
 */
export function createApp(settings: Partial<UpstreamConfig> = {}): UpstreamApp {
  const { apiKey, log, maxDelayMs } = upstreamConfig(settings);
  const app = new Koa();
  app.silent = true;
  const callLog = new CallLog();
  const held = new HeldRequests();
  const isAuthorized = bearerChecker(apiKey);

  /** Counts the call, demands the key, then applies the ?mock= switches: before every resource. */
  const thirdParty = compose([
    (ctx: Koa.Context, next: Koa.Next) => {
      const authorization = ctx.get('Authorization');
      const call = callLog.record({
        method: ctx.method,
        path: ctx.path,
        query: ctx.querystring,
        accept: ctx.get('Accept') || null,
        authorized: isAuthorized(authorization),
      });
      if (!call.authorized) {
        throw new HttpError(
          401,
          'unauthorized',
          { detail: authorization === '' ? 'no Authorization header' : 'the bearer key is not valid' },
          { 'WWW-Authenticate': 'Bearer realm="upstream-mock"' },
        );
      }
      ctx.state.call = call.n;
      return next();
    },
    behaviour(held, maxDelayMs),
  ]);

  // The resources the third party serves (GET also answers HEAD); the proxy's allowlist names the same two.
  const routes = new Router(ROUTER_OPTIONS)
    .get('/posts', thirdParty, listPosts)
    .get('/tags', thirdParty, listTags)
    .get('/_admin/calls', noStore, (ctx) => {
      ctx.body = callLog.summary(held.size);
    })
    .post('/_admin/reset', noStore, (ctx) => {
      callLog.reset();
      ctx.body = { reset: true };
    })
    .post('/_admin/release', noStore, (ctx) => {
      ctx.body = { released: held.release() };
    });

  const logRequest = requestLogger(log, 'upstream request');
  app.use((ctx, next) => {
    logRequest(ctx.req, ctx.res);
    return next();
  });
  // First of the chain: every failure below is thrown and answered as JSON, never kept by a cache.
  app.use(errorsAsJson({ log, headers: { 'Cache-Control': 'no-store' } }));
  app.use(routes.routes());
  app.use(unroutedAsJson());
  app.use(routes.allowedMethods());

  return Object.assign(app, {
    calls: () => callLog.summary(held.size),
    resetCalls: () => callLog.reset(),
    release: () => held.release(),
  });
}
