/**
 * SPEC.md, "Page lifecycle events around beacons": the order of the events a page fires as it
 * goes away and comes back, with and without the back/forward cache. Pure: the beacons page
 * records the events (probes/page-trip.ts) and judges them here.
 */

export type LifecycleEventType = 'beforeunload' | 'pagehide' | 'visibilitychange' | 'unload' | 'pageshow';

/** One event as the page saw it fire. */
export interface LifecycleEvent {
  type: LifecycleEventType;
  /** pagehide and pageshow only: whether the page goes into, or comes out of, the back/forward cache. */
  persisted: boolean | null;
  /** document.visibilityState while the listener ran. */
  visibility: 'visible' | 'hidden';
  /** The document that left, or a new one the browser loaded in its place. */
  document: 'left' | 'new';
}

/** How an event is written on the page and compared: "pagehide persisted=true (visible)". */
export function eventWords(event: LifecycleEvent): string {
  const persisted = event.persisted === null ? '' : ` persisted=${event.persisted}`;
  return `${event.type}${persisted} (${event.visibility})`;
}

/** Leaving when the page is not cached: beforeunload, pagehide while still visible, hidden, then unload if listened for. */
export function leavingUncached(unloadRan: boolean): string[] {
  return [
    'beforeunload (visible)',
    'pagehide persisted=false (visible)',
    'visibilitychange (hidden)',
    ...(unloadRan ? ['unload (hidden)'] : []),
  ];
}

/** Leaving into the cache: no unload. beforeunload still comes first, before the browser decides. */
export const LEAVING_INTO_CACHE = [
  'beforeunload (visible)',
  'pagehide persisted=true (visible)',
  'visibilitychange (hidden)',
];

/** Back from the cache: both of these, in either order (the spec names no order). */
export const RETURNING_FROM_CACHE = ['pageshow persisted=true (visible)', 'visibilitychange (visible)'];

/** Back without the cache: the page is loaded again, and the new document shows once. */
export const RETURNING_RELOADED = ['pageshow persisted=false (visible)'];

export interface TripVerdict {
  /** The page came back from the back/forward cache (its own pageshow had persisted true). */
  restored: boolean;
  /** Whether the page's unload listener ran. */
  unloadRan: boolean;
  leaving: string[];
  returning: string[];
  /** Each half in the order the spec gives for the path the engine took. */
  inOrder: boolean;
}

const isReturning = (event: LifecycleEvent) =>
  event.document === 'new' ||
  event.type === 'pageshow' ||
  (event.type === 'visibilitychange' && event.visibility === 'visible');

const sameItems = (a: readonly string[], b: readonly string[]) => sameOrder([...a].sort(), [...b].sort());

export function judgeTrip(events: readonly LifecycleEvent[]): TripVerdict {
  const restored = events.some((e) => e.type === 'pageshow' && e.persisted === true && e.document === 'left');
  const unloadRan = events.some((e) => e.type === 'unload');
  const leaving = events.filter((e) => !isReturning(e)).map(eventWords);
  const returning = events.filter(isReturning).map(eventWords);
  const leavingOk = sameOrder(leaving, restored ? LEAVING_INTO_CACHE : leavingUncached(unloadRan));
  const returningOk = restored ? sameItems(returning, RETURNING_FROM_CACHE) : sameOrder(returning, RETURNING_RELOADED);
  return { restored, unloadRan, leaving, returning, inOrder: leavingOk && returningOk };
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
