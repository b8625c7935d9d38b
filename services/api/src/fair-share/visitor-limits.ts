import type { Context, Middleware } from 'koa';
import type { ErrorBody } from '@origin-lab/contract';
import { onResponseDone } from '@origin-lab/server-kit';
import { visitorOf } from '../journal/visitor-token.js';
import { JOURNAL_PATH } from '../journal/journal-stream.js';
import { LAB_STREAM_PATH } from '../lab/lab-stream.js';

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

/** The setting that raises each limit, named in the 429 so a teacher knows what to change. */
export const VISITOR_LIMIT_SETTINGS: Record<keyof VisitorLimits, string> = {
  inFlight: 'VISITOR_MAX_IN_FLIGHT',
  streams: 'VISITOR_MAX_STREAMS',
  slow: 'VISITOR_MAX_SLOW',
};

const LIMIT_WORDS: Record<keyof VisitorLimits, string> = {
  inFlight: 'requests in flight',
  streams: 'open event streams',
  slow: 'slow requests held',
};

/** What one visitor holds now. */
export type Held = Record<keyof VisitorLimits, number>;

export type VisitorLimitsMiddleware = Middleware & {
  /** What the visitor with this token holds now (all zero for one holding nothing). */
  holding(token: string): Held;
};

/** Which long hold, besides being in flight, a request is. */
function holdOf(ctx: Context): 'streams' | 'slow' | null {
  if (ctx.method !== 'GET') return null;
  if (ctx.path === '/api/stream' || ctx.path === LAB_STREAM_PATH) return 'streams';
  if (ctx.path === JOURNAL_PATH && (ctx.get('Accept') || '').includes('text/event-stream')) return 'streams';
  if (ctx.path === '/api/slow') return 'slow';
  return null;
}

/**
 * Counts what each visitor holds, and answers 429 with a JSON body naming the limit when a
 * request would go past one. A limit of 0 is no limit. Entries live only while a visitor holds
 * something, so the table is never larger than the requests in flight.
 */
export function visitorLimits(limits: VisitorLimits): VisitorLimitsMiddleware {
  const heldBy = new Map<string, Held>();
  const middleware: Middleware = (ctx, next) => {
    const found = visitorOf(ctx);
    if (found === null) return next();
    const hold = holdOf(ctx);
    const held = heldBy.get(found.token) ?? { inFlight: 0, streams: 0, slow: 0 };
    const over = (['inFlight', ...(hold ? [hold] : [])] as const).find(
      (kind) => limits[kind] > 0 && held[kind] >= limits[kind],
    );
    if (over) {
      ctx.status = 429;
      ctx.set('Retry-After', '1');
      ctx.body = {
        error: `too many ${LIMIT_WORDS[over]} for this visitor (at most ${limits[over]} at once)`,
        limit: over,
        max: limits[over],
        setting: VISITOR_LIMIT_SETTINGS[over],
      } satisfies ErrorBody;
      return;
    }
    held.inFlight += 1;
    if (hold) held[hold] += 1;
    heldBy.set(found.token, held);
    onResponseDone(ctx.req, ctx.res, () => {
      held.inFlight -= 1;
      if (hold) held[hold] -= 1;
      if (held.inFlight === 0) heldBy.delete(found.token);
    });
    return next();
  };
  return Object.assign(middleware, {
    holding: (token: string): Held => ({ inFlight: 0, streams: 0, slow: 0, ...heldBy.get(token) }),
  });
}
