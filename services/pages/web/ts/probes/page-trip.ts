import type { LifecycleEvent, LifecycleEventType } from '../rules/page-lifecycle.js';
import { visitorToken } from '../server-view/visitor.js';

/**
 * A trip away from the page and back (history.back() from /away.html), recording each
 * lifecycle event as it fires into sessionStorage: it survives the page being unloaded, so the
 * document that comes back, restored from the back/forward cache or loaded again, can show them.
 */

/** Where the trip under way is kept in sessionStorage (the e2e suite reads it when a trip never ends). */
export const TRIP_KEY = 'origin-lab:page-trip';
/** Where the page steps to; that page goes back by itself while a trip is under way. */
export const AWAY_PATH = '/away.html';
/** A trip not back within this long is forgotten (the visitor went somewhere else). */
const TRIP_LIMIT_MS = 60_000;
/** How long the page may take to start leaving once asked. */
const LEAVE_LIMIT_MS = 10_000;
/** After a restoring pageshow, how long to wait for the visibilitychange that may follow it. */
const SETTLE_MS = 1_000;
/** The query that has the pages server send Permissions-Policy: unload=() (services/pages/src/unload-policy.ts). */
const POLICY_PARAM = 'unload-policy';

interface StoredEvent extends Omit<LifecycleEvent, 'document'> {
  /** The document that fired it, by its page load's visitor token. */
  documentId: string;
}

interface StoredTrip {
  experiment: string;
  /** 'to-policy': reloading under the wanted Permissions-Policy first; 'away': gone and coming back. */
  stage: 'to-policy' | 'away';
  startedAt: number;
  leftFrom: string;
  events: StoredEvent[];
}

export interface TripOptions {
  /** Listen for unload while leaving (the listener records the event, nothing else). */
  unloadListener: boolean;
  /** Leave from a page served with Permissions-Policy: unload=() (true), without it (false), or either. */
  unloadPolicy?: boolean;
  /** Ends what the page has open or under way (its journal's reads) before it leaves. */
  settleBeforeLeaving?: () => Promise<void>;
}

export interface Trip {
  events: LifecycleEvent[];
  /** The Permissions-Policy header the server sends with the address of the page that left. */
  permissionsPolicy: string | null;
  /** Why the engine did not restore the page (notRestoredReasons); null where the engine does not say. */
  notRestoredReasons: string[] | null;
}

/** This document, among those a trip passes through: each page load has its own token. */
const documentId = visitorToken;

function readTrip(): StoredTrip | null {
  try {
    const trip = JSON.parse(sessionStorage.getItem(TRIP_KEY) ?? 'null') as StoredTrip | null;
    return trip && Date.now() - trip.startedAt < TRIP_LIMIT_MS ? trip : null;
  } catch {
    return null;
  }
}

const writeTrip = (trip: StoredTrip) => sessionStorage.setItem(TRIP_KEY, JSON.stringify(trip));
const endTrip = () => sessionStorage.removeItem(TRIP_KEY);

/** The experiment whose trip this document is part of (a page loaded again, or the hop to the policy), if any. */
export function pendingTripExperiment(): string | null {
  const trip = readTrip();
  return trip && trip.leftFrom !== documentId ? trip.experiment : null;
}

/** Whether a trip is under way, for the page that steps away to know it should go back. */
export function tripUnderWay(): boolean {
  return readTrip()?.stage === 'away';
}

function record(type: LifecycleEventType, persisted: boolean | null): void {
  const trip = readTrip();
  if (trip?.stage !== 'away') return;
  trip.events.push({ type, persisted, visibility: document.visibilityState, documentId });
  writeTrip(trip);
}

const onUnload = () => record('unload', null);
let shown: Promise<void> = Promise.resolve();
let left = false;

/**
 * Records every lifecycle event of this document while a trip is under way. Call once, as the
 * page's module runs; the unload listener is added only by a trip that asks for it, because
 * merely having one changes what the browser does.
 */
export function installTripRecorder(): void {
  window.addEventListener('beforeunload', () => record('beforeunload', null));
  window.addEventListener('pagehide', (event) => {
    left = true;
    record('pagehide', event.persisted);
  });
  window.addEventListener('pageshow', (event) => record('pageshow', event.persisted));
  document.addEventListener('visibilitychange', () => record('visibilitychange', null));
  // Added after the recorder, so the first pageshow is recorded before anyone awaiting it goes on.
  shown = new Promise((resolve) => window.addEventListener('pageshow', () => resolve(), { once: true }));
}

/**
 * Runs (or finishes) the experiment's trip. A page that leaves may never see the answer: if the
 * browser loads it again instead of restoring it, the new document calls this once more (see
 * pendingTripExperiment) and it returns there.
 */
export async function takeTrip(experiment: string, options: TripOptions): Promise<Trip> {
  const trip = readTrip();
  if (trip?.experiment === experiment && trip.stage === 'away' && trip.leftFrom !== documentId) {
    await shown;
    return finish(trip.leftFrom, readTrip() ?? trip, reasonsNotRestored());
  }
  const underPolicy = new URLSearchParams(location.search).get(POLICY_PARAM) === 'none';
  if (options.unloadPolicy !== undefined && options.unloadPolicy !== underPolicy) {
    writeTrip({
      experiment,
      stage: 'to-policy',
      startedAt: Date.now(),
      leftFrom: documentId,
      events: [],
    });
    location.assign(pageUrl(options.unloadPolicy, experiment));
    return new Promise(() => undefined); // This document is going away.
  }
  return leave(experiment, options);
}

async function leave(experiment: string, options: TripOptions): Promise<Trip> {
  await shown; // A page still loading is not cached, and its own first pageshow belongs to no trip.
  if (options.unloadListener) window.addEventListener('unload', onUnload);
  const back = new Promise<void>((resolve, reject) => {
    const restored = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      window.removeEventListener('pageshow', restored);
      clearTimeout(stuck);
      // The visibilitychange to visible may come just after pageshow.
      const settled = () => resolve();
      if (readTrip()?.events.some((e) => e.type === 'visibilitychange' && e.visibility === 'visible')) settled();
      else setTimeout(settled, SETTLE_MS);
    };
    window.addEventListener('pageshow', restored);
    const stuck = setTimeout(() => {
      if (!left) reject(new Error(`the page did not leave within ${LEAVE_LIMIT_MS / 1000} s`));
    }, LEAVE_LIMIT_MS);
  });
  left = false;
  writeTrip({ experiment, stage: 'away', startedAt: Date.now(), leftFrom: documentId, events: [] });
  await options.settleBeforeLeaving?.();
  // Firefox (ESR 153, measured) will not cache a page that leaves with a request open, or in the
  // task one ends: a task later it does.
  await new Promise((resolve) => setTimeout(resolve, 0));
  location.assign(AWAY_PATH);
  try {
    await back;
  } finally {
    window.removeEventListener('unload', onUnload);
  }
  const trip = readTrip();
  if (!trip) throw new Error(`the trip was away longer than ${TRIP_LIMIT_MS / 1000} s`);
  return finish(documentId, trip, []);
}

/**
 * Ends the trip. The Permissions-Policy is asked for only now, of this same address: a fetch
 * just before leaving could itself keep the page out of the cache.
 */
async function finish(leftFrom: string, trip: StoredTrip, notRestoredReasons: string[] | null): Promise<Trip> {
  endTrip();
  const served = await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
  return {
    events: trip.events.map(({ documentId: id, ...event }) => ({
      ...event,
      document: id === leftFrom ? 'left' : 'new',
    })),
    permissionsPolicy: served.headers.get('permissions-policy'),
    notRestoredReasons,
  };
}

function pageUrl(unloadPolicy: boolean, experiment: string): string {
  const url = new URL(location.href);
  if (unloadPolicy) url.searchParams.set(POLICY_PARAM, 'none');
  else url.searchParams.delete(POLICY_PARAM);
  url.hash = experiment;
  return url.href;
}

/** Chromium says why it loaded the page again (PerformanceNavigationTiming.notRestoredReasons); others do not. */
function reasonsNotRestored(): string[] | null {
  const navigation = performance.getEntriesByType('navigation')[0] as
    (PerformanceNavigationTiming & { notRestoredReasons?: { reasons?: { reason: string }[] } | null }) | undefined;
  if (!navigation || !('notRestoredReasons' in navigation)) return null;
  return navigation.notRestoredReasons?.reasons?.map((r) => r.reason) ?? [];
}
