import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '@origin-lab/server-kit';
import { openConnections, pollUntil } from '@origin-lab/test-kit';
import { MemoryHoldings, type Held, type HoldingStore, type HoldKind } from '../../src/fair-share/holdings.js';
import { visitorLimits } from '../../src/fair-share/visitor-limits.js';

/**
 * Counts kept in memory, but each take answered only when the test says so: a shared store (Redis)
 * under load answers after a moment, and a client may have left by then.
 */
class SlowToTake implements HoldingStore {
  private readonly counts = new MemoryHoldings();
  private readonly waiting: (() => void)[] = [];

  take(token: string, kinds: readonly HoldKind[], limits: Held): Promise<HoldKind | null> {
    return new Promise((resolve) => this.waiting.push(() => resolve(this.counts.take(token, kinds, limits))));
  }

  release(token: string, kinds: readonly HoldKind[]): void {
    this.counts.release(token, kinds);
  }

  holding(token: string): Held {
    return this.counts.holding(token);
  }

  get pending(): number {
    return this.waiting.length;
  }

  /** Answers every take waiting: each is counted at once, as the store would. */
  answerAll(): void {
    for (const answer of this.waiting.splice(0)) answer();
  }
}

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop(500)));
});

describe('a fair share taken from a store that answers later', () => {
  it('is given back when the client left before the store answered', async () => {
    const store = new SlowToTake();
    const app = new Koa();
    app.use(
      visitorLimits(
        { inFlight: 4, streams: 4, slow: 4 },
        {
          settings: { inFlight: 'VISITOR_MAX_IN_FLIGHT', streams: 'VISITOR_MAX_STREAMS', slow: 'VISITOR_MAX_SLOW' },
          store,
        },
      ),
    );
    app.use((ctx) => {
      ctx.body = 'answered';
    });
    const server = await serve(app.callback(), { port: 0, host: '127.0.0.1' });
    running.push(server);
    const visitor = 'slow-take-visitor-0001';

    const leaving = new AbortController();
    const request = fetch(`http://127.0.0.1:${server.port}/?visitor=${visitor}`, { signal: leaving.signal }).catch(
      () => 'left',
    );
    await pollUntil('the take to reach the store', () => store.pending === 1, { timeoutMs: 5_000 });
    leaving.abort();
    expect(await request).toBe('left');
    // The server has seen the client go before the store answers.
    await pollUntil('the server to see the client gone', () => openConnections(server.server), {
      timeoutMs: 5_000,
      done: (n) => n === 0,
    });
    store.answerAll();
    await pollUntil('the share given back', () => store.holding(visitor).inFlight, {
      timeoutMs: 5_000,
      done: (inFlight) => inFlight === 0,
    });
  });
});
