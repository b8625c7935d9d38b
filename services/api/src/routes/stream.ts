import type { Middleware } from 'koa';
import type { StreamRecords } from '@origin-lab/contract';
import type { ApiConfig } from '../config.js';
import { queryInt } from '@origin-lab/server-kit';
import { holdStream, openEventStream, sseComment, sseRecord, type OpenStreams } from '../http/sse.js';
import { runTicks } from '../http/sse-ticks.js';

/**
 * GET /api/stream?count=N: N tick records one interval apart (the first at once), then done,
 * then the end of the response. No id: or retry: field. Written straight to the socket, unbuffered
 * and uncompressed; the timer is cleared the moment the client goes away.
 */
export function stream(config: ApiConfig, open: OpenStreams): Middleware {
  const interval = config.streamIntervalMs;
  return (ctx) => {
    const count = queryInt(ctx, 'count', config.streamCount);
    const res = ctx.res;
    ctx.respond = false;
    openEventStream(res);
    if (ctx.method === 'HEAD') {
      res.end();
      return;
    }
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
