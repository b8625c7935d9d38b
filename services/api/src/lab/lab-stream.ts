import type { Context, Middleware } from 'koa';
import type { StreamRecords } from '@origin-lab/contract';
import { HttpError, oneOf, queryInt, type IntBounds } from '@origin-lab/server-kit';
import { holdStream, openEventStream, sseComment, sseRecord, type OpenStreams } from '../http/sse.js';
import { runTicks } from '../http/sse-ticks.js';

/**
 * The stream lab: what /api/stream never sends (SPEC.md), on request. `retry:` sets the
 * reconnect delay; `id:` makes the browser send Last-Event-ID on reconnect, and the run resumes
 * after it instead of starting again at n=1; a reconnect answered 204, or not as an event
 * stream, ends the reconnecting. Each connection carries `per` ticks and is then ended by the
 * server, so the browser reconnects. Outside /api/, which holds only the spec's endpoints.
 */
export const LAB_STREAM_PATH = '/lab/stream';

/** How a reconnect (a request carrying Last-Event-ID) is answered. */
const RECONNECT_ANSWERS = ['stream', '204', 'text'] as const;
type ReconnectAnswer = (typeof RECONNECT_ANSWERS)[number];

const KNOWN = ['of', 'per', 'interval', 'retry', 'id', 'reconnect', 'visitor', 'mark'];
const INTERVAL_MS: IntBounds = { min: 10, max: 5_000, default: 100 };
const RETRY_MS = { min: 0, max: 60_000 };

export interface LabStreamLimits {
  /** Most ticks one run may ask for (of, and per). */
  streamMaxTicks: number;
}

interface LabStreamRequest {
  of: number;
  per: number;
  intervalMs: number;
  retryMs: number | null;
  ids: boolean;
  reconnect: ReconnectAnswer;
}

/** A word parameter: its default when absent, else one of the choices (400 otherwise). */
function choice<T extends string>(ctx: Context, name: string, choices: readonly T[], fallback: T): T {
  const raw = ctx.query[name];
  return raw === undefined ? fallback : oneOf(name, String(raw), choices);
}

/** Every parameter checked: an unknown one, or one out of its range, is a 400 naming it. */
function readRequest(ctx: Context, limits: LabStreamLimits): LabStreamRequest {
  const unknown = Object.keys(ctx.query).find((name) => !KNOWN.includes(name));
  if (unknown !== undefined)
    throw new HttpError(400, `unknown parameter ${unknown.slice(0, 64)}`, {
      parameter: unknown.slice(0, 64),
      detail: `known: ${KNOWN.join(', ')}`,
    });
  const ticks: IntBounds = { min: 1, max: limits.streamMaxTicks, default: 4 };
  return {
    of: queryInt(ctx, 'of', ticks),
    per: queryInt(ctx, 'per', { ...ticks, default: 2 }),
    intervalMs: queryInt(ctx, 'interval', INTERVAL_MS),
    retryMs: ctx.query.retry === undefined ? null : queryInt(ctx, 'retry', { ...RETRY_MS, default: 0 }),
    ids: choice(ctx, 'id', ['on', 'off'], 'off') === 'on',
    reconnect: choice(ctx, 'reconnect', RECONNECT_ANSWERS, 'stream'),
  };
}

/** The tick after the one Last-Event-ID names, or 1 when there is none the run knows. */
function firstTick(lastEventId: string, of: number): number {
  if (!/^\d{1,6}$/.test(lastEventId)) return 1;
  const last = Number(lastEventId);
  return last >= 1 && last < of ? last + 1 : 1;
}

/** GET /lab/stream: see LAB_STREAM_PATH. Same origin only: it sends no CORS headers. */
export function labStream(limits: LabStreamLimits, open: OpenStreams): Middleware {
  return (ctx) => {
    const asked = readRequest(ctx, limits);
    const lastEventId = ctx.get('Last-Event-ID');
    if (lastEventId !== '' && asked.reconnect !== 'stream') {
      // A reconnect the lab refuses: the browser must stop reconnecting (readyState 2).
      if (asked.reconnect === '204') ctx.status = 204;
      else {
        ctx.type = 'text/plain';
        ctx.body = 'not an event stream: the browser stops reconnecting\n';
      }
      return;
    }
    const res = ctx.res;
    ctx.respond = false;
    if (!openEventStream(res)) return;
    if (asked.retryMs !== null) res.write(`retry: ${asked.retryMs}\n\n`);
    const start = firstTick(lastEventId, asked.of);
    // This connection's share: per ticks, or fewer when the run ends first.
    const last = Math.min(start + asked.per - 1, asked.of);
    res.write(
      sseComment(
        `ticks ${start} to ${last} of ${asked.of}${lastEventId ? `, after Last-Event-ID ${lastEventId.slice(0, 20)}` : ''}`,
      ),
    );

    const { later, finish } = holdStream(res, open);
    runTicks({
      count: last - start + 1,
      intervalMs: asked.intervalMs,
      tick: (i) => {
        const n = start + i - 1;
        res.write(`${asked.ids ? `id: ${n}\n` : ''}${sseRecord<StreamRecords>('tick', { n, of: asked.of })}`);
      },
      done: () => {
        if (last === asked.of) res.write(sseRecord<StreamRecords>('done', {}));
        // Otherwise the end of this connection's share: the server ends it and the browser reconnects.
        finish();
      },
      later,
    });
  };
}
