import type { Middleware } from 'koa';
import type { StreamRecords } from '@origin-lab/contract';
import { queryInt, type IntBounds } from '@origin-lab/server-kit';
import { holdStream, openEventStream, sseComment, sseRecord, type OpenStreams } from '../http/sse.js';
import { runTicks } from '../http/sse-ticks.js';

export interface StreamOptions {
  /** The ticks a request may ask for, and the number it gets when it asks for none. */
  count: IntBounds;
  /** Pause between records; one second in the spec, shorter in tests. */
  intervalMs: number;
}

/**
 * GET /api/stream?count=N: N tick records one interval apart (the first at once), then done,
 * then the end of the response. No id: or retry: field. Written straight to the socket, unbuffered
 * and uncompressed; the timer is cleared the moment the client goes away.
 */
export function stream({ count: countBounds, intervalMs: interval }: StreamOptions, open: OpenStreams): Middleware {
  return (ctx) => {
    const count = queryInt(ctx, 'count', countBounds);
    const res = ctx.res;
    ctx.respond = false;
    if (!openEventStream(res)) return;
    res.write(sseComment(`${count} ticks, one every ${interval} ms`));

    const { later, finish } = holdStream(res, open);
    runTicks({
      count,
      intervalMs: interval,
      tick: (n) => res.write(sseRecord<StreamRecords>('tick', { n, of: count })),
      done: () => {
        res.write(sseRecord<StreamRecords>('done', {}));
        finish();
      },
      later,
    });
  };
}
