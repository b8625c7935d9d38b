import type { Context, Middleware } from 'koa';
import type Router from '@koa/router';

/** The long holds a fair share counts, besides being in flight. */
export type LongHold = 'streams' | 'slow';

interface HoldMark {
  kind: LongHold;
  /** Whether this request holds it (the journal holds a stream only when asked for one). */
  when?: (ctx: Context) => boolean;
}

const HOLDS = Symbol('fair-share hold');

type Marked = Middleware & { [HOLDS]?: HoldMark };

/**
 * Marks a route's handler as one that holds a stream or a wait, on its line of the route table:
 * `.get('/api/slow', holds('slow', slow(options)))`. Fair shares count what the table marks.
 */
export function holds<M extends Middleware>(kind: LongHold, handler: M, when?: (ctx: Context) => boolean): M {
  const marked: Marked = (ctx, next) => handler(ctx, next);
  marked[HOLDS] = { kind, when };
  return marked as M;
}

/**
 * Which long hold a request is, read from the route tables' marks. Only GET: a HEAD is answered
 * at once and holds nothing.
 */
export function holdsIn(routers: readonly Router[]): (ctx: Context) => LongHold | null {
  return (ctx) => {
    if (ctx.method !== 'GET') return null;
    for (const router of routers) {
      for (const layer of router.match(ctx.path, ctx.method).pathAndMethod) {
        for (const handler of layer.stack as Marked[]) {
          const mark = handler[HOLDS];
          if (mark && (mark.when?.(ctx) ?? true)) return mark.kind;
        }
      }
    }
    return null;
  };
}
