import type { Middleware } from 'koa';
import { HttpError } from '@origin-lab/server-kit';

/** The query parameter that asks for a page served with `Permissions-Policy: unload=()`. */
export const UNLOAD_POLICY_PARAM = 'unload-policy';

/**
 * `?unload-policy=none` serves any page with `Permissions-Policy: unload=()`, so the beacons
 * page can show, in the same tab, what an unload listener does with and without the policy (a
 * response header: a document cannot give it to itself). Any other value is refused.
 */
export function unloadPolicy(): Middleware {
  return async (ctx, next) => {
    const asked = ctx.query[UNLOAD_POLICY_PARAM];
    if (asked === undefined) return next();
    if (asked !== 'none') {
      throw new HttpError(400, `${UNLOAD_POLICY_PARAM} takes one value, none (Permissions-Policy: unload=())`, {
        path: ctx.path,
      });
    }
    ctx.set('Permissions-Policy', 'unload=()');
    return next();
  };
}
