import type { LogSink } from '@origin-lab/server-kit';
import { fromShared, luaScript, type SharedRedis } from '../shared-state/redis.js';
import { KeyedBatches } from '../shared-state/keyed-batches.js';
import type { JournalLimits, JournalStore, Reader, Stored, Subscription } from './visitor-journals.js';

/** What a visitor's channel carries besides entries: the visitor was dropped to make room. */
const DROPPED = 'dropped';

/**
 * KEYS: the visitor's list, its id counter (one hash tag: one cluster slot). ARGV: entries kept,
 * idle ms, then the entries' JSON, oldest first: every entry one visitor's requests ended with in
 * one turn of the event loop. Numbers them, keeps the newest, lets an idle visitor expire on
 * Redis's clock, then publishes them as one message on the visitor's channel (sharded: the
 * channel is the list's name, so on a cluster the node holding the list delivers it) for the
 * readers on every replica. Returns the last id.
 */
const RECORD = `
local count = #ARGV - 2
local last = redis.call('INCRBY', KEYS[2], count)
local stored = {}
for i = 1, count do
  stored[i] = '{"id":' .. (last - count + i) .. ',"entry":' .. ARGV[2 + i] .. '}'
end
redis.call('RPUSH', KEYS[1], unpack(stored))
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[1]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('SPUBLISH', KEYS[1], '[' .. table.concat(stored, ',') .. ']')
return last
`;

/** At most this many entries in one script call (Lua unpacks them onto its stack, which is bounded). */
const ENTRIES_PER_CALL = 500;

/**
 * KEYS: the visitors (a sorted set by last activity, on a slot of its own). ARGV: now, idle ms,
 * visitors kept, then a time and a token for each visitor active in this turn. Marks them
 * active, forgets the idle, and returns the least recently active past the cap, taken out: the
 * caller drops their journals.
 */
const ACTIVE = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
for i = 4, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if over <= 0 then return {} end
local dropped = redis.call('ZRANGE', KEYS[1], 0, over - 1)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1)
return dropped
`;

/** KEYS: a dropped visitor's list and counter. Deletes them and tells its readers. */
const DROP = `
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SPUBLISH', KEYS[1], '${DROPPED}')
return 1
`;

/** KEYS: the list, the counter. ARGV: idle ms. A reader keeps its visitor alive. */
const TOUCH = `
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1
`;

interface Channel<T> {
  token: string;
  readers: Set<Reader<T>>;
  subscribed: Promise<unknown>;
}

/**
 * The visitors' journals shared by every replica: per visitor a capped Redis list of entries
 * numbered by one counter, and a pub/sub channel, all three under the visitor's hash tag (one
 * node of a cluster); one sorted set of the visitors by last activity enforces the cap. Each
 * replica subscribes to a visitor's channel only while it serves one of that visitor's readers.
 * Recording never holds up a request: an entry Redis does not take is counted and logged, and
 * the page shows a gap.
 */
export class RedisVisitorJournals<T> implements JournalStore<T> {
  private readonly channels = new Map<string, Channel<T>>();
  /** Entries recorded in this turn of the event loop, by visitor (in the order they ended), and when the last was. */
  private readonly pending = new KeyedBatches<{ entries: string[]; at: number }>((batches) => this.sendAll(batches));
  private readonly recordScript;
  private readonly activeScript;
  private readonly dropScript;
  private readonly touchScript;
  private readonly visitorsKey: string;
  private readonly keepAlive: NodeJS.Timeout;
  /**
   * Visitors active since the last marking, with the time of their last activity: marked on the
   * visitor set together, at most every 100 ms (a tenth of the idle time when that is shorter).
   * The set orders visitors for the cap and the idle expiry, which need no finer time, so a busy
   * replica sends one call per interval, not one per turn.
   */
  private readonly marks: KeyedBatches<{ at: number }>;
  /** The last marking of active visitors, done with its drops (never rejects). */
  private settled: Promise<void> = Promise.resolve();
  private lost = 0;
  private lostReportedAt = 0;

  constructor(
    private readonly redis: SharedRedis,
    private readonly limits: JournalLimits,
    private readonly log: LogSink,
    private readonly now: () => number = Date.now,
  ) {
    this.visitorsKey = redis.key('{journal}:visitors');
    this.marks = new KeyedBatches(
      (batches) => this.markActive([...batches].flatMap(([token, { at }]) => [at, token])),
      Math.max(1, Math.min(100, Math.floor(limits.idleMs / 10))),
    );
    this.recordScript = luaScript(redis, 'originLabJournalRecord', 2, RECORD);
    this.activeScript = luaScript(redis, 'originLabJournalActive', 1, ACTIVE);
    this.dropScript = luaScript(redis, 'originLabJournalDrop', 2, DROP);
    this.touchScript = luaScript(redis, 'originLabJournalTouch', 2, TOUCH);
    redis.subscriber.on('smessage', (channel: string, message: string) => this.deliver(channel, message));
    // Reading counts as activity, as in memory: a visitor with a reader here does not expire.
    this.keepAlive = setInterval(() => this.touchReadVisitors(), Math.max(50, Math.floor(limits.idleMs / 3)));
    this.keepAlive.unref();
  }

  /**
   * Kept until the end of this turn of the event loop, then sent with every other entry the same
   * visitor's requests ended with in it: one script call per visitor and turn, not per request.
   */
  record(token: string, entry: T): void {
    const batch = this.pending.batch(token, () => ({ entries: [], at: 0 }));
    batch.entries.push(JSON.stringify(entry));
    batch.at = this.now();
  }

  /** Sends a turn's entries: per visitor, its entries and the time of its last. */
  private sendAll(batches: Map<string, { entries: string[]; at: number }>): void {
    for (const [token, { entries, at }] of batches) {
      this.noteActive(token, at);
      for (let start = 0; start < entries.length; start += ENTRIES_PER_CALL)
        this.send(token, entries.slice(start, start + ENTRIES_PER_CALL));
    }
  }

  /** Notes the visitor active at this time, to be marked with the others of this interval. */
  private noteActive(token: string, at: number): void {
    this.marks.batch(token, () => ({ at })).at = at;
  }

  private send(token: string, entries: string[]): void {
    const list = this.listKey(token);
    this.recordScript(list, `${list}:next-id`, this.limits.entriesPerVisitor, this.limits.idleMs, ...entries).catch(
      (err: unknown) => this.countLost(err, entries.length),
    );
  }

  /**
   * One call for every visitor noted active (time, token pairs); the least recently active past
   * the cap lose their journals. Reads wait for it (settled), as in memory a record drops at once.
   */
  private markActive(active: (string | number)[]): void {
    const now = this.now();
    this.settled = this.activeScript(this.visitorsKey, now, this.limits.idleMs, this.limits.visitors, ...active)
      .then(async (dropped) => {
        await Promise.all(
          (dropped as string[]).map((token) => {
            const list = this.listKey(token);
            return this.dropScript(list, `${list}:next-id`);
          }),
        );
      })
      .catch(() => {
        // Redis is down: the next turn with activity marks its visitors again, and a journal
        // not dropped expires once its visitor has been idle long enough.
      });
  }

  async entriesAfter(token: string, afterId = 0): Promise<Stored<T>[]> {
    // What this replica recorded in this turn goes first, so a read sees it (one connection keeps order).
    this.pending.flush();
    this.marks.flush();
    await this.settled;
    const texts = await fromShared('journal', this.redis.commands.lrange(this.listKey(token), 0, -1));
    return texts.map((text) => JSON.parse(text) as Stored<T>).filter((stored) => stored.id > afterId);
  }

  subscribe(token: string, reader: Reader<T>): Subscription {
    const name = this.listKey(token);
    let channel = this.channels.get(name);
    if (channel === undefined) {
      channel = { token, readers: new Set(), subscribed: this.redis.subscriber.ssubscribe(name) };
      this.channels.set(name, channel);
      // A failed subscription is forgotten, so the next reader tries again.
      const failed = channel;
      failed.subscribed.catch(() => {
        if (this.channels.get(name) === failed) this.channels.delete(name);
      });
    }
    channel.readers.add(reader);
    const joined = channel;
    return {
      ready: fromShared('journal', joined.subscribed).then(() => undefined),
      stop: () => {
        joined.readers.delete(reader);
        if (joined.readers.size > 0 || this.channels.get(name) !== joined) return;
        this.channels.delete(name);
        this.redis.subscriber.sunsubscribe(name).catch(() => {
          // Gone with the connection anyway; a reconnect resubscribes only live channels.
        });
      },
    };
  }

  /** Sends what this turn recorded and stops the keep-alive timer; the connections are closed by their owner. */
  close(): void {
    this.pending.flush();
    this.marks.flush();
    clearInterval(this.keepAlive);
  }

  private deliver(channelName: string, message: string): void {
    const channel = this.channels.get(channelName);
    if (channel === undefined) return;
    const readers = [...channel.readers];
    if (message === DROPPED) {
      for (const reader of readers) reader.end();
      return;
    }
    // The entries one replica recorded for this visitor in one turn, oldest first.
    for (const stored of JSON.parse(message) as Stored<T>[]) for (const reader of readers) reader.entry(stored);
  }

  private touchReadVisitors(): void {
    if (this.channels.size === 0) return;
    const now = this.now();
    for (const [name, { token }] of this.channels) {
      this.noteActive(token, now);
      this.touchScript(name, `${name}:next-id`, this.limits.idleMs).catch(() => {
        // Redis is down: nothing to keep alive until it is back.
      });
    }
  }

  private countLost(err: unknown, entries: number): void {
    this.lost += entries;
    const now = Date.now();
    if (now - this.lostReportedAt < 10_000) return;
    this.lostReportedAt = now;
    this.log({ msg: 'journal entries not recorded: Redis did not take them', lost: this.lost, error: String(err) });
  }

  /** The visitor's token is its hash tag: its list, counter and channel share one cluster slot. */
  private listKey(token: string): string {
    return this.redis.key(`journal:{${token}}`);
  }
}
