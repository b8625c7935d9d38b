import type { StreamRecords } from '@origin-lab/contract';
import { byId, h, marker } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { addCounter } from '../frame/strip.js';
import {
  CLOSED,
  CONNECTING,
  StreamRecorder,
  TimerLateness,
  delaysPass,
  latenessInWords,
  reconnectsInWords,
  type Decision,
  type ReconnectTimer,
} from '../probes/stream-recorder.js';
import { expectedReconnectMs, sameFamilyDelay } from '@origin-lab/cors-rules/engine-facts';
import { markedUrl, serverEntries } from '../probes/journal.js';
import { tagUrl } from '../server-view/visitor.js';
import { knownDifference } from '../rules/known-differences.js';

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
  /** From the end of one connection to the start of the next (reconnectTimings). */
  reconnectDelaysMs: number[];
  /** Where the delays came from: the engine's resource timing, or the page's own events; null with none to time. */
  reconnectTimedBy: ReconnectTimer | null;
  /**
   * Per reconnect, how late the page itself ran: the end of the connection reaching its script
   * after the engine saw it (responseEnd to the error event), plus how late its own timer of the
   * expected delay ran (TimerLateness). Empty with no expected delay given.
   */
  pageLateMs: (number | null)[];
  opens: number;
  errors: number;
  dones: number;
  closedBecause: string | null;
  finalReadyState: number;
}

let current: EventSource | null = null;

/** How long to wait, once a stream is closed, for its last connection's resource timing entry. */
const TIMING_WAIT_MS = 1_000;

/**
 * The engine's own record of each connection of source (Resource Timing: every engine here
 * reports EventSource's requests, measured): stop() resolves with the delays from the end of one
 * connection (responseEnd) to the start of the next (startTime). That is the reconnect delay the
 * engine waited, without the time the new request then waits for a connection or a busy server,
 * which the open event would add (a class of pages over HTTP/1.1 shares six connections per
 * origin). With each delay, how long after that end the page saw the error that began the
 * reconnect (errorsAt, the page's clock). Null when the entries do not account for every
 * reconnect the page saw.
 */
function reconnectTimings(source: EventSource) {
  const entries: PerformanceResourceTiming[] = [];
  const take = (list: PerformanceEntryList) =>
    entries.push(...(list as PerformanceResourceTiming[]).filter((entry) => entry.name === source.url));
  const observer = 'PerformanceObserver' in window ? new PerformanceObserver((list) => take(list.getEntries())) : null;
  observer?.observe({ type: 'resource' });
  return {
    async stop(errorsAt: readonly number[]): Promise<{ delays: number[]; endLags: number[] } | null> {
      const reconnects = errorsAt.length;
      if (reconnects === 0) {
        observer?.disconnect();
        return { delays: [], endLags: [] };
      }
      const deadline = performance.now() + TIMING_WAIT_MS;
      while (entries.length < reconnects + 1 && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (observer) take(observer.takeRecords());
      }
      observer?.disconnect();
      if (entries.length < reconnects + 1) return null;
      entries.sort((a, b) => a.startTime - b.startTime);
      const ends = entries.slice(0, reconnects).map((entry) => entry.responseEnd);
      return {
        delays: entries.slice(1, reconnects + 1).map((entry, index) => Math.round(entry.startTime - ends[index]!)),
        endLags: errorsAt.map((at, index) => Math.max(0, Math.round(at - ends[index]!))),
      };
    },
  };
}

/**
 * How late the page ran at each of count reconnects (StreamReport.pageLateMs): the end of the
 * connection reaching its script late (endLags, with Resource Timing only: the events' delays
 * start at the error itself) plus its control timer's lateness.
 */
function pageLateness(count: number, endLags: readonly number[] | null, lateness: TimerLateness) {
  return Array.from({ length: count }, (_, index) => {
    const timerLate = lateness.lateMs[index] ?? null;
    return endLags ? endLags[index]! + (timerLate ?? 0) : timerLate;
  });
}

/**
 * Opens an EventSource and follows it until it is closed (by the page, or by the browser
 * giving up) or timeoutMs passes. Every record and state change goes to onLog. With expectedMs,
 * each error that will reconnect also starts the page's own timer of that delay (TimerLateness).
 */
function followStream(
  url: string,
  closeOnDone: boolean,
  timeoutMs: number,
  onLog: (line: string) => void,
  expectedMs: number | null = null,
): Promise<StreamReport> {
  current?.close();
  const recorder = new StreamRecorder({ closeOnDone, maxRestarts: 2 });
  const source = new EventSource(url);
  current = source;
  const timings = reconnectTimings(source);
  const lateness = new TimerLateness();
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
      const { runs, log, reconnectDelaysMs, reconnectErrorsAt, opens, errors, dones, closedBecause } = recorder;
      void timings.stop(reconnectErrorsAt).then((timed) => {
        lateness.stop();
        const timedBy: ReconnectTimer = timed ? 'resource timing' : 'events';
        const delays = timed?.delays ?? reconnectDelaysMs;
        log.push(reconnectsInWords(delays, timedBy, opens));
        const pageLateMs = expectedMs === null ? [] : pageLateness(delays.length, timed?.endLags ?? null, lateness);
        const late = latenessInWords(pageLateMs);
        if (late) log.push(late);
        resolve({
          runs,
          log,
          reconnectDelaysMs: delays,
          reconnectTimedBy: delays.length > 0 ? timedBy : null,
          pageLateMs,
          opens,
          errors,
          dones,
          closedBecause,
          finalReadyState: source.readyState,
        });
      });
    };
    source.addEventListener('open', () => finish(recorder.open(performance.now())));
    source.addEventListener('tick', (event) => {
      const { n, of } = JSON.parse((event as MessageEvent<string>).data) as StreamRecords['tick'];
      ticksCounter.add();
      finish(recorder.tick(n, of));
    });
    source.addEventListener('done', () => finish(recorder.done()));
    source.addEventListener('error', () => {
      const decision = recorder.error(source.readyState, performance.now());
      if (expectedMs !== null && decision === 'continue' && source.readyState === CONNECTING)
        lateness.start(expectedMs);
      finish(decision);
    });
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
          report.reconnectDelaysMs.length === 0 &&
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
  predicted: `After done the server ends the response; the page has not called close(), so: an error event with readyState 0, a reconnect after about ${reconnectMs ?? '3000 (chromium, webkit) or 5000 (firefox)'} ms (${ctx.engine}; chromium and webkit about 3000 ms, firefox about 5000 ms), and the run restarts at n=1 since no Last-Event-ID is sent. The page stops itself after two restarts by calling close() while connecting: readyState 2.`,
  async run() {
    const report = await followStream(`${ctx.site.self}/api/stream?count=2`, false, 40_000, () => {}, reconnectMs);
    // Two delays measured (an empty list is no measurement), each near the engine's default, as
    // measured or less the page's own lateness (a busy machine, a class).
    const delaysAgree =
      report.reconnectDelaysMs.length === 2 &&
      (reconnectMs === null ||
        delaysPass(report.reconnectDelaysMs, report.pageLateMs, (ms) => sameFamilyDelay(ms, reconnectMs)));
    return {
      observed: { ...report, engine: ctx.engine, expectedReconnectMs: reconnectMs },
      summary: report.log.join('\n'),
      agrees:
        sameRuns(report.runs, [
          [1, 2],
          [1, 2],
          [1, 2],
        ]) &&
        delaysAgree &&
        report.finalReadyState === CLOSED &&
        report.closedBecause === '2 restarts',
    };
  },
});

// ---- What id: and retry: would change (the stream lab, /lab/stream) ---------------------------

/** How long to look for a stream's requests in the journal once the page has its outcome. */
const JOURNAL_WAIT_MS = 3_000;
const LAB_RETRY_MS = 500;

/** A delay that retry: set: not shorter than asked, and well short of the engine's own default. */
const overridesDefault = (ms: number) => ms >= LAB_RETRY_MS * 0.75 && ms < (reconnectMs ?? 3_000) * 0.75;

experiment(box, {
  id: 'lab-retry',
  title: `retry: ${LAB_RETRY_MS} from the stream lab: the browser reconnects after it, not after its own default`,
  predicted: `A retry: field sets the reconnect delay in milliseconds. The lab sends retry: ${LAB_RETRY_MS} and ends each connection after one tick: the browser reconnects after about ${LAB_RETRY_MS} ms, not its default (${ctx.engine}: about ${reconnectMs ?? '3000 or 5000'} ms). With no id: the run restarts at n=1 each time; the page calls close() after two restarts.`,
  async run() {
    const mark = marker('lab-retry');
    const url = markedUrl(`${ctx.site.self}/lab/stream?of=3&per=1&retry=${LAB_RETRY_MS}`, mark);
    const report = await followStream(url, false, 20_000, () => {}, LAB_RETRY_MS);
    const entries = await serverEntries(ctx.journal, mark, 3, JOURNAL_WAIT_MS);
    return {
      observed: { ...report, requests: entries.length },
      summary: `${report.log.join('\n')}\nthe server saw ${entries.length} requests`,
      agrees:
        sameRuns(report.runs, [[1], [1], [1]]) &&
        report.reconnectDelaysMs.length === 2 &&
        delaysPass(report.reconnectDelaysMs, report.pageLateMs, overridesDefault) &&
        entries.length === 3 &&
        report.finalReadyState === CLOSED,
    };
  },
});

experiment(box, {
  id: 'lab-last-event-id',
  title: 'id: on every tick: the reconnect sends Last-Event-ID and the run resumes',
  predicted:
    'The lab numbers each tick with id: and ends the first connection after tick 2. On reconnect the browser sends Last-Event-ID: 2 (the server sees it), and the lab resumes at n=3: one run 1, 2, 3, 4, then done, where /api/stream (no id:) starts again at n=1.',
  async run() {
    const mark = marker('lab-id');
    const url = markedUrl(`${ctx.site.self}/lab/stream?of=4&per=2&id=on&retry=300`, mark);
    const report = await followStream(url, true, 20_000, () => {});
    const entries = await serverEntries(ctx.journal, mark, 2, JOURNAL_WAIT_MS);
    const sent = entries.map((entry) => entry.lastEventId);
    return {
      observed: { ...report, lastEventIdSent: sent },
      summary: `${report.log.join('\n')}\nthe server saw ${entries.length} requests, Last-Event-ID: ${sent.map((id) => id ?? '(none)').join(', then ')}`,
      agrees:
        sameRuns(report.runs, [[1, 2, 3, 4]]) &&
        report.dones === 1 &&
        report.reconnectDelaysMs.length === 1 &&
        sent.length === 2 &&
        sent[0] === null &&
        sent[1] === '2' &&
        report.finalReadyState === CLOSED,
    };
  },
});

experiment(box, {
  id: 'lab-reconnect-refused',
  title: 'A reconnect answered 204, or not as an event stream: the browser stops reconnecting',
  predicted:
    'After tick 2 the lab ends the connection: an error with readyState 0, and the browser reconnects. The reconnect is answered 204 (then, in a second run, 200 text/plain): one more error event and readyState 2. No further reconnect, though the page never calls close().',
  async run() {
    const once = async (answer: '204' | 'text') => {
      const mark = marker(`lab-refused-${answer}`);
      const url = markedUrl(`${ctx.site.self}/lab/stream?of=4&per=2&id=on&retry=300&reconnect=${answer}`, mark);
      const report = await followStream(url, false, 15_000, () => {});
      const entries = await serverEntries(ctx.journal, mark, 2, JOURNAL_WAIT_MS);
      return {
        ticks: report.runs.flat(),
        errors: report.errors,
        finalReadyState: report.finalReadyState,
        closedByPage: report.closedBecause,
        statuses: entries.map((entry) => entry.status),
        log: report.log,
      };
    };
    const noContent = await once('204');
    const notAStream = await once('text');
    const stopped = (r: typeof noContent) =>
      JSON.stringify(r.ticks) === '[1,2]' &&
      r.errors === 2 &&
      r.finalReadyState === CLOSED &&
      r.closedByPage === null &&
      r.statuses.length === 2;
    return {
      observed: { noContent, notAStream },
      summary: `204: ${noContent.log.join(', ')}; the server answered ${noContent.statuses.join(', ')}\ntext/plain: ${notAStream.log.join(', ')}; the server answered ${notAStream.statuses.join(', ')}`,
      agrees:
        stopped(noContent) && stopped(notAStream) && noContent.statuses[1] === 204 && notAStream.statuses[1] === 200,
    };
  },
});

// ---- No WebSocket route ----------------------------------------------------------------------

/** The outcome of one WebSocket attempt: what the constructor did, then the events until close. */
interface SocketOutcome {
  thrown: string | null;
  events: string[];
  closeCode: number | null;
  wasClean: boolean | null;
}

function tryWebSocket(url: string, timeoutMs: number): Promise<SocketOutcome> {
  let socket: WebSocket;
  try {
    socket = new WebSocket(url);
  } catch (err) {
    return Promise.resolve({ thrown: (err as Error).name, events: [], closeCode: null, wasClean: null });
  }
  return new Promise((resolve) => {
    const events: string[] = [];
    const timer = setTimeout(() => {
      socket.close();
      resolve({
        thrown: null,
        events: [...events, `no close within ${timeoutMs} ms`],
        closeCode: null,
        wasClean: null,
      });
    }, timeoutMs);
    socket.addEventListener('open', () => events.push('open'));
    socket.addEventListener('error', () => events.push('error'));
    socket.addEventListener('close', (event) => {
      clearTimeout(timer);
      events.push('close');
      resolve({ thrown: null, events, closeCode: event.code, wasClean: event.wasClean });
    });
  });
}

/** A ws: or wss: URL for path on origin, carrying this visitor's token so the journal files it. */
const socketUrl = (origin: string, path: string, mark: string, scheme: 'ws' | 'wss') =>
  tagUrl(markedUrl(`${origin}${path}`, mark), [origin]).replace(/^https?:/, `${scheme}:`);

experiment(box, {
  id: 'no-websocket',
  title: 'new WebSocket() to the service: there is no WebSocket route',
  predicted:
    'The handshake is a GET with Upgrade: websocket. Nothing on the service upgrades a connection, so it is answered as plain HTTP, never 101: the page gets an error event, then close with code 1006 and wasClean false. From a page over HTTPS a ws: URL cannot be opened: today\u2019s engines no longer throw SecurityError, the connection fails at once (error, close 1006) and nothing reaches the service.',
  async run() {
    const secure = location.protocol === 'https:';
    const mark = marker('websocket');
    const attempt = await tryWebSocket(socketUrl(ctx.site.self, '/api/echo', mark, secure ? 'wss' : 'ws'), 10_000);
    const [handshake] = await serverEntries(ctx.journal, mark, 1, JOURNAL_WAIT_MS);
    let insecure: (SocketOutcome & { arrived: boolean }) | null = null;
    if (secure) {
      const insecureMark = marker('websocket-ws');
      const outcome = await tryWebSocket(socketUrl(ctx.site.self, '/api/echo', insecureMark, 'ws'), 5_000);
      insecure = { ...outcome, arrived: (await serverEntries(ctx.journal, insecureMark, 1, 1_000)).length > 0 };
    }
    const observed = {
      attempt,
      serverSaw: handshake ? { method: handshake.method, upgrade: handshake.upgrade, status: handshake.status } : null,
      insecure,
    };
    // Refused either way the standard has said: a SecurityError from the constructor (older), or a
    // connection that fails without opening (today). The ws: URL names the TLS port, so the
    // service could not answer it even if it were sent: "arrived" is shown, not judged.
    const refusedLocally =
      insecure === null ||
      insecure.thrown === 'SecurityError' ||
      (!insecure.events.includes('open') && insecure.closeCode === 1006);
    // Never opened and never closed (an error event or none) before the page gave up on it.
    const leftPending =
      insecure !== null &&
      insecure.thrown === null &&
      insecure.closeCode === null &&
      !insecure.events.includes('open') &&
      !insecure.arrived;
    const handshakeRefused =
      attempt.thrown === null &&
      !attempt.events.includes('open') &&
      attempt.events.includes('error') &&
      attempt.closeCode === 1006 &&
      attempt.wasClean === false &&
      handshake?.method === 'GET' &&
      handshake.upgrade?.toLowerCase() === 'websocket' &&
      handshake.status !== 101;
    return {
      observed,
      summary: `${secure ? 'wss:' : 'ws:'} ${attempt.thrown ? `threw ${attempt.thrown}` : `${attempt.events.join(', ')}; code ${attempt.closeCode}, wasClean ${attempt.wasClean}`}; the server saw ${handshake ? `${handshake.method} with Upgrade: ${handshake.upgrade}, answered ${handshake.status}` : 'nothing'}${insecure ? `\nws: from this https page: ${insecure.thrown ? `threw ${insecure.thrown}` : insecure.events.join(', ')}; ${insecure.arrived ? 'it reached the server' : 'nothing reached the server'}` : ''}`,
      agrees: handshakeRefused && refusedLocally,
      knownDifference: knownDifference('events', 'no-websocket', ctx.engine, handshakeRefused && leftPending),
    };
  },
});
