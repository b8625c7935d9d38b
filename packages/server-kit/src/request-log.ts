import type { IncomingMessage, ServerResponse } from 'node:http';
import { loggerOf, type LogSink } from './log.js';
import { perSecondLimit } from './per-second-limit.js';
import { onResponseDone } from './response-done.js';

export type RequestLogger = (req: IncomingMessage, res: ServerResponse) => void;

export interface RequestLogOptions {
  /**
   * At most this many requests a second get a line (the first ones of each second); the others
   * are counted in one warning line, `<msg> lines not written`, once their second is over.
   * 0 or absent: every request gets its line.
   */
  linesPerSecond?: number;
  /** The setting that changes the limit, named in that warning so a reader knows what to change. */
  limitSetting?: string;
}

/**
 * One line per request, with message msg, written through pino when the response is done: it
 * finished (completed: true) or the connection went first (completed: false), so streamed
 * answers are logged with their full duration. Fields: method, url, status, ms, completed and the
 * request headers (credentials redacted by the logger). onResponseDone and one pino call:
 * pino-http's per-request child logger, request id and serializers cost more than the line itself
 * (docs/performance.md). Whether a request gets its line is decided when it starts, so a request
 * over the limit costs one comparison.
 */
export function requestLogger(sink: LogSink, msg: string, options: RequestLogOptions = {}): RequestLogger {
  const logger = loggerOf(sink);
  const linesPerSecond = options.linesPerSecond ?? 0;
  const admit = perSecondLimit(linesPerSecond, (notWritten) =>
    logger.warn({ notWritten, linesPerSecond, setting: options.limitSetting }, `${msg} lines not written`),
  );
  return (req, res) => {
    const started = performance.now();
    if (!admit(started)) return;
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
