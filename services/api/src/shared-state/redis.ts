import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import type { Cluster, Redis } from 'ioredis';
import { HttpError, type LogSink } from '@origin-lab/server-kit';

/** Where the shared state lives when the api runs as several replicas (REDIS_URL). */
export interface RedisSettings {
  /** One server's URL; for a cluster, one or more of its nodes' URLs, comma-separated. */
  url: string;
  /** A Redis Cluster (REDIS_CLUSTER): url names nodes to learn the cluster from. */
  cluster: boolean;
  /** A command not answered within this is failed, so no request waits on Redis past it. */
  commandTimeoutMs: number;
  /** Put before every key and channel, so several deployments (or test files) can share one server. */
  keyPrefix: string;
}

/**
 * The api's two connections to Redis: one for commands, one for the journal's pub/sub (a
 * subscribed connection takes no other commands). Both reconnect on their own, for ever, a
 * little slower each time up to two seconds; while one is down its commands fail at once
 * (no offline queue), so a request is answered "unavailable" instead of waiting. On a cluster
 * each is a client of the whole cluster: it keeps a connection per node and sends each command
 * to the node holding its keys' slot, so a node that is down fails only its own slots.
 */
export interface SharedRedis {
  readonly commands: Redis | Cluster;
  readonly subscriber: Redis | Cluster;
  /** The full name of a key or channel: the prefix, then name. */
  key(name: string): string;
  /** True while the command connection is ready. */
  ready(): boolean;
  /** Resolves once both connections are ready, or after timeoutMs, saying which. */
  whenReady(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The Redis client library, loaded on the first connection rather than with the api: an api
 * keeping its state in memory (npm start, one container) never needs it. Loaded, it holds about
 * 8 MB of heap and made every request of the process measurably slower (docs/performance.md,
 * "The Redis client, loaded only for Redis").
 */
function ioredis(): { Redis: typeof Redis; Cluster: typeof Cluster } {
  return createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis; Cluster: typeof Cluster };
}

/** name says which replica a connection is (CLIENT LIST in Redis shows it). */
export function connectRedis(settings: RedisSettings, log: LogSink, name = hostname()): SharedRedis {
  const connect = settings.cluster ? clusterClient(settings) : serverClient(settings);
  const commands = connect(`origin-lab-api-${name}`, false);
  const subscriber = connect(`origin-lab-journal-${name}`, true);
  const where = settings.url.split(',').map(redactedUrl).join(',');
  // One line per change of state, not one per failed attempt.
  let lastState = '';
  const report = (role: string, state: string, detail?: string) => {
    if (`${role}:${state}` === lastState) return;
    lastState = `${role}:${state}`;
    log({ msg: `redis ${state}`, role, redis: where, ...(detail ? { detail } : {}) });
  };
  for (const [role, client] of [
    ['commands', commands],
    ['journal pub/sub', subscriber],
  ] as const) {
    client.on('ready', () => report(role, 'ready'));
    client.on('error', (err: Error) => report(role, 'unavailable', err.message));
  }
  return {
    commands,
    subscriber,
    key: (name) => `${settings.keyPrefix}${name}`,
    ready: () => commands.status === 'ready',
    whenReady: async (timeoutMs) => {
      const results = await Promise.all([commands, subscriber].map((client) => readyWithin(client, timeoutMs)));
      return results.every(Boolean);
    },
    close: async () => {
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}

const retryStrategy = (attempt: number) => Math.min(attempt * 100, 2_000);

/** What every connection to a server does: fail a command at once or within the timeout, never queue it. */
function connectionOptions(settings: RedisSettings) {
  return {
    commandTimeout: settings.commandTimeoutMs,
    connectTimeout: Math.max(settings.commandTimeoutMs, 1_000),
    maxRetriesPerRequest: 0,
  };
}

/** One Redis server at settings.url. */
function serverClient(settings: RedisSettings) {
  const { Redis } = ioredis();
  return (connectionName: string) =>
    new Redis(settings.url, {
      ...connectionOptions(settings),
      connectionName,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      retryStrategy,
    });
}

/**
 * A Redis Cluster learnt from the nodes settings.url names. A node that goes away is asked for
 * again with the same back-off (it comes back holding the same slots: no failover without
 * replicas), and a command for its slots fails at once meanwhile instead of being retried
 * elsewhere. The journal's subscriber subscribes on the node holding each channel's slot
 * (sharded pub/sub), so a lost node silences only its own visitors.
 */
function clusterClient(settings: RedisSettings) {
  const { Cluster } = ioredis();
  const nodes = settings.url.split(',').map((url) => {
    const parsed = new URL(url.trim());
    return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 6379) };
  });
  const first = new URL(settings.url.split(',')[0]!.trim());
  const credentials = {
    ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
    ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
    ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
  };
  return (connectionName: string, subscriber: boolean) =>
    new Cluster(nodes, {
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      shardedSubscribers: subscriber,
      clusterRetryStrategy: retryStrategy,
      clusterNodeRetryStrategy: retryStrategy,
      retryDelayOnFailover: 0,
      slotsRefreshTimeout: Math.max(settings.commandTimeoutMs, 1_000),
      redisOptions: { ...connectionOptions(settings), ...credentials, connectionName },
    });
}

function readyWithin(client: Redis | Cluster, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    client.on('ready', onReady);
  });
}

/**
 * What command gives, for a request that needs the shared what. When Redis does not give it in
 * time the answer is 503 with the error object and Retry-After, so a client knows to try again
 * rather than that it erred.
 */
export async function fromShared<T>(what: string, command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (err) {
    throw new HttpError(
      503,
      `the shared ${what} is unavailable: Redis did not answer`,
      { detail: err instanceof Error ? err.message : String(err), retryable: true },
      { 'Retry-After': '2', 'Cache-Control': 'no-store' },
    );
  }
}

/** The URL without its password, for logs. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'an unparsable REDIS_URL';
  }
}

type ScriptArgument = string | number | Buffer;

/**
 * A Lua script run atomically on the command connection, sent once and then called by its
 * SHA1 (ioredis's defineCommand): keys first, then arguments. With replyAsBuffers, strings in
 * the reply come back as Buffers (for binary values).
 */
export function luaScript(
  redis: SharedRedis,
  name: string,
  numberOfKeys: number,
  lua: string,
  { replyAsBuffers = false } = {},
): (...keysThenArgs: ScriptArgument[]) => Promise<unknown> {
  const client = redis.commands as unknown as Record<string, (...args: ScriptArgument[]) => Promise<unknown>>;
  if (typeof client[name] !== 'function') redis.commands.defineCommand(name, { numberOfKeys, lua });
  const method = replyAsBuffers ? `${name}Buffer` : name;
  return (...keysThenArgs) => client[method]!(...keysThenArgs);
}
