import type { StreamRecords } from '@origin-lab/contract';
import { byId, h } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../frame/page.js';
import { addCounter } from '../frame/strip.js';
import { CLOSED, StreamRecorder, type Decision } from '../probes/stream-recorder.js';
import { expectedReconnectMs, sameFamilyDelay } from '../rules/engine.js';

const ctx = setupPage();
const box = ctx.experiments;
const ticksCounter = addCounter('ticks', 'Ticks received');
const restartsCounter = addCounter('restarts', 'Restarts');
const readyView = byId('ready-state');
const READY_NAMES = ['0 CONNECTING', '1 OPEN', '2 CLOSED'];
const reconnectMs = expectedReconnectMs(ctx.engine);

interface StreamReport {
  runs: number[][];
  log: string[];
  reconnectDelaysMs: number[];
  opens: number;
  errors: number;
  dones: number;
  closedBecause: string | null;
  finalReadyState: number;
}

let current: EventSource | null = null;

/**
 * Opens an EventSource and follows it until it is closed (by the page, or by the browser
 * giving up) or timeoutMs passes. Every record and state change goes to onLog.
 */
function followStream(
  url: string,
  closeOnDone: boolean,
  timeoutMs: number,
  onLog: (line: string) => void,
): Promise<StreamReport> {
  current?.close();
  const recorder = new StreamRecorder({ closeOnDone, maxRestarts: 2 });
  const source = new EventSource(url);
  current = source;
  return new Promise((resolve) => {
    let logged = 0;
    // Every state seen, so a short-lived one (OPEN lasts about a second) stays on screen.
    const seen: number[] = [];
    const showState = () => {
      if (seen[seen.length - 1] !== source.readyState) seen.push(source.readyState);
      readyView.textContent = `${READY_NAMES[source.readyState] ?? source.readyState} (so far: ${seen.join(' \u2192 ')})`;
      while (logged < recorder.log.length) onLog(`${READY_NAMES[source.readyState]}: ${recorder.log[logged++]}`);
      restartsCounter.set(recorder.restarts);
    };
    const poll = setInterval(showState, 100);
    const timer = setTimeout(() => finish(recorder.close(`no end within ${timeoutMs} ms`)), timeoutMs);
    const finish = (decision: Decision) => {
      if (decision === 'close') source.close();
      showState();
      if (source.readyState !== CLOSED) return;
      clearInterval(poll);
      clearTimeout(timer);
      const { runs, log, reconnectDelaysMs, opens, errors, dones, closedBecause } = recorder;
      resolve({
        runs,
        log,
        reconnectDelaysMs,
        opens,
        errors,
        dones,
        closedBecause,
        finalReadyState: source.readyState,
      });
    };
    source.addEventListener('open', () => finish(recorder.open(performance.now())));
    source.addEventListener('tick', (event) => {
      const { n, of } = JSON.parse((event as MessageEvent<string>).data) as StreamRecords['tick'];
      ticksCounter.add();
      finish(recorder.tick(n, of));
    });
    source.addEventListener('done', () => finish(recorder.done()));
    source.addEventListener('error', () => finish(recorder.error(source.readyState, performance.now())));
    showState();
  });
}

// ---- Live controls -------------------------------------------------------------------------
const logView = byId('stream-log');
byId('stream-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const origin = byId<HTMLSelectElement>('stream-origin').value === 'other' ? ctx.other() : ctx.site.self;
  const count = Math.min(10, Math.max(1, Number(byId<HTMLInputElement>('stream-count').value) || 3));
  logView.replaceChildren();
  void followStream(
    `${origin}/api/stream?count=${count}`,
    byId<HTMLInputElement>('stream-close').checked,
    60_000,
    (line) => logView.append(h('li', {}, line)),
  );
});
byId('stream-stop').addEventListener('click', () => {
  current?.close();
  readyView.textContent = `${READY_NAMES[current?.readyState ?? CLOSED]} (the page called close())`;
});

// ---- Experiments ---------------------------------------------------------------------------
runAllButton(box);

const sameRuns = (a: number[][], b: number[][]) => JSON.stringify(a) === JSON.stringify(b);

for (const [id, role] of [
  ['close-on-done-self', 'this origin'],
  ['close-on-done-other', 'the other origin'],
] as const) {
  experiment(box, {
    id,
    title: `count=2 on ${role}, calling close() on done`,
    predicted:
      'readyState goes 0 \u2192 1 on open; ticks n=1 and n=2 of 2 about a second apart, then done; the page calls close(): readyState 2, no error and no reconnect.' +
      (role === 'the other origin'
        ? ' Cross-origin the stream obeys the same CORS rules: the service allows this origin, so it reads normally.'
        : ''),
    async run() {
      const origin = role === 'this origin' ? ctx.site.self : ctx.other();
      const report = await followStream(`${origin}/api/stream?count=2`, true, 15_000, () => {});
      return {
        observed: { ...report },
        summary: report.log.join('\n'),
        agrees:
          sameRuns(report.runs, [[1, 2]]) &&
          report.dones === 1 &&
          report.errors === 0 &&
          report.opens === 1 &&
          report.finalReadyState === CLOSED,
      };
    },
  });
}

experiment(box, {
  id: 'failed-opening',
  title: 'Openings that fail: ?cors=off from the other origin, and a 404',
  predicted:
    'The opening response is unusable (not readable cross-origin; or not 200 / not text/event-stream): one error event, readyState 2 at once, no retry.',
  async run() {
    const blocked = await followStream(`${ctx.other()}/api/stream?count=2&cors=off`, true, 10_000, () => {});
    const missing = await followStream(`${ctx.site.self}/api/no-such-stream`, true, 10_000, () => {});
    const brief = (r: StreamReport) => ({
      opens: r.opens,
      errors: r.errors,
      ticks: r.runs.flat().length,
      finalReadyState: r.finalReadyState,
      closedBecause: r.closedBecause,
    });
    const observed = { corsOff: brief(blocked), notFound: brief(missing) };
    const failedOnce = (r: ReturnType<typeof brief>) =>
      r.opens === 0 && r.errors === 1 && r.ticks === 0 && r.finalReadyState === CLOSED && r.closedBecause === null;
    return {
      observed,
      summary: `cors=off: ${blocked.log.join(', ')}\n404: ${missing.log.join(', ')}`,
      agrees: failedOnce(observed.corsOff) && failedOnce(observed.notFound),
    };
  },
});

experiment(box, {
  id: 'no-close',
  title: 'count=2 without close() on done: the browser reconnects',
  predicted: `After done the server ends the response; the page has not called close(), so: an error event with readyState 0, a reconnect after about ${reconnectMs ?? '3000 (chromium) or 5000 (firefox)'} ms (${ctx.engine}; chromium about 3000 ms, firefox about 5000 ms), and the run restarts at n=1 since no Last-Event-ID is sent. The page stops itself after two restarts by calling close() while connecting: readyState 2.`,
  async run() {
    const report = await followStream(`${ctx.site.self}/api/stream?count=2`, false, 40_000, () => {});
    const delaysAgree =
      reconnectMs === null || report.reconnectDelaysMs.every((ms) => sameFamilyDelay(ms, reconnectMs));
    return {
      observed: { ...report, engine: ctx.engine, expectedReconnectMs: reconnectMs },
      summary: `${report.log.join('\n')}\nmeasured reconnect delays: ${report.reconnectDelaysMs.join(' ms, ')} ms`,
      agrees:
        sameRuns(report.runs, [
          [1, 2],
          [1, 2],
          [1, 2],
        ]) &&
        report.reconnectDelaysMs.length === 2 &&
        delaysAgree &&
        report.finalReadyState === CLOSED &&
        report.closedBecause === '2 restarts',
    };
  },
});
