import type { Middleware } from 'koa';
import { methodNotAllowed } from '../http/api-error.js';

/** A well-formed HTTP answer whose JSON body stops half-way: ok is true, the parse still fails. */
const TRUNCATED = '{"posts":[{"title":"This body stops in the middle of a str';

export function badJson(): Middleware {
  return (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed(ctx.method, ctx.path, ['GET', 'HEAD', 'OPTIONS']);
    ctx.type = 'application/json';
    ctx.body = TRUNCATED;
  };
}
