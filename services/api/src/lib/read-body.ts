import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from './api-error.js';

export const NO_BODY = Buffer.alloc(0);

/** HTTP/1.x with neither Content-Length nor Transfer-Encoding has no body: nothing to read. */
export function declaresNoBody(req: IncomingMessage): boolean {
  const headers = req.headers;
  return headers['content-length'] === undefined && headers['transfer-encoding'] === undefined && req.httpVersionMajor < 2;
}

/** Reads the whole request body as bytes, refusing more than limit with a 413 before buffering it. */
export function readBody(ctx: Context, limit: number): Promise<Buffer> {
  if (declaresNoBody(ctx.req)) return Promise.resolve(NO_BODY);
  const declared = ctx.req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge(limit));
  // Not async: the reader's own promise is returned, with failures mapped, without an extra await.
  return getRawBody(ctx.req, { limit, length: declared === '' ? undefined : declared }).catch((err: unknown) => {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw tooLarge(limit);
    if (type === 'request.size.invalid') throw new ApiError(400, 'the body is not as long as Content-Length says');
    if (type === 'request.aborted') throw new ApiError(400, 'the client stopped sending the body');
    throw err;
  });
}

export function tooLarge(limit: number): ApiError {
  return new ApiError(413, `request body is larger than the limit of ${limit} bytes`, { limit });
}
