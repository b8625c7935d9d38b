import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from '@origin-lab/server-kit';

export const NO_BODY = Buffer.alloc(0);

/** HTTP/1.x with neither Content-Length nor Transfer-Encoding has no body: nothing to read. */
export function declaresNoBody(req: IncomingMessage): boolean {
  const headers = req.headers;
  return (
    headers['content-length'] === undefined && headers['transfer-encoding'] === undefined && req.httpVersionMajor < 2
  );
}

/** Reads the whole request body as bytes, refusing more than limit with a 413 before buffering it. */
export function readBody(ctx: Context, limit: number): Promise<Buffer> {
  return declaresNoBody(ctx.req) ? Promise.resolve(NO_BODY) : readSentBody(ctx.req, limit);
}

/** readBody for a request already known to declare a body (see declaresNoBody). */
export function readSentBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(bodyTooLarge(limit));
  // A declared length within the limit is the common case: a plain reader, no general machinery.
  if (declared !== undefined && declared !== '') return readDeclared(req, Number(declared));
  // Not async: the reader's own promise is returned, with failures mapped, without an extra await.
  return getRawBody(req, { limit, length: declared === '' ? undefined : declared }).catch((err: unknown) => {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw bodyTooLarge(limit);
    if (type === 'request.size.invalid') throw new HttpError(400, 'the body is not as long as Content-Length says');
    if (type === 'request.aborted') throw new HttpError(400, 'the client stopped sending the body');
    throw err;
  });
}

/**
 * Reads a body of a declared length (already checked against the limit). Node's parser ends the
 * body at exactly that length, so what can go wrong is the client leaving early: the same 400
 * raw-body gives for an aborted request.
 */
function readDeclared(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onError);
    };
    function onData(chunk: Buffer) {
      received += chunk.length;
      chunks.push(chunk);
    }
    function onEnd() {
      cleanup();
      if (received !== length) reject(new HttpError(400, 'the body is not as long as Content-Length says'));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    }
    function onAborted() {
      cleanup();
      reject(new HttpError(400, 'the client stopped sending the body'));
    }
    function onError(err: Error) {
      cleanup();
      reject(err);
    }
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('aborted', onAborted);
    req.once('error', onError);
  });
}

export function bodyTooLarge(limit: number): HttpError {
  return new HttpError(413, `request body is larger than the limit of ${limit} bytes`, { limit });
}
