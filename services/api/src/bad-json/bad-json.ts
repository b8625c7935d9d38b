import type { Middleware } from 'koa';

/** A well-formed HTTP answer whose JSON body stops half-way: ok is true, the parse still fails. */
const TRUNCATED = '{"posts":[{"title":"This body stops in the middle of a str';

export function badJson(): Middleware {
  return (ctx) => {
    ctx.type = 'application/json';
    ctx.body = TRUNCATED;
  };
}
