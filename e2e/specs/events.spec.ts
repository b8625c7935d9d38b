import { EVERY_ENGINE, test, expect } from '../fixtures.js';
import type { ExperimentResult } from '../engines/experiments.js';
import { experimentTests } from './support/per-experiment.js';

/** The events page's experiments that share one page, each through its own Run button, with its own bound. */
const SHARED_RUN: [id: string, timeout: number][] = [
  ['close-on-done-self', 30_000],
  ['close-on-done-other', 30_000],
  ['failed-opening', 30_000],
  ['lab-retry', 30_000],
  ['lab-last-event-id', 30_000],
  ['lab-reconnect-refused', 40_000],
  ['no-websocket', 30_000],
];

/** count=2, calling close() on done: one run 1, 2, then done; no error, no reconnect. */
const closesOnDone = ({ observed }: ExperimentResult) => {
  expect(observed.runs).toEqual([[1, 2]]);
  expect(observed).toMatchObject({
    opens: 1,
    errors: 0,
    dones: 1,
    finalReadyState: 2,
    closedBecause: 'done arrived',
    // No reconnect: no delay measured, and nothing claims to have timed one.
    reconnectDelaysMs: [],
    reconnectTimedBy: null,
  });
};

/** The experiments whose streams end without reconnecting: closed on done, never opened, or a reconnect refused. */
const NO_RECONNECT = ['close-on-done-self', 'close-on-done-other', 'failed-opening', 'lab-reconnect-refused'];
/** Those whose streams reconnect: each delay is measured. */
const RECONNECTS = ['lab-retry', 'lab-last-event-id'];

// SPEC.md, server-sent events (and no WebSocket route): one expectation per experiment, written from the spec.
experimentTests({
  page: 'events',
  runTimeout: SHARED_RUN.reduce((sum, [, timeout]) => sum + timeout, 0),
  async run(page, { origins }) {
    await page.open(`${origins.self}/events.html`);
    const results: Record<string, ExperimentResult> = {};
    const summaries: Record<string, string> = {};
    for (const [id, timeout] of SHARED_RUN) {
      results[id] = await page.runExperiment(id, timeout);
      summaries[id] = (await page.text(`section#${id} output.observed`)) ?? '';
    }
    return { results, summaries };
  },
  afterRun: {
    'close-on-done-self': closesOnDone,
    'close-on-done-other': closesOnDone,
    // Openings that fail (?cors=off from the other origin, and a 404): one error, closed at once, no retry.
    'failed-opening': ({ observed: failed }) => {
      for (const observed of [failed.corsOff, failed.notFound]) {
        expect(observed).toEqual({ opens: 0, errors: 1, ticks: 0, finalReadyState: 2, closedBecause: null });
      }
    },

    // The stream lab: retry: sets the reconnect delay.
    'lab-retry': ({ observed }, { browserName }) => {
      expect(observed.runs).toEqual([[1], [1], [1]]);
      expect(observed.requests).toBe(3);
      expect(observed.reconnectDelaysMs).toHaveLength(2);
      expect(observed.reconnectTimedBy).toBe('resource timing');
      expect(observed.pageLateMs).toEqual([expect.any(Number), expect.any(Number)]);
      // Coarse: below the engine's own default (about 3 s in Chromium, about 5 s in Firefox).
      for (const ms of observed.reconnectDelaysMs as number[])
        expect(ms).toBeLessThan(browserName === 'firefox' ? 3_500 : 1_800);
    },
    // id: resumes with Last-Event-ID.
    'lab-last-event-id': ({ observed }) => {
      expect(observed.runs).toEqual([[1, 2, 3, 4]]);
      expect(observed.lastEventIdSent).toEqual([null, '2']);
      expect(observed).toMatchObject({ dones: 1, finalReadyState: 2, closedBecause: 'done arrived' });
    },
    // A refused reconnect (204, or not an event stream) stops it.
    'lab-reconnect-refused': ({ observed }) => {
      const stopped = { ticks: [1, 2], errors: 2, finalReadyState: 2, closedByPage: null };
      expect(observed.noContent).toMatchObject({ ...stopped, statuses: [200, 204] });
      expect(observed.notAStream).toMatchObject({ ...stopped, statuses: [200, 200] });
    },

    // There is no WebSocket route: the handshake fails with 1006, and the server saw a GET with Upgrade, never 101.
    'no-websocket': ({ observed }, { origins, browserName }) => {
      expect(observed.attempt).toMatchObject({ thrown: null, closeCode: 1006, wasClean: false });
      expect(observed.attempt.events).toContain('error');
      expect(observed.attempt.events).not.toContain('open');
      expect(observed.serverSaw).toMatchObject({ method: 'GET', upgrade: 'websocket' });
      expect(observed.serverSaw.status).not.toBe(101);
      // From a page over HTTPS the browser refuses ws: itself; over plain HTTP there is nothing to refuse.
      if (!origins.self.startsWith('https:')) expect(observed.insecure).toBeNull();
      else if (browserName === 'webkit') {
        // Measured (WebKit (GTK) 2.50.6): an error event, then no close, and nothing reaches the
        // service: a known difference, the page says so.
        expect(observed.insecure).toMatchObject({ thrown: null, closeCode: null, wasClean: null, arrived: false });
        expect(observed.insecure.events).toEqual(['error', 'no close within 5000 ms']);
      }
      // Measured (Chromium 156, Firefox ESR 153): no SecurityError any more; the connection fails at once.
      else expect(observed.insecure).toMatchObject({ thrown: null, closeCode: 1006, wasClean: false });
    },
  },
  wholeRun: {
    // What the page says of reconnects is what it measured: "did not reconnect", never a delay without a number.
    'a stream that did not reconnect says so, and one that did names each delay': ({ run }) => {
      for (const id of NO_RECONNECT) {
        expect(run.summaries[id], id).toContain('did not reconnect');
        expect(run.summaries[id], id).not.toMatch(/reconnected after/);
      }
      for (const id of RECONNECTS) {
        expect(run.summaries[id], id).toMatch(/reconnected after \d+ ms/);
        expect(run.summaries[id], id).not.toContain('did not reconnect');
      }
    },
  },
  knownDifferences: {
    'no-websocket': (_, { origins, browserName }) => browserName === 'webkit' && origins.self.startsWith('https:'),
  },
  alone: {
    // Without close() the browser reconnects and the run restarts at n=1. Alone on its page: the
    // server view it checks counts every /api/stream request of the page.
    'no-close': async ({ page, origins, browserName }) => {
      await page.open(`${origins.self}/events.html`);
      const { state, observed } = await page.runExperiment('no-close', 45_000);
      expect(observed.runs).toEqual([
        [1, 2],
        [1, 2],
        [1, 2],
      ]);
      expect(observed.dones).toBe(3);
      expect(observed.closedBecause).toBe('2 restarts');
      expect(observed.finalReadyState).toBe(2);
      expect(observed.reconnectDelaysMs).toHaveLength(2);
      // Timed by the engine itself: every engine here reports EventSource's requests in Resource Timing.
      expect(observed.reconnectTimedBy).toBe('resource timing');
      // How late the page itself ran at each reconnect: measured each time, never negative.
      expect(observed.pageLateMs).toEqual([expect.any(Number), expect.any(Number)]);
      for (const ms of observed.pageLateMs as number[]) expect(ms).toBeGreaterThanOrEqual(0);
      // Only a coarse engine-family check: about 3 s in Chromium and WebKit, about 5 s in Firefox.
      const family = browserName === 'firefox' ? [3_500, 8_000] : [1_800, 4_500];
      for (const ms of observed.reconnectDelaysMs as number[]) {
        expect(ms).toBeGreaterThan(family[0]!);
        expect(ms).toBeLessThan(family[1]!);
      }
      expect(state).toBe('agree');

      // What the server saw: three requests for the stream, two of them reconnects the page's script never made.
      await page.waitFor(
        () =>
          Array.from(document.querySelectorAll('#server-view table.server-view tbody tr')).filter((row) =>
            row.textContent?.includes('/api/stream'),
          ).length >= 3,
        15_000,
        'three /api/stream rows in the server view',
      );
      const streamRows = await page.evaluate(() =>
        Array.from(
          document.querySelectorAll('#server-view table.server-view tbody tr'),
          (row) => row.textContent ?? '',
        ).filter((text) => text.includes('/api/stream')),
      );
      expect(streamRows).toHaveLength(3);
      expect(streamRows[0]).toContain('no: EventSource');
      expect(streamRows[0]).not.toContain('reconnect');
      for (const n of [1, 2]) expect(streamRows[n]).toContain('no: EventSource reconnect');
    },
  },
});

test(
  'the live controls show readyState as it changes',
  { tag: EVERY_ENGINE },
  async ({ enginePage: page, origins }) => {
    await page.open(`${origins.self}/events.html`);
    expect(await page.evaluate(() => (document.getElementById('stream-count') as HTMLInputElement).value)).toBe('2');
    await page.select('#stream-origin', 'other');
    await page.click('#stream-form button[type="submit"]');
    await page.waitFor(
      () => document.getElementById('stream-log')?.textContent?.includes('tick 2 of 2') ?? false,
      15_000,
      'tick 2 of 2 in the stream log',
    );
    await page.waitFor(
      () => document.getElementById('ready-state')?.textContent === '2 CLOSED (so far: 0 \u2192 1 \u2192 2)',
      15_000,
      'readyState 2 CLOSED, after 0 and 1',
    );
    await page.waitFor(
      () =>
        document
          .querySelector('#stream-log li:last-child')
          ?.textContent?.includes('page calls close(): done arrived') ?? false,
      15_000,
      'the log ending with the page calling close() on done',
    );
  },
);
