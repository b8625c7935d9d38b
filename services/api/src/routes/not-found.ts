import type { Middleware } from 'koa';
import { ApiError } from '../http/api-error.js';

/** Every path without an endpoint: 404 with the path that was asked for. */
export function notFound(): Middleware {
  return (ctx) => {
    throw new ApiError(404, 'no such endpoint', { path: ctx.path });
  };
}
