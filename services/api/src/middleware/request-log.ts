import type { Middleware } from 'koa';
import { redactHeaders, type LogSink } from '@origin-lab/server-kit';

/**
 * One structured line per request, written when the response closes, so streamed answers
 * (written straight to the socket) are logged too, with their full duration.
 */
export function requestLog(log: LogSink): Middleware {
  return (ctx, next) => {
    const started = performance.now();
    const { req, res } = ctx;
    res.once('close', () => {
      log({
        msg: 'request',
        method: req.method,
        url: req.url,
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        completed: res.writableFinished,
        headers: redactHeaders(req.headers),
      });
    });
    return next();
  };
}
