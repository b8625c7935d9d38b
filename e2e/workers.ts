/**
 * Tests at once: E2E_WORKERS, 3 by default on the two cores of the machines the suite runs on.
 * With two the cores sat a quarter idle while tests waited (a stream's reconnect, a beacon after
 * its page closed, a DNS answer running out); a third fills that time (beacons, events and reads
 * in three engines: 112 s with two, 89 s with three, 89 s with four). docs/testing.md, "What the
 * suite costs", has the runs behind the choice.
 */
const DEFAULT_WORKERS = 3;
const MAX_WORKERS = 16;

/** The workers E2E_WORKERS asks for (unset or empty: the default); anything else than 1 to 16 is an error naming it. */
export function workerCount(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_WORKERS;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS)
    throw new Error(`E2E_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, not "${raw}"`);
  return count;
}
