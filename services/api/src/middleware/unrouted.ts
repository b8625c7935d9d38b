import type { Middleware } from 'koa';
import { ApiError, methodNotAllowed } from '../http/api-error.js';

/** The order of Allow; OPTIONS is on every path, since the CORS middleware answers it. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * What the route table leaves unanswered becomes the API's JSON error: a path without a route
 * stays Koa's bare 404, and router.allowedMethods() marks a known path asked with another method
 * 405 with an Allow header. Both get the Error object (thrown, for errorsAsJson to write), the
 * 405 its `allowed` list. Placed between routes() and allowedMethods(): the router passes on only
 * what no route answered, so an answered request never comes here.
 */
export function unroutedAsJson(): Middleware {
  return (ctx, next) =>
    next().then(() => {
      if (ctx.body != null || ctx.respond === false) return;
      if (ctx.status === 405) throw methodNotAllowed(ctx.method, ctx.path, allowedList(ctx.response.get('Allow')));
      if (ctx.status === 404) throw new ApiError(404, 'no such endpoint', { path: ctx.path });
    });
}

function allowedList(allow: string): string[] {
  const methods = new Set(allow.split(',').map((method) => method.trim()));
  return [...METHOD_ORDER.filter((method) => methods.has(method)), 'OPTIONS'];
}
