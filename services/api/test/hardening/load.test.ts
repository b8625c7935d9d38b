import { describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { seededRandom } from '../../src/flaky/seeded-random.js';
import { SEED, hardenedApiForFile } from './harness.js';
import { pick, type Random } from './fuzz-requests.js';
import { processState } from './process-state.js';

/** Length of the mixed-load run; LOAD_SECONDS changes it (the issue asks for at least 30). */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 30);
const CLIENTS = 24;
/**
 * The warm-up: at least 5 s and 5,000 requests (at most 60 s), so that the JIT and every bounded
 * store (posts, the proxy cache, the journals) are full before the baseline is taken. A time alone
 * gave a slower machine too few requests: its live heap was still filling during the measured
 * run (29 MiB after the warm-up, 33 MiB 15 s in), and the flat-memory check read that as growth.
 */
const WARM_UP = { seconds: 5, requests: 5_000, atMostSeconds: 60 };

interface Outcome {
  ok: boolean;
  what: string;
}

type Call = (base: string, random: Random, dispatcher: Agent) => Promise<Outcome>;

async function exchange(
  url: string,
  init: RequestInit & { dispatcher: Agent },
  expected: (status: number, text: string) => boolean,
  what: string,
): Promise<Outcome> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) } as RequestInit);
  const text = await res.text();
  const ok = expected(res.status, text) && /Origin/.test(res.headers.get('vary') ?? '');
  return { ok, what: ok ? what : `${what}: ${res.status} ${text.slice(0, 120)}` };
}

const origin = { Origin: 'http://allowed.example' };
const json = (text: string) => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** The mix: what a class of students does to the api at once. Weights by repetition. */
const CALLS: Call[] = [
  (base, random, dispatcher) =>
    exchange(
      `${base}/api/echo?n=${Math.floor(random() * 1e6)}`,
      { headers: origin, dispatcher },
      (s, t) => s === 200 && json(t)?.bodyKind === 'none',
      'echo GET',
    ),
  (base, random, dispatcher) =>
    exchange(
      `${base}/api/echo?n=${Math.floor(random() * 1e6)}`,
      { headers: origin, dispatcher },
      (s) => s === 200,
      'echo GET',
    ),
  (base, random, dispatcher) =>
    exchange(
      `${base}/api/echo`,
      {
        method: 'POST',
        headers: { ...origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ r: random(), t: 'x'.repeat(150) }),
        dispatcher,
      },
      (s, t) => s === 200 && json(t)?.bodyKind === 'json',
      'echo POST',
    ),
  (base, _random, dispatcher) =>
    exchange(
      `${base}/api/posts`,
      { headers: origin, dispatcher },
      (s, t) => s === 200 && Array.isArray(json(t)?.posts),
      'posts GET',
    ),
  (base, random, dispatcher) => {
    const form = new FormData();
    form.set('title', `Load ${Math.floor(random() * 1e6)}`);
    form.set('author', 'Load test');
    form.set('tags', 'load');
    return exchange(
      `${base}/api/posts`,
      { method: 'POST', headers: origin, body: form, dispatcher },
      (s) => s === 201,
      'posts POST',
    );
  },
  (base, random, dispatcher) => {
    const count = 1 + Math.floor(random() * 5);
    return exchange(
      `${base}/api/stream?count=${count}`,
      { headers: origin, dispatcher },
      (s, t) => s === 200 && t.split('event: tick').length - 1 === count && t.endsWith('event: done\ndata: {}\n\n'),
      'stream',
    );
  },
  (base, _random, dispatcher) =>
    exchange(
      `${base}/api/flaky`,
      { headers: origin, dispatcher },
      (s, t) =>
        (s === 200 && json(t)?.ok === true) ||
        (s === 500 && typeof json(t)?.error === 'string' && json(t)?.rate === 0.5),
      'flaky',
    ),
  (base, random, dispatcher) =>
    exchange(
      `${base}/api/slow?ms=${Math.floor(random() * 100)}`,
      { headers: origin, dispatcher },
      (s) => s === 200,
      'slow',
    ),
  (base, random, dispatcher) =>
    exchange(
      `${base}/api/upstream/${pick(random, ['posts', 'tags'])}?page=${1 + Math.floor(random() * 3)}`,
      { headers: origin, dispatcher },
      (s) => s === 200,
      'proxy',
    ),
  (base, random, dispatcher) =>
    exchange(
      `${base}/api/beacon`,
      { method: 'POST', body: JSON.stringify({ a: random(), b: 2, c: 3 }), headers: origin, dispatcher },
      (s, t) => s === 202 && t === '',
      'beacon',
    ),
];

const api = hardenedApiForFile(
  { streamIntervalMs: 50, flaky: { rate: 0.5, seed: SEED }, logRequests: true },
  { upstreamTimeoutMs: 5_000, keepLogs: 0 },
);

describe(`mixed load for ${SECONDS} s (${CLIENTS} clients, seed ${SEED})`, () => {
  it(
    'answers every request as expected and keeps memory flat',
    async () => {
      const dispatcher = new Agent({ connections: CLIENTS, keepAliveTimeout: 10_000 });
      const random = seededRandom(SEED);
      const unexpected: string[] = [];
      const counts = new Map<string, number>();
      const heapDuring: number[] = [];

      /** CLIENTS loops sending random calls from the mix until the time is up and at least requests were sent (never past atMostSeconds). */
      const runLoad = async (seconds: number, requests = 0, atMostSeconds = seconds) => {
        const started = Date.now();
        let sent = 0;
        const more = () =>
          Date.now() < started + atMostSeconds * 1_000 && (Date.now() < started + seconds * 1_000 || sent < requests);
        const client = async () => {
          while (more()) {
            sent++;
            const call = pick(random, CALLS);
            try {
              const outcome = await call(api.url, random, dispatcher);
              counts.set(outcome.what, (counts.get(outcome.what) ?? 0) + 1);
              if (!outcome.ok) unexpected.push(outcome.what);
            } catch (err) {
              unexpected.push(`network error: ${(err as Error).message} ${String((err as Error).cause ?? '')}`);
            }
          }
        };
        await Promise.all(Array.from({ length: CLIENTS }, client));
      };

      try {
        // Warm-up: the JIT, the post store, the proxy cache and the beacon journal fill to their bounds.
        await runLoad(WARM_UP.seconds, WARM_UP.requests, WARM_UP.atMostSeconds);
        const baseline = processState().heapUsed;
        const sampler = setInterval(() => heapDuring.push(processState().heapUsed), 5_000);
        try {
          await runLoad(SECONDS);
        } finally {
          clearInterval(sampler);
        }
        const after = processState().heapUsed;
        const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
        const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
        console.log(
          `load: ${total} requests; live heap ${mib(baseline)} MiB after warm-up, ${heapDuring.map(mib).join(', ')} during, ${mib(after)} after`,
        );

        expect(unexpected.slice(0, 10), `${unexpected.length} unexpected answers`).toEqual([]);
        expect(total).toBeGreaterThan(SECONDS * 50);
        // Flat memory: with the load stopped, the live heap is back within 2 MiB of where it was
        // after the warm-up (a leak of even 100 bytes per request would add several MiB).
        expect(after - baseline, `live heap grew ${mib(after - baseline)} MiB`).toBeLessThan(2 * 2 ** 20);
      } finally {
        await dispatcher.close();
      }
    },
    (WARM_UP.atMostSeconds + SECONDS + 60) * 1_000,
  );
});
