import type { Middleware } from 'koa';

/**
 * A page served at other addresses too, each with headers of its own. What the page shows is
 * decided by the document's own headers (an opener or embedder policy), so each variant is an
 * address, fixed here and never taken from the query. addresses: each address and its headers;
 * the address of the page itself may be one of them. GET and HEAD only reach here.
 */
export function pageAddresses(
  page: string,
  addresses: Readonly<Record<string, Readonly<Record<string, string>>>>,
): Middleware {
  return async (ctx, next) => {
    const headers = Object.hasOwn(addresses, ctx.path) ? addresses[ctx.path] : undefined;
    if (!headers) return next();
    ctx.set(headers);
    ctx.path = page;
    return next();
  };
}
