import type { ServerJournalEntry } from '@origin-lab/contract';
import { byId, h, marker, show, sleep } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { addCounter } from '../frame/strip.js';
import { attempt } from '../probes/attempt.js';
import { ExitBeacon, type SendReason } from '../probes/exit-beacon.js';
import { markedUrl, serverEvidence, type ServerEvidence } from '../probes/journal.js';
import {
  installTripRecorder,
  pendingTripExperiment,
  takeTrip,
  type Trip,
  type TripOptions,
} from '../probes/page-trip.js';
import { knownDifference, knownDifferenceOf } from '../rules/known-differences.js';
import { judgeTrip, type LifecycleEvent, type TripVerdict } from '../rules/page-lifecycle.js';

// The journal polls: this page leaves and comes back, and an open stream keeps Firefox from caching it.
const ctx = setupPage({ journalStream: false });
const box = ctx.experiments;

/** How long to look for a beacon that should arrive, and for one that should not. */
const ARRIVAL_WAIT_MS = 4_000;
const ABSENCE_WAIT_MS = 1_500;
/**
 * How long the previous visit's exit beacon is still looked for once the page has said it has not
 * arrived: a browser may send it late (WebKit through an HTTP/2 front, after two loads).
 */
const LATE_EXIT_WAIT_MS = 30_000;
/** How often it asks then: a class on this page asks the server a few times, not hundreds. */
const LATE_EXIT_POLL_MS = 2_000;

// ---- The page's own exit beacon ------------------------------------------------------------
const LOG_KEY = 'origin-lab:beacon-log';
const sentCounter = addCounter('beacons', 'Exit beacons sent');
const dirtyCounter = addCounter('dirty', 'Dirty');
const payloadView = byId('beacon-payload');
const logView = byId('beacon-log');
const target = byId<HTMLSelectElement>('beacon-target');

/** ?exit=<reason> tells the exit beacons from the experiments' beacons in the journal. */
function beaconUrl(reason: SendReason): string {
  return `${target.value === 'other' ? ctx.other() : ctx.site.self}/api/beacon?exit=${reason}`;
}

/** An exit beacon in the journal (the experiments' beacons carry no ?exit=). */
const isExitBeacon = (entry: ServerJournalEntry) => entry.path === '/api/beacon' && entry.query.startsWith('exit=');

function readLog(): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(LOG_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

function appendLog(line: string): void {
  const log = [...readLog(), line].slice(-20);
  sessionStorage.setItem(LOG_KEY, JSON.stringify(log));
  renderLog();
}

function renderLog(): void {
  const log = readLog();
  logView.replaceChildren(...log.map((line) => h('li', {}, line)));
  sentCounter.set(log.filter((line) => line.includes('sendBeacon returned')).length);
}

const exit = new ExitBeacon((body: string, reason: SendReason) => {
  const url = beaconUrl(reason);
  // Printed before sending: the page may be gone a moment later.
  payloadView.textContent = body;
  const queued = navigator.sendBeacon(url, body);
  appendLog(`${new Date().toISOString()} ${reason}: ${body} to ${url}, sendBeacon returned ${queued}`);
  return queued;
});

const loadedAt = performance.now();
function refresh(): void {
  exit.setVisibleSeconds(Math.round((performance.now() - loadedAt) / 1000));
  payloadView.textContent = exit.body();
  byId('beacon-dirty').textContent = exit.isDirty
    ? '(changed since the last send)'
    : '(nothing new since the last send)';
  dirtyCounter.set(String(exit.isDirty));
}

document.addEventListener('click', () => {
  exit.click();
  refresh();
});
document.addEventListener('keydown', () => {
  exit.key();
  refresh();
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'hidden') return;
  refresh();
  if (exit.flush('visibilitychange:hidden') === null)
    appendLog(`${new Date().toISOString()} visibilitychange:hidden: nothing new, not sent`);
});
window.addEventListener('pagehide', () => {
  refresh();
  if (exit.flush('pagehide') === null) appendLog(`${new Date().toISOString()} pagehide: nothing new, not sent`);
});
renderLog();
refresh();

/**
 * A beacon sent on pagehide reaches the server after its page is gone; this load shows it, read
 * from the previous visit's journal (its token stays in this tab's sessionStorage).
 */
async function showPreviousExit(): Promise<void> {
  const view = byId('previous-exit');
  const previous = ctx.previousJournal;
  if (!previous) {
    view.textContent = 'This is your first visit to this page in this tab: leave it and come back to see one.';
    return;
  }
  // Said as it stands after a few seconds, and again if the beacon comes later.
  if ((await previous.waitFor(isExitBeacon, ARRIVAL_WAIT_MS)) === null) {
    showExits(view, []);
    await previous.waitFor(isExitBeacon, LATE_EXIT_WAIT_MS, LATE_EXIT_POLL_MS);
  }
  showExits(
    view,
    previous.items.filter((item) => isExitBeacon(item.entry)),
  );
}

/** The previous visit's exit beacons as the server saw them, or that there was none. */
function showExits(view: HTMLElement, exits: { entry: ServerJournalEntry }[]): void {
  view.replaceChildren(
    exits.length === 0
      ? 'Your previous visit sent no exit beacon (nothing had changed, or it has not arrived).'
      : h(
          'ul',
          {},
          ...exits.map(({ entry }) =>
            h(
              'li',
              { class: 'previous-exit' },
              `${entry.method} ${entry.path}?${entry.query} from ${entry.origin ?? 'no Origin'}, Content-Type ${entry.contentType ?? '(none)'}, ${entry.bytesIn} bytes, answered ${entry.status}`,
            ),
          ),
        ),
  );
}
void showPreviousExit();

const showJournal = async () => {
  const response = await fetch('/api/beacon', { cache: 'no-store' });
  byId('journal').textContent = JSON.stringify(await response.json(), null, 2);
};
byId('show-journal').addEventListener('click', (event) => {
  event.stopPropagation();
  void showJournal();
});

// ---- Experiments ---------------------------------------------------------------------------
runAllButton(box);

interface BeaconType {
  name: string;
  data: (mark: string) => BodyInit;
  contentType: string | null;
  preflights: boolean;
}

const bytesOf = (mark: string) => new TextEncoder().encode(mark);
const TYPES: BeaconType[] = [
  { name: 'string', data: (m) => m, contentType: 'text/plain;charset=UTF-8', preflights: false },
  {
    name: 'URLSearchParams',
    data: (m) => new URLSearchParams({ m }),
    contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
    preflights: false,
  },
  { name: 'FormData', data: (m) => formWith(m), contentType: 'multipart/form-data; boundary=', preflights: false },
  { name: 'ArrayBuffer', data: (m) => bytesOf(m).buffer, contentType: null, preflights: false },
  { name: 'Uint8Array', data: (m) => bytesOf(m), contentType: null, preflights: false },
  { name: 'Blob with no type', data: (m) => new Blob([m]), contentType: null, preflights: false },
  {
    name: 'Blob typed application/json',
    data: (m) => new Blob([JSON.stringify({ m })], { type: 'application/json' }),
    contentType: 'application/json',
    preflights: true,
  },
];

function formWith(mark: string): FormData {
  const form = new FormData();
  form.append('m', mark);
  return form;
}

/** What the journal shows of a preflight whose request never came. */
function preflightWords({ preflight }: ServerEvidence): string {
  if (!preflight) return 'no preflight reached the server either';
  const allowOrigin = preflight.cors?.['access-control-allow-origin'];
  return `its preflight was answered ${preflight.status} ${allowOrigin ? `allowing ${allowOrigin}` : 'with no CORS headers'}`;
}

const typeMatches = (predicted: string | null, actual: string | null) =>
  predicted === null
    ? actual === null
    : predicted.endsWith('=')
      ? (actual ?? '').startsWith(predicted)
      : actual === predicted;

experiment(box, {
  id: 'beacon-types',
  title: 'Each kind of beacon data: its Content-Type, and whether it preflights (to the other origin, ?cors=off)',
  predicted:
    'string text/plain;charset=UTF-8, URLSearchParams urlencoded;charset=UTF-8, FormData multipart with a boundary, ArrayBuffer / typed array / untyped Blob no Content-Type: none of these preflight, so they arrive even with ?cors=off. A Blob typed application/json preflights; with ?cors=off the preflight fails and it never arrives. sendBeacon returns true for all: queued is not delivered.',
  async run() {
    const rows: Record<string, { returned: boolean; arrived: boolean; contentType: string | null }> = {};
    const lines: string[] = [];
    let agrees = true;
    for (const type of TYPES) {
      const mark = marker('beacon');
      const returned = navigator.sendBeacon(markedUrl(`${ctx.other()}/api/beacon?cors=off`, mark), type.data(mark));
      const seen = await serverEvidence(ctx.journal, mark, type.preflights ? ABSENCE_WAIT_MS : ARRIVAL_WAIT_MS);
      const row = { returned, arrived: seen.request !== null, contentType: seen.request?.contentType ?? null };
      rows[type.name] = row;
      const ok =
        returned &&
        row.arrived === !type.preflights &&
        (!row.arrived || typeMatches(type.contentType, row.contentType));
      agrees &&= ok;
      lines.push(
        `${ok ? '\u2714' : '\u2718'} ${type.name}: returned ${returned}, ${row.arrived ? `arrived with Content-Type ${row.contentType ?? '(none)'}` : `never arrived (${preflightWords(seen)})`}`,
      );
    }
    return { observed: { rows }, summary: lines.join('\n'), agrees };
  },
});

experiment(box, {
  id: 'json-beacon-credentials',
  title: 'A JSON Blob beacon to the other origin: default CORS, then ?cors=credentials',
  predicted:
    'sendBeacon always includes credentials, so the preflight answer must carry Access-Control-Allow-Credentials: true. By default the service does not send it: the preflight fails and nothing arrives. With ?cors=credentials it does, and the beacon arrives as application/json.',
  async run() {
    const send = async (query: string, waitMs: number) => {
      const mark = marker('json-beacon');
      const returned = navigator.sendBeacon(
        markedUrl(`${ctx.other()}/api/beacon${query}`, mark),
        new Blob([JSON.stringify({ mark })], { type: 'application/json' }),
      );
      const seen = await serverEvidence(ctx.journal, mark, waitMs);
      return { returned, arrived: seen.request !== null, contentType: seen.request?.contentType ?? null };
    };
    const byDefault = await send('', ABSENCE_WAIT_MS);
    const withCredentials = await send('?cors=credentials', ARRIVAL_WAIT_MS);
    return {
      observed: { byDefault, withCredentials },
      summary: `default: returned ${byDefault.returned}, arrived ${byDefault.arrived}; cors=credentials: returned ${withCredentials.returned}, arrived ${withCredentials.arrived} (${withCredentials.contentType})`,
      agrees:
        byDefault.returned &&
        !byDefault.arrived &&
        withCredentials.arrived &&
        withCredentials.contentType === 'application/json',
    };
  },
});

const KIB = 1024;
const payloadOf = (kib: number) => 'x'.repeat(kib * KIB);

experiment(box, {
  id: 'keepalive-budget',
  title: 'The shared 64 KiB keepalive budget',
  predicted:
    'In one go: 60 KiB is queued (true), then 1 KiB more (61 KiB in flight, true), then 10 KiB more would make 71 KiB: false. Any single 70 KiB payload is refused: sendBeacon returns false, and fetch with keepalive rejects with TypeError.',
  async run() {
    const url = '/api/beacon';
    // Same task, so the first two are certainly still in flight when the third is tried.
    const first = navigator.sendBeacon(url, payloadOf(60));
    const second = navigator.sendBeacon(url, payloadOf(1));
    const third = navigator.sendBeacon(url, payloadOf(10));
    await sleep(1_000);
    const single70 = navigator.sendBeacon(url, payloadOf(70));
    const fetch70 = await attempt(() => fetch(url, { method: 'POST', keepalive: true, body: payloadOf(70) }));
    const observed = { first, second, third, single70, fetch70: fetch70.ok ? fetch70.value.status : fetch70.error };
    return {
      observed,
      summary: `60 KiB: ${first}; +1 KiB: ${second}; +10 KiB: ${third}; a single 70 KiB beacon: ${single70}; a 70 KiB keepalive fetch: ${show(observed.fetch70)}`,
      agrees: first && second && !third && !single70 && observed.fetch70 === 'TypeError',
      // Where an engine queues any size (Firefox ESR 153, measured): the listed difference.
      knownDifference: knownDifference(
        'beacons',
        'keepalive-budget',
        ctx.engine,
        first && second && third && single70 && observed.fetch70 === 'TypeError',
      ),
    };
  },
});

experiment(box, {
  id: 'keepalive-fetch',
  title: 'fetch with keepalive sees the 202; json() on its empty body fails',
  predicted:
    'Unlike sendBeacon, a keepalive fetch gets a Response while the page lives: status 202, an empty body. Calling json() on it rejects with SyntaxError (text() gives "").',
  async run() {
    const response = await fetch('/api/beacon', { method: 'POST', keepalive: true, body: exit.body() });
    const copy = response.clone();
    const parsed = await attempt(() => response.json());
    const text = await copy.text();
    const observed = { status: response.status, jsonError: parsed.ok ? null : parsed.error, text };
    return {
      observed,
      summary: `status ${response.status}; json(): ${parsed.ok ? 'parsed' : `rejected ${parsed.error}`}; text(): "${text}"`,
      agrees: response.status === 202 && observed.jsonError === 'SyntaxError' && text === '',
    };
  },
});

experiment(box, {
  id: 'beacon-refusals',
  title: 'sendBeacon throws for a URL that does not parse and for a scheme other than http or https',
  predicted:
    'sendBeacon parses the URL first: "http://[not-a-host/api/beacon" does not parse, and ftp: is not an http(s) scheme. Each call throws TypeError; it returns neither true nor false, and nothing reaches the server.',
  async run() {
    const mark = marker('beacon-refused');
    const tries = {
      unparsable: 'http://[not-a-host/api/beacon',
      ftp: markedUrl(`ftp://${location.host}/api/beacon`, mark),
    };
    const outcome = (url: string) => {
      try {
        return `returned ${String(navigator.sendBeacon(url, mark))}`;
      } catch (err) {
        return `threw ${(err as Error).name}`;
      }
    };
    const observed = { unparsable: outcome(tries.unparsable), ftp: outcome(tries.ftp) };
    const seen = await serverEvidence(ctx.journal, mark, ABSENCE_WAIT_MS);
    return {
      observed: { ...observed, arrived: seen.request !== null },
      summary: `unparsable URL: ${observed.unparsable}; ftp: ${observed.ftp}; ${seen.request ? 'something reached the server' : 'nothing reached the server'}`,
      agrees: observed.unparsable === 'threw TypeError' && observed.ftp === 'threw TypeError' && seen.request === null,
    };
  },
});

// ---- Leaving and coming back: the page lifecycle and the back/forward cache -----------------
installTripRecorder();
const LEAVES = 'it leaves this page and comes back';

/** The last trip drawn as two lanes: the document that left, and a new one if the browser loaded the page again. */
function drawTrip(title: string, events: readonly LifecycleEvent[], verdict: TripVerdict): void {
  const lane = (document: LifecycleEvent['document'], label: string) =>
    h(
      'li',
      { class: `trip-lane ${document}` },
      h('span', { class: 'trip-lane-label' }, label),
      h(
        'ol',
        { class: 'trip-events' },
        ...events
          .filter((e) => e.document === document)
          .map((e) =>
            h(
              'li',
              { class: `trip-event ${e.type}${e.persisted ? ' persisted' : ''}` },
              e.type,
              e.persisted === null ? '' : h('small', {}, ` persisted=${e.persisted}`),
              h('small', {}, ` ${e.visibility}`),
            ),
          ),
      ),
    );
  byId('trip-title').textContent =
    `${title}: ${verdict.restored ? 'restored from the back/forward cache' : 'loaded again'}`;
  byId('trip-lanes').replaceChildren(
    lane('left', 'The page that left'),
    ...(events.some((e) => e.document === 'new') ? [lane('new', 'The page loaded again')] : []),
  );
}

/** What the server saw while the page was away: the exit beacons in the journal of the page that left. */
async function exitBeaconsOf(verdict: TripVerdict): Promise<string[]> {
  const journal = verdict.restored ? ctx.journal : ctx.previousJournal;
  if (!journal) return [];
  await journal.waitFor(isExitBeacon, ABSENCE_WAIT_MS);
  return journal.items.filter((item) => isExitBeacon(item.entry)).map(({ entry }) => `${entry.method} ?${entry.query}`);
}

interface TripJudgement {
  agrees: boolean;
  knownDifference?: string | null;
}

function tripExperiment(spec: {
  id: string;
  title: string;
  predicted: string;
  options: TripOptions;
  judge: (verdict: TripVerdict, trip: Trip) => TripJudgement;
}): () => Promise<void> {
  return experiment(box, {
    id: spec.id,
    title: spec.title,
    predicted: spec.predicted,
    manual: LEAVES,
    async run() {
      const trip: Trip = await takeTrip(spec.id, {
        ...spec.options,
        settleBeforeLeaving: async () => {
          await Promise.all([ctx.journal.pause(), ctx.previousJournal?.pause()]);
        },
      });
      const verdict = judgeTrip(trip.events);
      drawTrip(spec.title, trip.events, verdict);
      byId(spec.id).scrollIntoView({ block: 'center' });
      const exitBeacons = await exitBeaconsOf(verdict);
      const reasons =
        trip.notRestoredReasons === null
          ? 'this engine does not say why'
          : trip.notRestoredReasons.join(', ') || 'none given';
      return {
        observed: {
          restored: verdict.restored,
          unloadRan: verdict.unloadRan,
          leaving: verdict.leaving,
          returning: verdict.returning,
          permissionsPolicy: trip.permissionsPolicy,
          notRestoredReasons: trip.notRestoredReasons,
          exitBeacons,
        },
        summary: [
          `Served with Permissions-Policy: ${trip.permissionsPolicy ?? '(none)'}.`,
          `Leaving: ${verdict.leaving.join(' \u2192 ')}.`,
          verdict.restored
            ? `Back from the back/forward cache: ${verdict.returning.join(' \u2192 ')}.`
            : `Not restored, loaded again (the engine's reasons: ${reasons}): ${verdict.returning.join(' \u2192 ')}.`,
          `The unload listener ${spec.options.unloadListener ? (verdict.unloadRan ? 'ran' : 'never ran') : 'was not there'}.`,
          `The server saw ${exitBeacons.length === 0 ? 'no exit beacon' : exitBeacons.join(', ')} from the page that left.`,
        ].join('\n'),
        ...spec.judge(verdict, trip),
      };
    },
  });
}

/** What this engine does differently, within the spec, as the list has it (rules/known-differences.ts). */
function engineNote(id: string): string {
  const listed = knownDifferenceOf('beacons', id, ctx.engine);
  return listed && !listed.departsFromSpec ? ` This browser (${ctx.engine}, measured): ${listed.says}.` : '';
}

const tripStarts: Record<string, () => Promise<void>> = {
  'lifecycle-unload': tripExperiment({
    id: 'lifecycle-unload',
    title: 'Leaving a page that listens for unload',
    predicted:
      'In this order: beforeunload; pagehide with persisted false while the page is still visible; visibilitychange to hidden; unload. An unload listener keeps the page out of the back/forward cache in some engines (chromium and firefox here), so going back loads it again: a new document with pageshow persisted false.' +
      engineNote('lifecycle-unload'),
    options: { unloadListener: true, unloadPolicy: false },
    judge: (v) => ({ agrees: v.inOrder && v.unloadRan === !v.restored }),
  }),
  'lifecycle-bfcache': tripExperiment({
    id: 'lifecycle-bfcache',
    title: 'Leaving a page with no unload listener: the back/forward cache',
    predicted:
      'beforeunload, then pagehide with persisted true and visibilitychange to hidden, and no unload: the page is kept whole. Going back restores it: pageshow with persisted true and visibilitychange to visible, and this very experiment, still running, reports it.',
    options: { unloadListener: false },
    judge: (v) => ({ agrees: v.inOrder && v.restored }),
  }),
  'lifecycle-unload-policy': tripExperiment({
    id: 'lifecycle-unload-policy',
    title: 'An unload listener under Permissions-Policy: unload=()',
    predicted:
      'The page is first reloaded with ?unload-policy=none, which has the server send Permissions-Policy: unload=(). Under it the unload listener is never called, so it no longer keeps the page out of the cache: pagehide persisted true, no unload, and going back restores the page.',
    options: { unloadListener: true, unloadPolicy: true },
    judge: (v, trip) => {
      const served = trip.permissionsPolicy === 'unload=()';
      return {
        agrees: served && v.inOrder && v.restored && !v.unloadRan,
        // Where the policy is not implemented (Firefox ESR 153, measured): the listed difference.
        knownDifference: knownDifference(
          'beacons',
          'lifecycle-unload-policy',
          ctx.engine,
          served && v.inOrder && !v.restored && v.unloadRan,
        ),
      };
    },
  }),
};

// A page loaded again after leaving (or reloaded under the policy) finishes the trip it was part of.
const pendingTrip = pendingTripExperiment();
if (pendingTrip) void tripStarts[pendingTrip]?.();
