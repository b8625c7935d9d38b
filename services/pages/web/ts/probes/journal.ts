import type { BeaconJournal, BeaconJournalEntry } from '@origin-lab/contract';
import { sleep } from '../frame/dom.js';

/**
 * Asks the server (same origin, so always readable) whether a POST carrying marker reached
 * /api/beacon. This is how a page sees what CORS hides from it: a request the page could not
 * read may still have been handled, and one behind a refused preflight never arrives.
 */
export async function findInJournal(marker: string, waitMs = 0): Promise<BeaconJournalEntry | null> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const response = await fetch('/api/beacon', { cache: 'no-store' });
    const { beacons } = (await response.json()) as BeaconJournal;
    const found = beacons.find((entry) => entry.body.includes(marker));
    if (found || performance.now() >= deadline) return found ?? null;
    await sleep(200);
  }
}
