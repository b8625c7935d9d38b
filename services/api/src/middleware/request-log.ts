import type { Middleware } from 'koa';
import { requestLogger, type LogSink } from '@origin-lab/server-kit';

/**
 * The request log (server-kit's requestLogger: one pino line per request, at most linesPerSecond
 * lines a second, 0 for every line) as the first middleware. limitSetting: the variable that
 * raises linesPerSecond, named in the warning that counts the lines not written.
 */
export function requestLog(log: LogSink, linesPerSecond: number, limitSetting: string): Middleware {
  const logRequest = requestLogger(log, 'request', { linesPerSecond, limitSetting });
  return (ctx, next) => {
    logRequest(ctx.req, ctx.res);
    return next();
  };
}
