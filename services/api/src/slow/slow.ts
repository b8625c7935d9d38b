import type { Middleware } from 'koa';
import { queryInt, type IntBounds } from '@origin-lab/server-kit';

export interface SlowOptions {
  /** The wait a request may ask for, and the one it gets when it asks for none. */
  ms: IntBounds;
}

/** GET /api/slow?ms=N answers after N ms, and stops waiting as soon as the client leaves. */
export function slow({ ms: bounds }: SlowOptions): Middleware {
  return async (ctx) => {
    const ms = queryInt(ctx, 'ms', bounds);
    await waitAtLeast(ms, ctx.res);
    ctx.body = { waitedMs: ms };
  };
}

/**
 * Resolves no sooner than ms from now, or when the client leaves. A timer alone can fire up to
 * 1 ms early (Node counts timers in whole milliseconds of the event loop's clock), and the spec
 * says the answer comes after the delay: so the clock is read here, and a timer that fires early
 * is set again for the rest. (Found by the class capacity benchmark, which checks every answer.)
 */
export function waitAtLeast(ms: number, res: NodeJS.EventEmitter): Promise<void> {
  const until = performance.now() + ms;
  return new Promise<void>((resolve) => {
    let timer = setTimeout(check, ms);
    res.once('close', done);
    function check() {
      const left = until - performance.now();
      if (left > 0) timer = setTimeout(check, Math.ceil(left));
      else done();
    }
    function done() {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}
