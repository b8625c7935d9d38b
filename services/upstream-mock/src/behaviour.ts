import type { Context, Middleware } from 'koa';
import { isSwitch, SWITCHES, type Switch } from './switches.js';
import { HttpError, queryInt } from '@origin-lab/server-kit';

/** Requests parked by ?mock=hold until release() (or until they time out or their client leaves). */
export class HeldRequests {
  private waiting = new Set<() => void>();

  get size(): number {
    return this.waiting.size;
  }

  /** Resolves on release, after maxMs, or when the client leaves, whichever comes first. */
  wait(ctx: Context, maxMs: number): Promise<void> {
    return waitUnlessGone(ctx, maxMs, (done) => {
      this.waiting.add(done);
      return () => this.waiting.delete(done);
    });
  }

  release(): number {
    const count = this.waiting.size;
    for (const done of [...this.waiting]) done();
    return count;
  }
}

/**
 * Applies the ?mock= switches of one request: the delays first, then whatever replaces or
 * decorates the normal answer (which the next middleware produces).
 */
export function behaviour(held: HeldRequests, maxDelayMs: number): Middleware {
  return async (ctx, next) => {
    const switches = requestedSwitches(ctx);
    if (switches.has('slow'))
      await waitUnlessGone(
        ctx,
        queryInt(ctx, 'delayMs', { min: 0, max: maxDelayMs, default: Math.min(2_000, maxDelayMs) }),
        () => () => {},
      );
    if (switches.has('hold')) await held.wait(ctx, maxDelayMs);
    if (!ctx.writable) return;

    if (switches.has('close')) {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    if (switches.has('fail'))
      throw new HttpError(500, 'the upstream failed on purpose', { detail: 'asked for with mock=fail' });
    if (switches.has('forbidden'))
      throw new HttpError(403, 'the upstream refused this key', { detail: 'asked for with mock=forbidden' });
    if (switches.has('redirect')) {
      ctx.status = 302;
      ctx.set('Location', 'http://elsewhere.invalid/posts');
      ctx.body = { moved: 'http://elsewhere.invalid/posts' };
      return;
    }

    await next();

    if (switches.has('private')) ctx.set('Cache-Control', 'private, max-age=60');
    if (switches.has('no-store')) ctx.set('Cache-Control', 'no-store');
    if (switches.has('no-cache')) ctx.set('Cache-Control', 'no-cache');
    if (switches.has('vary-star')) ctx.set('Vary', '*');
    if (switches.has('cookie')) ctx.append('Set-Cookie', 'upstream_session=for-the-server-only; Path=/; HttpOnly');
    const body = ctx.body as Record<string, unknown> | undefined;
    if (body !== undefined && typeof body === 'object') {
      if (switches.has('reflect')) body.requestHeaders = { ...ctx.req.headers };
      if (switches.has('big'))
        body.padding = 'x'.repeat(queryInt(ctx, 'padBytes', { min: 0, max: 16 * 1024 * 1024, default: 65_536 }));
    }
  };
}

function requestedSwitches(ctx: Context): Set<Switch> {
  const raw = ctx.query.mock;
  if (raw === undefined) return new Set();
  const names = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => value.split(',')).filter((name) => name !== '');
  const unknown = names.filter((name) => !isSwitch(name));
  if (unknown.length > 0) {
    throw new HttpError(400, 'unknown mock switch', {
      detail: `${unknown.join(', ').slice(0, 100)}; known: ${Object.keys(SWITCHES).join(', ')}`,
    });
  }
  return new Set(names as Switch[]);
}

/** Waits up to ms, resolving early when the client leaves or when the registered trigger fires. */
function waitUnlessGone(ctx: Context, ms: number, register: (done: () => void) => () => void): Promise<void> {
  return new Promise((resolve) => {
    const res = ctx.res;
    const timer = setTimeout(done, ms);
    const unregister = register(done);
    res.once('close', done);
    function done() {
      clearTimeout(timer);
      unregister();
      res.off('close', done);
      resolve();
    }
  });
}
