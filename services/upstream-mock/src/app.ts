import Koa from 'koa';
import { requestLogger } from '@origin-lab/server-kit';
import { bearerChecker } from './auth.js';
import { behaviour, HeldRequests } from './behaviour.js';
import type { CallSummary } from '@origin-lab/contract';
import { CallLog } from './call-log.js';
import { upstreamConfig, type UpstreamConfig } from './config.js';
import { MockError } from './mock-error.js';
import { listPosts, listTags } from './resources.js';

export interface UpstreamApp extends Koa {
  calls(): CallSummary;
  resetCalls(): void;
  /** Lets every ?mock=hold request answer now; returns how many were waiting. */
  release(): number;
}

/** The resources the third party serves; the proxy's allowlist names the same two. */
const RESOURCES: Record<string, (ctx: Koa.Context, call: number) => void> = {
  '/posts': listPosts,
  '/tags': listTags,
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

  const logRequest = requestLogger(log, 'upstream request');
  app.use(async (ctx, next) => {
    logRequest(ctx.req, ctx.res);
    try {
      await next();
    } catch (err) {
      if (!(err instanceof MockError)) log({ msg: 'upstream-mock handler failed', error: String(err) });
      const answer = err instanceof MockError ? err : new MockError(500, 'internal error');
      ctx.status = answer.status;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: answer.message, ...(answer.detail === undefined ? {} : { detail: answer.detail }) };
    }
  });

  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/_admin/')) return admin(ctx);
    const authorization = ctx.get('Authorization');
    const call = callLog.record({
      method: ctx.method,
      path: ctx.path,
      query: ctx.querystring,
      accept: ctx.get('Accept') || null,
      authorized: isAuthorized(authorization),
    });
    if (!call.authorized) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer realm="upstream-mock"');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        error: 'unauthorized',
        detail: authorization === '' ? 'no Authorization header' : 'the bearer key is not valid',
      };
      return;
    }
    ctx.state.call = call.n;
    await next();
  });

  app.use(behaviour(held, maxDelayMs));

  app.use((ctx) => {
    const resource = RESOURCES[ctx.path];
    if (resource === undefined)
      throw new MockError(404, 'no such resource', `known: ${Object.keys(RESOURCES).join(', ')}`);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new MockError(405, `method ${ctx.method} is not allowed`);
    resource(ctx, ctx.state.call as number);
  });

  function admin(ctx: Koa.Context): void {
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path === '/_admin/calls' && ctx.method === 'GET') {
      ctx.body = callLog.summary(held.size);
    } else if (ctx.path === '/_admin/reset' && ctx.method === 'POST') {
      callLog.reset();
      ctx.body = { reset: true };
    } else if (ctx.path === '/_admin/release' && ctx.method === 'POST') {
      ctx.body = { released: held.release() };
    } else {
      throw new MockError(404, 'no such admin route', 'GET /_admin/calls, POST /_admin/reset, POST /_admin/release');
    }
  }

  return Object.assign(app, {
    calls: () => callLog.summary(held.size),
    resetCalls: () => callLog.reset(),
    release: () => held.release(),
  });
}
