import type { BeaconJournalEntry } from '@origin-lab/contract';
import { fromShared, type SharedRedis } from '../shared-state/redis.js';
import type { BeaconStore } from './beacon-store.js';

/** The beacon journal shared by every replica: a Redis list, newest first, trimmed to max. */
export class RedisBeaconStore implements BeaconStore {
  private readonly key: string;

  constructor(
    private readonly redis: SharedRedis,
    private readonly max: number,
  ) {
    this.key = redis.key('beacons');
  }

  async add(entry: BeaconJournalEntry): Promise<void> {
    if (this.max === 0) return;
    const commands = this.redis.commands
      .multi()
      .lpush(this.key, JSON.stringify(entry))
      .ltrim(this.key, 0, this.max - 1);
    await fromShared('beacon journal', commands.exec());
  }

  async list(): Promise<readonly BeaconJournalEntry[]> {
    const texts = await fromShared('beacon journal', this.redis.commands.lrange(this.key, 0, -1));
    return texts.map((text) => JSON.parse(text) as BeaconJournalEntry);
  }
}
