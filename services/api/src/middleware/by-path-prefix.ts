import type { Middleware } from 'koa';

/**
 * Sends a request whose path starts with prefix down one chain and every other request down the
 * other, so each part of the api has its own middleware and its own, shorter route table.
 */
export function byPathPrefix<UnderState, UnderContext, OtherState, OtherContext>(
  prefix: string,
  underPrefix: Middleware<UnderState, UnderContext>,
  otherwise: Middleware<OtherState, OtherContext>,
): Middleware<UnderState & OtherState, UnderContext & OtherContext> {
  return (ctx, next) => (ctx.path.startsWith(prefix) ? underPrefix(ctx, next) : otherwise(ctx, next));
}
