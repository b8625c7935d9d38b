import type { ServerJournalEntry } from '@origin-lab/contract';
import type { ApiConfig } from './config.js';
import { MemoryBeaconStore, type BeaconStore } from './beacon/beacon-store.js';
import { RedisBeaconStore } from './beacon/redis-beacon-store.js';
import { MemoryHoldings, type HoldingStore } from './fair-share/holdings.js';
import { RedisHoldings } from './fair-share/redis-holdings.js';
import { RedisVisitorJournals } from './journal/redis-visitor-journals.js';
import { VisitorJournals, type JournalStore } from './journal/visitor-journals.js';
import { MemoryPostStore, type PostStore } from './posts/post-store.js';
import { RedisPostStore } from './posts/redis-post-store.js';
import { ProxyCache, type AnswerCache, type ProxyCacheOptions } from './proxy/proxy-cache.js';
import { MemoryIdpCodes, RedisIdpCodes, type IdpCodes } from './lab/idp/idp-codes.js';
import { RedisProxyCache } from './proxy/redis-proxy-cache.js';
import { connectRedis, type SharedRedis } from './shared-state/redis.js';

/** Every piece of state the api keeps between requests, each behind its own small interface. */
export interface Stores {
  posts: PostStore;
  beacons: BeaconStore;
  proxyCache: AnswerCache;
  journals: JournalStore<ServerJournalEntry>;
  holdings: HoldingStore;
  /** The lab identity provider's authorization codes. */
  idpCodes: IdpCodes;
  /** The Redis connections, when the state is shared; null in memory. */
  redis: SharedRedis | null;
  /** Closes what the stores opened (Redis connections, timers). */
  close(): Promise<void>;
}

/** The stores config asks for: in this process's memory, or in Redis when config.redis is set. */
export function createStores(config: ApiConfig, cacheOptions: ProxyCacheOptions): Stores {
  const journalLimits = {
    entriesPerVisitor: config.journal.entriesPerVisitor,
    visitors: config.journal.visitors,
    idleMs: config.journal.idleSeconds * 1_000,
  };
  if (config.redis === null) {
    return {
      posts: new MemoryPostStore(config.postsMax),
      beacons: new MemoryBeaconStore(config.beaconJournal),
      proxyCache: new ProxyCache(cacheOptions),
      journals: new VisitorJournals(journalLimits),
      holdings: new MemoryHoldings(),
      idpCodes: new MemoryIdpCodes(),
      redis: null,
      close: async () => {},
    };
  }
  const redis = connectRedis(config.redis, config.log, config.replica);
  const journals = new RedisVisitorJournals<ServerJournalEntry>(redis, journalLimits, config.log);
  const holdings = new RedisHoldings(redis, config.holdCountTtlSeconds * 1_000, (err) =>
    config.log({ msg: 'a fair-share count was not given back: Redis did not answer', error: String(err) }),
  );
  return {
    posts: new RedisPostStore(redis, config.postsMax),
    beacons: new RedisBeaconStore(redis, config.beaconJournal),
    proxyCache: new RedisProxyCache(redis, cacheOptions),
    journals,
    holdings,
    idpCodes: new RedisIdpCodes(redis),
    redis,
    close: async () => {
      // What this turn recorded and gave back goes first: auto-pipelined commands are written at
      // the end of the turn, and QUIT (never pipelined) would otherwise overtake them.
      journals.close();
      holdings.flush();
      await new Promise((resolve) => setImmediate(resolve));
      await redis.close();
    },
  };
}
