import type { Middleware } from 'koa';
import type { ApiConfig } from '../config.js';
import { queryInt } from '../http/query-int.js';

/** GET /api/slow?ms=N answers after N ms, and stops waiting as soon as the client leaves. */
export function slow(config: ApiConfig): Middleware {
  return async (ctx) => {
    const ms = queryInt(ctx, 'ms', config.slowMs);
    const res = ctx.res;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      res.once('close', done);
      function done() {
        clearTimeout(timer);
        res.off('close', done);
        resolve();
      }
    });
    ctx.body = { waitedMs: ms };
  };
}
