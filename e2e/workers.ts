/**
 * Tests at once: E2E_WORKERS, 3 by default on the two cores of the machines the suite runs on.
 * Many e2e tests wait (a stream's reconnect, a beacon after a page closes, a preflight cache
 * running out, a DNS answer expiring): with two workers the cores were a quarter idle, which a
 * third worker fills. Beacons, events and reads in three engines took 112 s with two workers, 89 s
 * with three and 89 s with four; a clean clone's e2e suite about a tenth less (docs/testing.md,
 * "What the suite costs").
 */
export const DEFAULT_WORKERS = 3;
const MAX_WORKERS = 16;

/** The workers E2E_WORKERS asks for (unset or empty: the default); anything else than 1 to 16 is an error naming it. */
export function workerCount(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_WORKERS;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS)
    throw new Error(`E2E_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, not "${raw}"`);
  return count;
}
