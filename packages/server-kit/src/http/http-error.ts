/**
 * An answer a service gives on purpose when something is wrong: a status plus the Error object
 * of the spec (error, and the fields that fit: path, detail, rate, parameter, ...), and the
 * headers that go with it (Allow, Retry-After, WWW-Authenticate, ...). Thrown, never written:
 * errorsAsJson turns it into the answer.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 405 for a path that exists, asked with another method: names the path and the methods it takes. */
export function methodNotAllowed(path: string, allowed: readonly string[]): HttpError {
  return new HttpError(405, 'method not allowed', { path, allowed }, { Allow: allowed.join(', ') });
}
