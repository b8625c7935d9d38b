import type { Middleware } from 'koa';
import type { StreamRecords } from '@origin-lab/contract';
import type { ApiConfig } from '../config.js';
import { queryInt } from '@origin-lab/server-kit';
import { holdStream, openEventStream, sseComment, sseRecord, type OpenStreams } from '../http/sse.js';

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

    // Each tick is scheduled against the start time, so lateness never accumulates.
    const started = performance.now();
    let sent = 0;
    const { later, finish } = holdStream(res, open);
    const tick = () => {
      sent += 1;
      res.write(sseRecord<StreamRecords>('tick', { n: sent, of: count }));
      if (sent === count) {
        res.write(sseRecord<StreamRecords>('done', {}));
        finish();
        return;
      }
      later(tick, started + sent * interval - performance.now());
    };
    tick();
  };
}
