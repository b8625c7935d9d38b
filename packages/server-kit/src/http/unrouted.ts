import type { Middleware } from 'koa';
import { HttpError, methodNotAllowed } from './http-error.js';

/** The order of Allow; OPTIONS is on every path (a CORS middleware or the router answers it). */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface UnroutedOptions {
  /**
   * Whether a path without a route becomes the JSON 404 (the default). False leaves it to what
   * follows the table, e.g. static files with their own 404.
   */
  notFound?: boolean;
}

/**
 * What a @koa/router table leaves unanswered becomes a JSON error: a path without a route stays
 * Koa's bare 404, and router.allowedMethods() marks a known path asked with another method 405
 * with an Allow header. Both get the Error object (thrown, for errorsAsJson to write), the 405
 * its `allowed` list. Placed between routes() and allowedMethods(): the router passes on only
 * what no route answered, so an answered request never comes here.
 */
export function unroutedAsJson(options: UnroutedOptions = {}): Middleware {
  const notFound = options.notFound ?? true;
  return (ctx, next) =>
    next().then(() => {
      if (ctx.body != null || ctx.respond === false) return;
      if (ctx.status === 405) throw methodNotAllowed(ctx.path, allowedList(ctx.response.get('Allow')));
      if (ctx.status === 404 && notFound) throw new HttpError(404, 'no such endpoint', { path: ctx.path });
    });
}

function allowedList(allow: string): string[] {
  const methods = new Set(allow.split(',').map((method) => method.trim()));
  return [...METHOD_ORDER.filter((method) => methods.has(method)), 'OPTIONS'];
}
