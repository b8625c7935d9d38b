import type { Context, Middleware, Next } from 'koa';
import { HttpError, onResponseDone, type LogSink } from '@origin-lab/server-kit';
import { visitorOf } from '../journal/visitor-token.js';
import type { LongHold } from './holds.js';
import { MemoryHoldings, type Held, type HoldingStore, type HoldKind } from './holdings.js';

/**
 * Fair shares on a server a class uses together: what one visitor (one page load, by the token in
 * its URL) may hold at once. Keyed by visitor, not address, because a whole class is often
 * behind one address (and behind Caddy every request comes from Caddy). A request without a
 * token is not counted: no page sends one, and there is no visitor to charge it to.
 */
export interface VisitorLimits {
  /** Requests of one visitor being answered at once, streams and slow ones included. */
  inFlight: number;
  /** Event streams one visitor holds open (/api/stream, /lab/stream, the journal's stream). */
  streams: number;
  /** /api/slow requests one visitor holds waiting. */
  slow: number;
}

export interface VisitorLimitsOptions {
  /** Which long hold a request is, besides being in flight: the route table's marks (holds.ts). */
  holdOf?: (ctx: Context) => LongHold | null;
  /** The setting that raises each limit, named in the 429 so a teacher knows what to change. */
  settings: Record<keyof VisitorLimits, string>;
  store?: HoldingStore;
  log?: LogSink;
}

const LIMIT_WORDS: Record<keyof VisitorLimits, string> = {
  inFlight: 'requests in flight',
  streams: 'open event streams',
  slow: 'slow requests held',
};

export type VisitorLimitsMiddleware = Middleware & {
  /** What the visitor with this token holds now (all zero for one holding nothing). */
  holding(token: string): Promise<Held>;
};

/**
 * Counts what each visitor holds, and throws a 429 naming the limit (for errorsAsJson to write) when a
 * request would go past one. A limit of 0 is no limit. The counts are in store (memory, or
 * Redis for every replica); when Redis does not answer, this replica counts on its own until
 * it does (the share is then per replica), and the request goes on.
 */
export function visitorLimits(limits: VisitorLimits, options: VisitorLimitsOptions): VisitorLimitsMiddleware {
  const { holdOf = () => null, settings, store = new MemoryHoldings(), log = () => {} } = options;
  const local = store instanceof MemoryHoldings ? store : new MemoryHoldings();
  let degraded = false;
  const fallBack = (err: unknown) => {
    if (!degraded) log({ msg: 'fair shares counted per replica: Redis did not answer', error: String(err) });
    degraded = true;
  };

  const admit = (ctx: Context, next: Next, over: HoldKind | null) => {
    if (!over) return next();
    throw new HttpError(
      429,
      `too many ${LIMIT_WORDS[over]} for this visitor (at most ${limits[over]} at once)`,
      { limit: over, max: limits[over], setting: settings[over] },
      { 'Retry-After': '1' },
    );
  };

  const middleware: Middleware = (ctx, next) => {
    const found = visitorOf(ctx);
    if (found === null) return next();
    const { token } = found;
    const hold = holdOf(ctx);
    const kinds: HoldKind[] = hold ? ['inFlight', hold] : ['inFlight'];
    // Watched before taking: with Redis the take is awaited, and a client may leave meanwhile.
    // What was taken is given back once, at whichever comes last: the answer's end or the take.
    let ended = false;
    let takenFrom: HoldingStore | null = null;
    onResponseDone(ctx.req, ctx.res, () => {
      ended = true;
      takenFrom?.release(token, kinds);
    });
    const settle = (over: HoldKind | null, from: HoldingStore) => {
      if (!over) {
        takenFrom = from;
        if (ended) from.release(token, kinds);
      }
      return admit(ctx, next, over);
    };
    const taken = store.take(token, kinds, limits);
    if (!(taken instanceof Promise)) return settle(taken, store);
    // Redis: when it does not answer, this replica counts on its own until it does.
    return taken.then(
      (over) => {
        degraded = false;
        return settle(over, store);
      },
      (err: unknown) => {
        fallBack(err);
        return settle(local.take(token, kinds, limits), local);
      },
    );
  };
  return Object.assign(middleware, {
    holding: async (token: string): Promise<Held> => store.holding(token),
  });
}
