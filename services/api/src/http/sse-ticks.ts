/** A clock in milliseconds that only goes forward: performance.now unless a test gives its own. */
export type Clock = () => number;

export interface TickLoop {
  /** How many ticks to send, 1 or more. */
  count: number;
  intervalMs: number;
  /** Sends tick n, n from 1 to count. */
  tick(n: number): void;
  /** After the last tick. */
  done(): void;
  /** Runs next after ms milliseconds (holdStream's `later`, which a closed stream cancels). */
  later(next: () => void, ms: number): void;
  now?: Clock;
}

/**
 * The clock when a loop brings none. One function for every loop: a default written inline in
 * runTicks' parameters would be a new closure, with a scope of its own, kept by every open stream.
 */
const performanceNow: Clock = () => performance.now();

/**
 * The one tick loop of the api's event streams (/api/stream and the stream lab): tick 1 at once,
 * tick n due at start + (n - 1) x interval. Each tick is scheduled against the start time, not
 * the previous tick, so a tick that runs late makes the next one sooner and lateness never
 * accumulates over a long run ("about one second apart", SPEC.md).
 */
export function runTicks({ count, intervalMs, tick, done, later, now = performanceNow }: TickLoop): void {
  const started = now();
  let n = 0;
  const next = () => {
    n += 1;
    tick(n);
    if (n === count) return done();
    later(next, started + n * intervalMs - now());
  };
  next();
}
