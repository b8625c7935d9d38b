import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { HttpError, type LogSink } from '@origin-lab/server-kit';

/** Where the shared state lives when the api runs as several replicas (REDIS_URL). */
export interface RedisSettings {
  url: string;
  /** A command not answered within this is failed, so no request waits on Redis past it. */
  commandTimeoutMs: number;
  /** Put before every key and channel, so several deployments (or test files) can share one server. */
  keyPrefix: string;
}

/**
 * The api's two connections to Redis: one for commands, one for the journal's pub/sub (a
 * subscribed connection takes no other commands). Both reconnect on their own, for ever, a
 * little slower each time up to two seconds; while one is down its commands fail at once
 * (no offline queue), so a request is answered "unavailable" instead of waiting.
 */
export interface SharedRedis {
  readonly commands: Redis;
  readonly subscriber: Redis;
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
function ioredis(): { Redis: typeof Redis } {
  return createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis };
}

/** name says which replica a connection is (CLIENT LIST in Redis shows it). */
export function connectRedis(settings: RedisSettings, log: LogSink, name = hostname()): SharedRedis {
  const { Redis } = ioredis();
  const options = {
    commandTimeout: settings.commandTimeoutMs,
    connectTimeout: Math.max(settings.commandTimeoutMs, 1_000),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    enableAutoPipelining: true,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
  };
  const commands = new Redis(settings.url, { ...options, connectionName: `origin-lab-api-${name}` });
  const subscriber = new Redis(settings.url, { ...options, connectionName: `origin-lab-journal-${name}` });
  const where = redactedUrl(settings.url);
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

function readyWithin(client: Redis, timeoutMs: number): Promise<boolean> {
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
