import { luaScript, type SharedRedis } from '../shared-state/redis.js';
import { TurnBatches } from '../shared-state/turn-batches.js';
import { NOTHING_HELD, type Held, type HoldingStore, type HoldKind } from './holdings.js';

/**
 * KEYS: the visitor's hash. ARGV: how long the count outlives the visitor's last request (ms),
 * then kind and limit pairs. Checks every kind first, then takes them all: one atomic step
 * for every replica.
 */
const TAKE = `
for i = 2, #ARGV, 2 do
  local limit = tonumber(ARGV[i + 1])
  if limit > 0 and tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0') >= limit then return ARGV[i] end
end
for i = 2, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return false
`;

/**
 * KEYS: the visitor's hash. ARGV: kind and count pairs, what the visitor's requests that ended in
 * one turn gave back. Never below zero; the hash goes with the last request.
 */
const RELEASE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 1, #ARGV, 2 do
  if tonumber(redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1]))) < 0 then redis.call('HSET', KEYS[1], ARGV[i], 0) end
end
if tonumber(redis.call('HGET', KEYS[1], 'inFlight') or '0') <= 0 then redis.call('DEL', KEYS[1]) end
return 1
`;

/**
 * Each visitor's holdings across every replica, in a Redis hash. A replica that dies holding
 * requests cannot give them back: its counts go when the hash expires, countTtlMs after the
 * visitor's last request (a new page load is a new visitor anyway).
 */
export class RedisHoldings implements HoldingStore {
  private readonly takeScript;
  private readonly releaseScript;
  /** What each visitor's requests gave back in this turn of the event loop, by kind. */
  private readonly pending = new TurnBatches<Map<HoldKind, number>>((batches) => {
    for (const [token, counts] of batches)
      this.releaseScript(this.key(token), ...[...counts].flat()).catch(this.onReleaseFailed);
  });

  constructor(
    private readonly redis: SharedRedis,
    private readonly countTtlMs: number,
    private readonly onReleaseFailed: (err: unknown) => void,
  ) {
    this.takeScript = luaScript(redis, 'originLabHoldingsTake', 1, TAKE);
    this.releaseScript = luaScript(redis, 'originLabHoldingsRelease', 1, RELEASE);
  }

  async take(token: string, kinds: readonly HoldKind[], limits: Held): Promise<HoldKind | null> {
    // What this visitor gave back in this turn goes first (one connection keeps order), so it counts.
    this.pending.flushKey(token);
    const over = await this.takeScript(
      this.key(token),
      this.countTtlMs,
      ...kinds.flatMap((kind) => [kind, limits[kind]]),
    );
    return typeof over === 'string' ? (over as HoldKind) : null;
  }

  /**
   * Kept until the end of this turn of the event loop, then given back with everything else the
   * same visitor's requests gave back in it: one script call per visitor and turn.
   */
  release(token: string, kinds: readonly HoldKind[]): void {
    const counts = this.pending.batch(token, () => new Map<HoldKind, number>());
    for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }

  /** Gives back now what this turn's requests gave back (a stopping replica, before it quits). */
  flush(): void {
    this.pending.flush();
  }

  async holding(token: string): Promise<Held> {
    this.pending.flushKey(token);
    const fields = await this.redis.commands.hgetall(this.key(token));
    return {
      inFlight: Number(fields.inFlight ?? NOTHING_HELD.inFlight),
      streams: Number(fields.streams ?? NOTHING_HELD.streams),
      slow: Number(fields.slow ?? NOTHING_HELD.slow),
    };
  }

  private key(token: string): string {
    // The visitor's hash tag: on a cluster, on the node that holds its journal.
    return this.redis.key(`held:{${token}}`);
  }
}
