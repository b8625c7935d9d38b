import http from 'node:http';

/**
 * A ServerResponse that counts the body bytes its handler writes, through write() and end(), for
 * the visitors' journal. serve() makes every response one. Counting in the class allocates
 * nothing per request; wrapping write and end on each response took two bound functions, two
 * closures and two own properties, which also gave wrapped responses a shape of their own.
 */
export class CountedResponse<
  Request extends http.IncomingMessage = http.IncomingMessage,
> extends http.ServerResponse<Request> {
  /** Body bytes handed to write() and end() so far. */
  bodyBytes = 0;

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    this.bodyBytes += byteCount(chunk, rest[0]);
    return (super.write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }

  override end(...args: unknown[]): this {
    if (typeof args[0] !== 'function') this.bodyBytes += byteCount(args[0], args[1]);
    return (super.end as (...args: unknown[]) => this)(...args);
  }
}

function byteCount(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string')
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}
