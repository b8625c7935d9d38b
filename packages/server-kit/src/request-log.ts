import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { loggerOf, type LogSink } from './log.js';

export type RequestLogger = (req: IncomingMessage, res: ServerResponse) => void;

const omitted = () => undefined;

/**
 * One line per request, with message msg, written when the response finishes or the connection
 * closes first (completed: false), so streamed answers are logged with their full duration.
 * Fields: method, url, status, ms, completed and the request headers (credentials redacted).
 */
export function requestLogger(sink: LogSink, msg: string): RequestLogger {
  const line = (req: IncomingMessage, res: ServerResponse, ms: unknown) => ({
    method: req.method,
    url: req.url,
    status: res.statusCode,
    ms,
    completed: res.writableFinished,
    headers: req.headers,
  });
  return pinoHttp({
    logger: loggerOf(sink),
    // The line is flat (the fields above); pino-http's own req, res and err objects are left out.
    wrapSerializers: false,
    serializers: { req: omitted, res: omitted, err: omitted },
    customAttributeKeys: { responseTime: 'ms' },
    customSuccessMessage: () => msg,
    customErrorMessage: () => msg,
    customSuccessObject: (req, res, value: { ms?: unknown }) => line(req, res, value.ms),
    customErrorObject: (req, res, _err, value: { ms?: unknown }) => line(req, res, value.ms),
  });
}
