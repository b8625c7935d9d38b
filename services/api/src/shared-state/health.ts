import type { Middleware } from 'koa';
import type { SharedRedis } from './redis.js';

/** Where a front (Caddy's health checks, Docker's) asks whether this replica is up; outside /api/. */
export const HEALTH_PATH = '/lab/health';

/**
 * 200 while the process answers, whatever Redis does: every replica shares the one Redis, so
 * taking replicas out for it would take the spec's stateless endpoints down too. The body says
 * where the state is and whether Redis answers, for a person or a script looking in.
 */
export function health(replica: string, redis: SharedRedis | null): Middleware {
  return (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      status: 'ok',
      replica,
      state: redis === null ? 'memory' : 'redis',
      ...(redis === null ? {} : { redis: redis.ready() ? 'ready' : 'unavailable' }),
    };
  };
}
