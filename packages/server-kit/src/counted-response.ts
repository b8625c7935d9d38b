import http from 'node:http';

/** Something that knows how many body bytes a response has written. */
export interface BodyByteCount {
  readonly bodyBytes: number;
}

/**
 * A ServerResponse that can count the body bytes its handler writes, through write() and end(),
 * for the visitors' journal. serve() makes every response one. Counting in the class allocates
 * nothing per request; wrapping write and end on each response took two bound functions, two
 * closures and two own properties, which also gave wrapped responses a shape of their own. It
 * counts only once countBodyBytes() asked: most responses (no visitor token, the pages) are never
 * asked, and measuring their text would be work for nothing on every request.
 */
export class CountedResponse<Request extends http.IncomingMessage = http.IncomingMessage>
  extends http.ServerResponse<Request>
  implements BodyByteCount
{
  /** Body bytes handed to write() and end() since counting began. */
  bodyBytes = 0;
  /** Set by countBodyBytes(). */
  counting = false;

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    if (this.counting) this.bodyBytes += byteCount(chunk, rest[0]);
    return (super.write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }

  override end(...args: unknown[]): this {
    if (this.counting && typeof args[0] !== 'function') this.bodyBytes += byteCount(args[0], args[1]);
    return (super.end as (...args: unknown[]) => this)(...args);
  }
}

/**
 * The body bytes res writes from now on: a response of serve() starts counting them itself; any
 * other server's response gets its write and end wrapped to count them.
 */
export function countBodyBytes(res: http.ServerResponse): BodyByteCount {
  if (res instanceof CountedResponse) {
    res.counting = true;
    return res;
  }
  const count = { bodyBytes: 0 };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
  res.write = ((...args: unknown[]) => {
    count.bodyBytes += byteCount(args[0], args[1]);
    return write(...args);
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') count.bodyBytes += byteCount(args[0], args[1]);
    return end(...args);
  }) as typeof res.end;
  return count;
}

function byteCount(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string')
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}
