import type { Middleware } from 'koa';

/**
 * Picks the handler for a request with one Map lookup on the exact path (case-sensitive, no
 * trailing-slash folding), then the few prefix routes in order, else the fallback. It replaces a
 * general router: every endpoint has a fixed path, and a regular-expression walk per request
 * cost a third of the echo's throughput (see docs/performance.md).
 */
export function dispatch(exact: ReadonlyMap<string, Middleware>, prefixed: ReadonlyArray<readonly [string, Middleware]>, fallback: Middleware): Middleware {
  return (ctx, next) => {
    const path = ctx.path;
    let handler = exact.get(path);
    if (handler === undefined) {
      for (const [prefix, candidate] of prefixed) {
        if (path.startsWith(prefix)) {
          handler = candidate;
          break;
        }
      }
    }
    return (handler ?? fallback)(ctx, next);
  };
}
