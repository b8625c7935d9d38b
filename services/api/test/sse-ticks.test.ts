import { afterEach, describe, expect, it, vi } from 'vitest';
import { runTicks } from '../src/http/sse-ticks.js';

/**
 * A clock the test moves and a scheduler that only records: each timer the loop asks for is
 * kept with the time it is due, and the test fires it when it likes (late, say).
 */
function controlledClock(start: number) {
  let now = start;
  const pending: { due: number; next: () => void }[] = [];
  return {
    now: () => now,
    later: (next: () => void, ms: number) => void pending.push({ due: now + ms, next }),
    /** Fires the one pending timer lateMs after it was due; returns when it was due. */
    fire(lateMs: number): number {
      const timer = pending.shift();
      if (!timer) throw new Error('no tick is scheduled');
      expect(pending).toEqual([]);
      now = timer.due + lateMs;
      timer.next();
      return timer.due;
    },
    pending,
  };
}

describe('the SSE tick loop: tick n is due at start + (n - 1) x interval', () => {
  it('sends tick 1 at once and schedules every later one against the start, not the last tick', () => {
    const clock = controlledClock(1_000);
    const sent: [number, number][] = [];
    let done = false;
    runTicks({
      count: 5,
      intervalMs: 1_000,
      tick: (n) => sent.push([n, clock.now()]),
      done: () => (done = true),
      later: clock.later,
      now: clock.now,
    });
    expect(sent).toEqual([[1, 1_000]]);
    // Every timer fires 300 ms late (a busy event loop): the schedule does not drift.
    const dues = [clock.fire(300), clock.fire(300), clock.fire(300), clock.fire(300)];
    expect(dues).toEqual([2_000, 3_000, 4_000, 5_000]);
    expect(sent).toEqual([
      [1, 1_000],
      [2, 2_300],
      [3, 3_300],
      [4, 4_300],
      [5, 5_300],
    ]);
    expect(done).toBe(true);
    expect(clock.pending).toEqual([]);
  });

  it('keeps the schedule over a long run with irregular lateness', () => {
    const clock = controlledClock(0);
    const late = [0, 950, 10, 400, 0, 999, 3, 700, 120];
    runTicks({ count: 10, intervalMs: 1_000, tick: () => {}, done: () => {}, later: clock.later, now: clock.now });
    const dues = late.map((lateMs) => clock.fire(lateMs));
    expect(dues).toEqual([1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000]);
  });

  it('one tick is done at once, with nothing scheduled', () => {
    const clock = controlledClock(0);
    const events: string[] = [];
    runTicks({
      count: 1,
      intervalMs: 100,
      tick: (n) => events.push(`tick ${n}`),
      done: () => events.push('done'),
      later: clock.later,
      now: clock.now,
    });
    expect(events).toEqual(['tick 1', 'done']);
    expect(clock.pending).toEqual([]);
  });
});

describe('the SSE tick loop on fake timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with setTimeout and performance.now faked, tick n lands at (n - 1) x interval after the start', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const start = performance.now();
    const at: number[] = [];
    let done = false;
    runTicks({
      count: 4,
      intervalMs: 1_000,
      tick: () => at.push(performance.now() - start),
      done: () => (done = true),
      later: (next, ms) => void setTimeout(next, ms),
    });
    expect(at).toEqual([0]);
    vi.advanceTimersByTime(999);
    expect(at).toEqual([0]);
    vi.advanceTimersByTime(1);
    expect(at).toEqual([0, 1_000]);
    vi.advanceTimersByTime(2_000);
    expect(at).toEqual([0, 1_000, 2_000, 3_000]);
    expect(done).toBe(true);
  });
});
