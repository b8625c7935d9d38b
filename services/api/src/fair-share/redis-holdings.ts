import { luaScript, type SharedRedis } from '../shared-state/redis.js';
import { KeyedBatches } from '../shared-state/keyed-batches.js';
import { NOTHING_HELD, type Held, type HoldingStore, type HoldKind } from './holdings.js';

/**
 * KEYS: the visitor's hash. ARGV: how long the count outlives the visitor's last request (ms);
 * how many kinds given back, then kind and count pairs (what the visitor's requests that ended
 * since the last call gave back); how many takes, then for each take how many kinds and its kind
 * and limit pairs, in the order the requests asked. One atomic step for every replica: first
 * gives back (never below zero), then for each take checks every kind and takes them all or
 * none. Returns, for each take, '' when taken or the kind at its limit. The hash goes once
 * nothing is in flight.
 */
const TURN = `
local i = 2
local given = tonumber(ARGV[i])
i = i + 1
local held = redis.call('EXISTS', KEYS[1]) == 1
for _ = 1, given do
  if held and tonumber(redis.call('HINCRBY', KEYS[1], ARGV[i], -tonumber(ARGV[i + 1]))) < 0 then
    redis.call('HSET', KEYS[1], ARGV[i], 0)
  end
  i = i + 2
end
local takes = tonumber(ARGV[i])
i = i + 1
local answers = {}
for t = 1, takes do
  local kinds = tonumber(ARGV[i])
  i = i + 1
  local over = ''
  for k = 0, kinds - 1 do
    local limit = tonumber(ARGV[i + 2 * k + 1])
    if over == '' and limit > 0 and tonumber(redis.call('HGET', KEYS[1], ARGV[i + 2 * k]) or '0') >= limit then
      over = ARGV[i + 2 * k]
    end
  end
  if over == '' then
    for k = 0, kinds - 1 do redis.call('HINCRBY', KEYS[1], ARGV[i + 2 * k], 1) end
  end
  answers[t] = over
  i = i + 2 * kinds
end
if takes > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
elseif held and tonumber(redis.call('HGET', KEYS[1], 'inFlight') or '0') <= 0 then
  redis.call('DEL', KEYS[1])
end
return answers
`;

interface Take {
  kinds: readonly HoldKind[];
  limits: Held;
  answer(over: HoldKind | null): void;
  fail(err: unknown): void;
}

/** What one visitor's requests asked and gave back in one turn of the event loop. */
interface VisitorTurn {
  takes: Take[];
  given: Map<HoldKind, number>;
}

/**
 * Each visitor's holdings across every replica, in a Redis hash. What one visitor's requests take
 * and give back in one turn of the event loop goes in one script call at the turn's end: a
 * request waits for its take, to the end of its turn and one round trip. A replica that dies
 * holding requests cannot give them back: its counts go when the hash expires, countTtlMs after
 * the visitor's last request (a new page load is a new visitor anyway).
 */
export class RedisHoldings implements HoldingStore {
  private readonly turnScript;
  private readonly turns = new KeyedBatches<VisitorTurn>((batches) => {
    for (const [token, turn] of batches) this.send(token, turn);
  });

  constructor(
    private readonly redis: SharedRedis,
    private readonly countTtlMs: number,
    private readonly onReleaseFailed: (err: unknown) => void,
  ) {
    this.turnScript = luaScript(redis, 'originLabHoldingsTurn', 1, TURN);
  }

  take(token: string, kinds: readonly HoldKind[], limits: Held): Promise<HoldKind | null> {
    return new Promise((answer, fail) => this.turn(token).takes.push({ kinds, limits, answer, fail }));
  }

  release(token: string, kinds: readonly HoldKind[]): void {
    const { given } = this.turn(token);
    for (const kind of kinds) given.set(kind, (given.get(kind) ?? 0) + 1);
  }

  /** Sends now what this turn's requests asked and gave back (a stopping replica, before it quits). */
  flush(): void {
    this.turns.flush();
  }

  async holding(token: string): Promise<Held> {
    this.turns.flushKey(token);
    const fields = await this.redis.commands.hgetall(this.key(token));
    return {
      inFlight: Number(fields.inFlight ?? NOTHING_HELD.inFlight),
      streams: Number(fields.streams ?? NOTHING_HELD.streams),
      slow: Number(fields.slow ?? NOTHING_HELD.slow),
    };
  }

  private turn(token: string): VisitorTurn {
    return this.turns.batch(token, () => ({ takes: [], given: new Map() }));
  }

  private send(token: string, { takes, given }: VisitorTurn): void {
    const args: (string | number)[] = [this.countTtlMs, given.size, ...[...given].flat(), takes.length];
    for (const { kinds, limits } of takes) args.push(kinds.length, ...kinds.flatMap((kind) => [kind, limits[kind]]));
    this.turnScript(this.key(token), ...args).then(
      (answers) => takes.forEach((take, i) => take.answer(((answers as string[])[i] || null) as HoldKind | null)),
      (err: unknown) => {
        if (given.size > 0) this.onReleaseFailed(err);
        for (const take of takes) take.fail(err);
      },
    );
  }

  private key(token: string): string {
    // The visitor's hash tag: on a cluster, on the node that holds its journal.
    return this.redis.key(`held:{${token}}`);
  }
}
