import type { Middleware } from 'koa';
import { requestLogger, type LogSink } from '@origin-lab/server-kit';

/** The request log (server-kit's requestLogger: one pino line per request) as the first middleware. */
export function requestLog(log: LogSink): Middleware {
  const logRequest = requestLogger(log, 'request');
  return (ctx, next) => {
    logRequest(ctx.req, ctx.res);
    return next();
  };
}
