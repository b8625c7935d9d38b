import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/flaky/seeded-random.js';
import { openConnections, pollUntil } from '@origin-lab/test-kit';
import { SEED, inParallel, startHardenedApi, type HardenedApi } from './harness.js';
import { processState, resourcesAbove } from './process-state.js';

/** Streams opened and dropped in one run; CHURN_STREAMS changes it. */
const STREAMS = Number(process.env.CHURN_STREAMS ?? 3_000);

type Ending = 'reset' | 'close' | 'complete';

/**
 * Opens one stream, reads until `ticks` tick records arrived (or the stream ends), then leaves
 * the way `ending` says: a reset (RST), an orderly close (FIN), or staying until the end.
 */
function churnOne(port: number, count: number, ticks: number, ending: Ending): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let seen = 0;
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`stream (count ${count}, leave after ${ticks}, ${ending}) made no progress within 10 s`));
    }, 10_000);
    socket.setEncoding('utf8');
    socket.on('connect', () =>
      socket.write(
        `GET /api/stream?count=${count} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://allowed.example\r\n\r\n`,
      ),
    );
    let left = false;
    socket.on('data', (chunk: string) => {
      // Leave once: a second resetAndDestroy() on a destroyed socket would throw.
      if (left) return;
      text += chunk;
      seen = text.split('event: tick').length - 1;
      if (ending === 'complete') {
        if (!text.includes('event: done')) return;
        left = true;
        socket.end();
      } else if (seen >= ticks) {
        left = true;
        if (ending === 'reset') socket.resetAndDestroy();
        else socket.end();
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

let api: HardenedApi;
beforeAll(async () => {
  // Request logging on (its close listener is part of what must not leak), lines discarded.
  api = await startHardenedApi({ streamIntervalMs: 10, logRequests: true }, 0);
});
afterAll(() => api?.stop());

describe(`stream churn: ${STREAMS} /api/stream connections dropped mid-stream (seed ${SEED})`, () => {
  it('leaves no timer, socket, open stream or heap behind', async () => {
    // Warm up, so lazily created objects are part of the baseline.
    await inParallel(Array.from({ length: 100 }), 20, () => churnOne(api.port, 3, 1, 'complete'));
    await pollUntil('warm-up connections to close', async () => (await openConnections(api.server)) === 0, {
      timeoutMs: 10_000,
    });
    const baseline = processState();

    const random = seededRandom(SEED);
    const plans = Array.from({ length: STREAMS }, () => {
      const roll = random();
      const ending: Ending = roll < 0.45 ? 'reset' : roll < 0.9 ? 'close' : 'complete';
      return {
        count: ending === 'complete' ? 1 + Math.floor(random() * 3) : 20 + Math.floor(random() * 100),
        ticks: 1 + Math.floor(random() * 3),
        ending,
      };
    });
    await inParallel(plans, 100, (plan) => churnOne(api.port, plan.count, plan.ticks, plan.ending));

    await pollUntil('the server to hold no connection', async () => (await openConnections(api.server)) === 0, {
      timeoutMs: 10_000,
    });
    // Nothing is left to end: every dropped stream removes itself (its response's close event may
    // come a tick after the server let go of the socket, so this waits a bounded while).
    await pollUntil('every stream to remove itself', () => api.app.openStreamCount() === 0, { timeoutMs: 5_000 });
    expect(api.app.endStreams()).toBe(0);
    let after = processState();
    await pollUntil(
      'timers and sockets back to the baseline',
      () => {
        after = processState();
        return Object.keys(resourcesAbove(baseline, after)).length === 0;
      },
      { timeoutMs: 10_000 },
    ).catch(() => {});
    expect(resourcesAbove(baseline, after)).toEqual({});
    console.log(`stream churn: heap ${baseline.heapUsed} -> ${after.heapUsed} bytes after ${STREAMS} streams`);
    // A stream that stayed reachable would cost kilobytes each (its context, socket and timer):
    // 3,000 of them would add megabytes. Measured without a leak: +0.5 to +1.2 MiB whatever the
    // count (compiled code and caches, once), more beside other test files: 2 MiB plus 256 bytes
    // per stream is the bound, well under the 9 MiB or more that a retained stream would cost.
    const growth = after.heapUsed - baseline.heapUsed;
    expect(growth, `heap grew by ${growth} bytes`).toBeLessThan(2 * 1024 * 1024 + STREAMS * 256);
  }, 90_000);
});
