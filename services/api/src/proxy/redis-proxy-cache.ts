import { createHash } from 'node:crypto';
import { luaScript, type SharedRedis } from '../shared-state/redis.js';
import {
  entrySize,
  type AnswerCache,
  type CachedAnswer,
  type CacheHit,
  type ProxyCacheOptions,
} from './proxy-cache.js';

/**
 * Takes one entry out of the books: its key, its place in the index, its size from the total.
 * The index (a sorted set) scores each entry by its last use, so the first one is the least
 * recently used, and one unused for a whole TTL has certainly expired.
 */
const FORGET = `
local function forget(key)
  local size = redis.call('HGET', KEYS[3], key)
  redis.call('HDEL', KEYS[3], key)
  redis.call('ZREM', KEYS[2], key)
  redis.call('DEL', key)
  if size then return redis.call('DECRBY', KEYS[4], size) end
  return tonumber(redis.call('GET', KEYS[4]) or '0')
end
`;

/**
 * KEYS: the entry, the index, the sizes, the byte total. ARGV: the stored text, its size, the
 * TTL in ms, now, the entry and byte bounds. Stores the entry with Redis's own expiry, then
 * drops expired entries from the books and the least recently used until both bounds hold.
 */
const SET = `${FORGET}
forget(KEYS[1])
local now, ttl = tonumber(ARGV[4]), tonumber(ARGV[3])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', KEYS[2], now, KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], ARGV[2])
local total = redis.call('INCRBY', KEYS[4], ARGV[2])
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl)) do total = forget(key) end
while redis.call('ZCARD', KEYS[2]) > tonumber(ARGV[5]) or total > tonumber(ARGV[6]) do
  total = forget(redis.call('ZRANGE', KEYS[2], 0, 0)[1])
end
return 1
`;

/** KEYS: the entry, the index. ARGV: now. The stored text, marking the entry as just used. */
const GET = `
local value = redis.call('GET', KEYS[1])
if value then redis.call('ZADD', KEYS[2], 'XX', ARGV[1], KEYS[1]) end
return value
`;

/**
 * The proxy cache shared by every replica. Each answer is one Redis string that expires by
 * Redis's own TTL; the entry and byte bounds hold across replicas (the books are updated in
 * the same script as the entry). Stored as one line of JSON (status, headers, when stored)
 * followed by the body's bytes, so a binary body goes through untouched.
 */
export class RedisProxyCache implements AnswerCache {
  private readonly books: string[];
  private readonly setScript;
  private readonly getScript;

  constructor(
    private readonly redis: SharedRedis,
    private readonly options: ProxyCacheOptions,
  ) {
    // One hash tag for the books and every entry: a set evicts other entries in the same script,
    // so on a cluster the whole cache sits on one node (its bounds are per cache, not per node).
    this.books = [redis.key('{proxy-cache}:index'), redis.key('{proxy-cache}:sizes'), redis.key('{proxy-cache}:bytes')];
    this.setScript = luaScript(redis, 'originLabProxyCacheSet', 4, SET);
    this.getScript = luaScript(redis, 'originLabProxyCacheGet', 2, GET, { replyAsBuffers: true });
  }

  async get(key: string): Promise<CacheHit | undefined> {
    const now = this.options.now();
    const stored = (await this.getScript(this.entryKey(key), this.books[0]!, now)) as Buffer | null;
    if (stored === null) return undefined;
    const newline = stored.indexOf(0x0a);
    const meta = JSON.parse(stored.subarray(0, newline).toString('utf8')) as Omit<CachedAnswer, 'body'> & {
      storedAt: number;
    };
    const age = now - meta.storedAt;
    return {
      answer: { status: meta.status, headers: meta.headers, body: stored.subarray(newline + 1) },
      ageSeconds: Math.max(0, Math.floor(age / 1_000)),
    };
  }

  async set(key: string, answer: CachedAnswer): Promise<boolean> {
    const bytes = entrySize(key, answer);
    if (this.options.ttlMs <= 0 || bytes > this.options.maxBytes) return false;
    const now = this.options.now();
    const meta = JSON.stringify({ status: answer.status, headers: answer.headers, storedAt: now });
    const stored = Buffer.concat([Buffer.from(`${meta}\n`), answer.body]);
    await this.setScript(
      this.entryKey(key),
      ...this.books,
      stored,
      bytes,
      this.options.ttlMs,
      now,
      this.options.maxEntries,
      this.options.maxBytes,
    );
    return true;
  }

  /** Upstream URLs can be long and hold any byte: the key is their hash. */
  private entryKey(url: string): string {
    return this.redis.key(`{proxy-cache}:entry:${createHash('sha256').update(url).digest('base64url')}`);
  }
}
