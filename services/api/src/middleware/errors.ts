import type { Context, Middleware } from 'koa';
import type { ErrorBody } from '@origin-lab/contract';
import type { LogSink } from '@origin-lab/server-kit';
import { ApiError, methodNotAllowed } from '../http/api-error.js';

/** The order of Allow; OPTIONS is on every path, since the CORS middleware answers it. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Every answer the handlers did not give becomes the spec's JSON Error object with its status:
 *
 * - a failure: an ApiError keeps its status and fields, a malformed percent-escape is 400, an
 *   exposed 4xx from Koa keeps its status, anything else is 500 `internal error`, logged;
 * - what the route table left unanswered: a path without a route (Koa's bare 404) and a known
 *   path asked with another method (405 with the Allow header of router.allowedMethods(), which
 *   runs after the routes), given their `path` and the 405 its `allowed` list.
 *
 * Headers already set (the CORS answer, Vary) are kept, so a browser can still read the status.
 */
export function errorsAsJson(log: LogSink): Middleware {
  // One settle for both outcomes: the chain costs one promise, not a thrown error per 404.
  return (ctx, next) =>
    next().then(
      () => {
        const unanswered = unrouted(ctx);
        if (unanswered) answer(ctx, unanswered);
      },
      (err: unknown) => {
        const failure = toApiError(err);
        if (failure.status >= 500 && !(err instanceof ApiError)) {
          log({ msg: 'handler failed', method: ctx.method, url: ctx.url, error: String(err) });
        }
        answer(ctx, failure);
      },
    );
}

function answer(ctx: Context, error: ApiError): void {
  if (ctx.headerSent || !ctx.writable) return;
  ctx.status = error.status;
  ctx.set(error.headers);
  ctx.body = { error: error.message, ...error.fields } satisfies ErrorBody;
}

/** The route table's 404 or 405 as an ApiError; null when a handler answered. */
function unrouted(ctx: Context): ApiError | null {
  if (ctx.body != null || ctx.respond === false) return null;
  if (ctx.status === 405) return methodNotAllowed(ctx.method, ctx.path, allowedList(ctx.response.get('Allow')));
  if (ctx.status === 404) return new ApiError(404, 'no such endpoint', { path: ctx.path });
  return null;
}

function allowedList(allow: string): string[] {
  const methods = new Set(allow.split(',').map((method) => method.trim()));
  return [...METHOD_ORDER.filter((method) => methods.has(method)), 'OPTIONS'];
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof URIError) return new ApiError(400, 'the URL has a malformed percent-escape');
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
    return new ApiError(status, (err as Error).message);
  }
  return new ApiError(500, 'internal error');
}
