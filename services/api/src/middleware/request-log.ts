import type { Middleware } from 'koa';
import { requestLogger, type LogSink } from '@origin-lab/server-kit';

/**
 * The request log (server-kit's requestLogger: one pino line per request, at most linesPerSecond
 * lines a second, 0 for every line) as the first middleware.
 */
export function requestLog(log: LogSink, linesPerSecond: number): Middleware {
  const logRequest = requestLogger(log, 'request', { linesPerSecond, limitSetting: 'LOG_REQUEST_LINES_PER_SECOND' });
  return (ctx, next) => {
    logRequest(ctx.req, ctx.res);
    return next();
  };
}
