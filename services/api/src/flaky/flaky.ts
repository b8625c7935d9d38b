import type { Middleware } from 'koa';
import { HttpError } from '@origin-lab/server-kit';
import { seededRandom } from './seeded-random.js';

export interface FlakyOptions {
  /** How often a call fails, from 0 to 1. */
  rate: number;
  /** Makes the sequence of outcomes repeat; undefined: random. */
  seed?: number | undefined;
}

/**
 * GET /api/flaky fails at random with 500 { error, rate }. The rate comes from configuration;
 * ?rate=0..1 overrides it for one call (rate=1 always fails, for a demo that must fail).
 * With a configured seed the sequence of outcomes repeats from one start to the next.
 */
export function flaky(options: FlakyOptions): Middleware {
  const random = options.seed === undefined ? Math.random : seededRandom(options.seed);
  return (ctx) => {
    const rate = rateFrom(ctx.query.rate, options.rate);
    if (random() < rate) throw new HttpError(500, 'flaky failure, on purpose', { rate });
    ctx.body = { ok: true, rate };
  };
}

/** A rate as the query may write it: 0 to 1, with a leading digit and at most six decimals. */
const RATE = /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/;
const RATE_RULE = 'rate must be a number from 0 to 1, with at most six decimals (such as 0.25)';

/** The rate a request asks for (the configured one without rate=); 400 naming it otherwise, as queryInt does. */
function rateFrom(raw: string | string[] | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string')
    throw new HttpError(400, 'rate was given more than once', { parameter: 'rate', detail: RATE_RULE });
  if (!RATE.test(raw)) throw new HttpError(400, RATE_RULE, { parameter: 'rate', detail: `got "${raw.slice(0, 40)}"` });
  return Number(raw);
}
