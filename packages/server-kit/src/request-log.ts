import type { IncomingMessage, ServerResponse } from 'node:http';
import { loggerOf, type LogSink } from './log.js';
import { onResponseDone } from './response-done.js';

export type RequestLogger = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * One line per request, with message msg, written through pino when the response is done: it
 * finished (completed: true) or the connection went first (completed: false), so streamed
 * answers are logged with their full duration. Fields: method, url, status, ms, completed and the
 * request headers (credentials redacted by the logger). onResponseDone and one pino call:
 * pino-http's per-request child logger, request id and serializers cost more than the line itself
 * (docs/performance.md).
 */
export function requestLogger(sink: LogSink, msg: string): RequestLogger {
  const logger = loggerOf(sink);
  return (req, res) => {
    const started = performance.now();
    onResponseDone(req, res, (completed) => {
      logger.info(
        {
          method: req.method,
          url: req.url,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          completed,
          headers: req.headers,
        },
        msg,
      );
    });
  };
}
