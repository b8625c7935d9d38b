import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { waitAtLeast } from '../src/slow/slow.js';

/** Holds the thread for ms, to begin the next wait at a chosen point within a millisecond. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('/api/slow waits at least the ms asked', () => {
  it('never sooner, whatever point within a millisecond the wait begins at', async () => {
    // Node's timers count whole milliseconds from the event loop's clock, so a bare
    // setTimeout(r, 2) begun late in a millisecond can fire up to 1 ms early.
    const early: number[] = [];
    for (let i = 0; i < 300; i++) {
      busyFor((i % 10) / 10);
      const started = performance.now();
      await waitAtLeast(2, new EventEmitter());
      const waited = performance.now() - started;
      if (waited < 2) early.push(waited);
    }
    expect(early).toEqual([]);
  });

  it('stops waiting when the client leaves', async () => {
    const res = new EventEmitter();
    const waiting = waitAtLeast(60_000, res);
    res.emit('close');
    await expect(waiting).resolves.toBeUndefined();
    expect(res.listenerCount('close')).toBe(0);
  });
});
