import type { BeaconJournalEntry } from '@origin-lab/contract';
import type { Awaitable } from '../shared-state/awaitable.js';

/** The beacons GET /api/beacon shows: the newest first, at most a configured number (0 keeps none). */
export interface BeaconStore {
  add(entry: BeaconJournalEntry): Awaitable<void>;
  list(): Awaitable<readonly BeaconJournalEntry[]>;
}

/** The beacon journal in one process's memory, the embedded default. */
export class MemoryBeaconStore implements BeaconStore {
  private readonly entries: BeaconJournalEntry[] = [];

  constructor(private readonly max: number) {}

  add(entry: BeaconJournalEntry): void {
    if (this.max === 0) return;
    this.entries.unshift(entry);
    this.entries.length = Math.min(this.entries.length, this.max);
  }

  list(): readonly BeaconJournalEntry[] {
    return this.entries;
  }
}
