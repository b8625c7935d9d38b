/**
 * Tests at once: E2E_WORKERS, 2 by default on the two cores of the machines the suite runs on.
 * Three once filled the time tests spent waiting (beacons, events and reads in three engines: 112 s
 * with two, 89 s with three), but on slow clean-clone runs time-judged tests then failed (a beacon's
 * lifecycle in WebKit behind Caddy). Measured again, a whole run with three was no faster: the static
 * checks beside the suite take that time now. Two stay the default (docs/suite-runs.md).
 */
const DEFAULT_WORKERS = 2;
const MAX_WORKERS = 16;

/** The workers E2E_WORKERS asks for (unset or empty: the default); anything else than 1 to 16 is an error naming it. */
export function workerCount(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_WORKERS;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS)
    throw new Error(`E2E_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, not "${raw}"`);
  return count;
}
