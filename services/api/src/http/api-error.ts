/**
 * An answer the API gives on purpose when something is wrong: a status plus the Error object
 * of the spec (error, and the fields that fit: path, detail, rate, parameter, ...).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): ApiError {
  return new ApiError(405, `method ${method} is not allowed here`, { path, allowed }, { Allow: allowed.join(', ') });
}
