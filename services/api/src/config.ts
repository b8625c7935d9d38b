import { hostname } from 'node:os';
import {
  ConfigError,
  DEV_UPSTREAM_KEY,
  defaultsOf,
  listenSettings,
  readSettings,
  setting,
  stdoutLog,
  thirdSiteSetting,
  upstreamKeyFromEnv,
  type Env,
  type LogSink,
  type ValuesOf,
} from '@origin-lab/server-kit';
import type { RedisSettings } from './shared-state/redis.js';

/** The origins of the embedded default (one port, two host names) and of the Caddy front. */
export function defaultOrigins(port: number): string[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`, 'https://a.localhost', 'https://b.localhost'];
}

const { int, optionalInt, number, bool, text, list, custom, group } = setting;

/**
 * Every setting of the api, each written once: its place in the config, its environment
 * variable, its default, what it accepts and one line of doc. The config type, the defaults,
 * the environment reader, the errors that name a setting and the README's configuration table
 * (`npm run docs:settings`) all come from here. Bare numbers are fixed: no variable sets them.
 */
export const API_SETTINGS = {
  allowedOrigins: list('ALLOWED_ORIGINS', defaultOrigins(8080), {
    doc: 'exact origins (scheme://host[:port]) allowed to read cross-origin',
    shown: '`http://localhost:PORT,http://127.0.0.1:PORT,https://a.localhost,https://b.localhost`',
  }),
  flaky: {
    rate: number('FLAKY_RATE', 0.5, 0, 1, { doc: 'failure rate of /api/flaky' }),
    seed: optionalInt('FLAKY_SEED', 0, 2 ** 32 - 1, {
      doc: 'makes the sequence of /api/flaky repeat',
      shown: 'random',
    }),
  },
  slowMs: {
    min: 0,
    max: int('SLOW_MS_MAX', 30_000, 0, 600_000, { doc: 'largest `ms` /api/slow accepts' }),
    default: int('SLOW_MS_DEFAULT', 1_000, 0, 'SLOW_MS_MAX', { doc: '`ms` of /api/slow when absent' }),
  },
  streamCount: {
    min: 1,
    max: int('STREAM_COUNT_MAX', 120, 1, 100_000, { doc: 'largest `count` /api/stream accepts' }),
    default: int('STREAM_COUNT_DEFAULT', 5, 1, 'STREAM_COUNT_MAX', { doc: '`count` of /api/stream when absent' }),
  },
  streamIntervalMs: int('STREAM_INTERVAL_MS', 1_000, 1, 60_000, {
    doc: 'pause between stream records; one second in the spec, shorter in tests',
  }),
  limits: {
    bodyBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1, 100 * 1024 * 1024, {
      doc: 'largest body read by echo, beacon and urlencoded posts (413 past it)',
    }),
    fileBytes: int('UPLOAD_FILE_BYTES', 1024 * 1024, 1, 100 * 1024 * 1024, {
      doc: 'largest file in a multipart post',
    }),
    files: int('UPLOAD_FILES', 2, 0, 100, { doc: 'number of files in a multipart post' }),
    fields: int('FORM_FIELDS', 20, 1, 1_000, { doc: 'number of non-file fields in a multipart post' }),
    fieldBytes: int('FORM_FIELD_BYTES', 16 * 1024, 1, 10 * 1024 * 1024, {
      doc: 'largest multipart field value',
    }),
    titleChars: int('TITLE_MAX_CHARS', 200, 1, 100_000, { doc: 'post validation: longest title, in characters' }),
    authorChars: int('AUTHOR_MAX_CHARS', 80, 1, 100_000, { doc: 'post validation: longest author, in characters' }),
  },
  // Room for every demonstration: ten EventSources plus the journal's stream, the
  // six-connection experiments' held requests, and what a page sends alongside.
  visitorLimits: {
    inFlight: int('VISITOR_MAX_IN_FLIGHT', 64, 0, 100_000, {
      doc: 'fair share: requests one visitor (a page load, by the token in its URLs) may have answered at once; past it, 429 naming it; 0 is no limit ([docs/classroom.md](docs/classroom.md))',
    }),
    streams: int('VISITOR_MAX_STREAMS', 16, 0, 100_000, {
      doc: 'fair share: event streams one visitor may hold open (/api/stream, /lab/stream, the journal); 0 is no limit',
    }),
    slow: int('VISITOR_MAX_SLOW', 16, 0, 100_000, {
      doc: 'fair share: `/api/slow` waits one visitor may hold; 0 is no limit',
    }),
  },
  postsMax: int('POSTS_MAX', 100, 1, 1_000_000, {
    doc: 'posts kept (oldest dropped; in memory a restart goes back to the seeds)',
  }),
  beaconJournal: int('BEACON_JOURNAL', 20, 0, 10_000, { doc: 'beacons remembered for `GET /api/beacon`' }),
  journal: {
    entriesPerVisitor: int('JOURNAL_ENTRIES', 200, 1, 100_000, {
      doc: 'what the server saw, per visitor (`/lab/journal`): entries kept per visitor',
    }),
    visitors: int('JOURNAL_VISITORS', 1_000, 0, 1_000_000, {
      doc: 'visitors whose journal is kept (least recently seen dropped first); 0 switches the journal off',
    }),
    idleSeconds: int('JOURNAL_IDLE_SECONDS', 1_800, 1, 7 * 86_400, {
      doc: 'idle time before a visitor and its journal are dropped',
    }),
    streamBufferBytes: int('JOURNAL_STREAM_BUFFER_BYTES', 256 * 1024, 1_024, 64 * 1024 * 1024, {
      doc: 'unread bytes a journal stream may hold before the api ends it (the reader resumes with Last-Event-ID)',
    }),
    keepAliveMs: 15_000,
  },
  lab: {
    listItems: int('LAB_LIST_ITEMS', 20, 1, 1_000, {
      doc: 'the CORS lab (`/lab/cors`): names in one list (Allow-Methods, Allow-Headers, Expose-Headers)',
    }),
    valueChars: int('LAB_VALUE_CHARS', 256, 16, 8_192, {
      doc: "the CORS lab: characters in one parameter value (a list, or the extra header's value)",
    }),
    streamMaxTicks: int('LAB_STREAM_MAX_TICKS', 50, 1, 1_000, {
      doc: 'the stream lab (`/lab/stream`): most ticks one run (`of`, `per`) may ask for',
    }),
    thirdSite: thirdSiteSetting(
      "a third name of this server: the CORS lab may redirect to it (an allowed origin's scheme and port, this host), never to anything else; `none` for no third origin",
    ),
  },
  upstream: {
    url: text('UPSTREAM_URL', 'http://127.0.0.1:8090', {
      doc: "the proxy's third party; only `/posts` and `/tags` under it are ever called",
      shown: 'the embedded upstream-mock',
      accepts: 'an http(s) URL',
    }),
    apiKey: custom('UPSTREAM_API_KEY', DEV_UPSTREAM_KEY, {
      doc: "the proxy's key, or `UPSTREAM_API_KEY_FILE`: a file holding it (e.g. a Docker secret); never sent to a page or logged",
      shown: 'a dev key',
      accepts: '1 to 512 visible ASCII characters',
      read: upstreamKeyFromEnv,
    }),
    timeoutMs: int('UPSTREAM_TIMEOUT_MS', 5_000, 1, 600_000, {
      doc: 'proxy: how long to wait for the third party (504 after)',
    }),
    cacheTtlSeconds: int('PROXY_CACHE_TTL_SECONDS', 300, 0, 86_400, { doc: 'proxy cache: how long an answer is kept' }),
    cacheMaxEntries: int('PROXY_CACHE_MAX_ENTRIES', 500, 1, 1_000_000, { doc: 'proxy cache: most answers kept' }),
    cacheMaxBytes: int('PROXY_CACHE_MAX_BYTES', 16 * 1024 * 1024, 1, 1024 * 1024 * 1024, {
      doc: 'proxy cache: most bytes kept',
    }),
    maxBodyBytes: int('UPSTREAM_MAX_BODY_BYTES', 2 * 1024 * 1024, 1, 1024 * 1024 * 1024, {
      doc: 'proxy: largest upstream answer (502 past it)',
    }),
    maxQueryChars: int('PROXY_MAX_QUERY_CHARS', 1_024, 0, 8_192, {
      doc: 'proxy: longest query forwarded (414 past it)',
    }),
  },
  /**
   * Where posts, beacons, the proxy cache, the journals and the fair-share counts live: null
   * keeps them in this process (the embedded default); Redis shares them between replicas.
   */
  redis: group(
    {
      url: text('REDIS_URL', '', {
        doc: "keep posts, beacons, the proxy cache, the visitors' journals and the fair-share counts in Redis, shared by api replicas ([docs/scaling.md](docs/scaling.md))",
        shown: 'unset: state in memory',
        accepts: 'a redis:// or rediss:// URL (with REDIS_CLUSTER, one or more, comma-separated)',
        check: (url) => {
          const bad = url === '' ? undefined : url.split(',').find((one) => !/^rediss?:\/\/[^/]/.test(one.trim()));
          if (bad !== undefined)
            throw new ConfigError(
              `REDIS_URL must be a redis:// or rediss:// URL, such as redis://redis:6379 (got "${bad}")`,
            );
        },
      }),
      cluster: bool('REDIS_CLUSTER', false, {
        doc: "REDIS_URL names nodes of a Redis Cluster: each visitor's state sits on the node holding its slot ([docs/scaling.md](docs/scaling.md))",
      }),
      commandTimeoutMs: int('REDIS_TIMEOUT_MS', 1_000, 10, 60_000, {
        doc: 'longest wait for one Redis command; past it, a degraded answer',
      }),
      keyPrefix: text('REDIS_KEY_PREFIX', 'origin-lab:', {
        doc: 'put before every Redis key and channel, so deployments can share one server',
        accepts: 'text without { or }',
        check: (prefix) => {
          // A brace would start a cluster hash tag and split one visitor's keys over several nodes.
          if (/[{}]/.test(prefix)) throw new ConfigError(`REDIS_KEY_PREFIX must not hold { or } (got "${prefix}")`);
        },
      }),
    },
    (redis): RedisSettings | null => {
      if (redis.url === '') return null;
      if (!redis.cluster && redis.url.includes(','))
        throw new ConfigError(
          `REDIS_URL names several servers ("${redis.url}"): that is a Redis Cluster, so set REDIS_CLUSTER=true, or name one server`,
        );
      return redis;
    },
  ),
  holdCountTtlSeconds: int('REDIS_HOLD_TTL_SECONDS', 600, 10, 7 * 86_400, {
    doc: "how long a visitor's fair-share count outlives its last request in Redis (a dead replica's holds go then)",
  }),
  replica: text('REPLICA_NAME', hostname(), {
    doc: "this process's name among replicas, in journal entries and `/lab/health`",
    shown: 'the host name',
  }),
  logRequests: bool('LOG_REQUESTS', true, { doc: 'one JSON line per request on stdout (credentials redacted)' }),
  logRequestLinesPerSecond: int('LOG_REQUEST_LINES_PER_SECOND', 2_000, 0, 1_000_000, {
    doc: 'the request log writes the first this many requests of each second; the rest are counted in one `request lines not written` warning a second; 0 writes every line ([docs/decisions.md](docs/decisions.md))',
  }),
};

/** Everything createApp reads: the settings, and what no variable sets (where logs go, the clock). */
export type ApiConfig = ValuesOf<typeof API_SETTINGS> & {
  log: LogSink;
  /** Clock for the proxy cache, injectable so tests can move time instead of sleeping. */
  now: () => number;
};

export const defaultLimits: ApiConfig['limits'] = defaultsOf(API_SETTINGS.limits);

/** The defaults, with overrides (tests and the launcher pass theirs). */
export function apiConfig(overrides: Partial<ApiConfig> = {}): ApiConfig {
  return { ...defaultsOf(API_SETTINGS), log: stdoutLog, now: Date.now, ...overrides };
}

/** Where the api listens when it runs on its own. */
export const API_LISTEN_SETTINGS = listenSettings(3000, 'port the api listens on when it runs on its own');

/** Reads every setting from the environment; a bad value throws a ConfigError naming the variable. */
export function apiConfigFromEnv(env: Env, port: number): ApiConfig {
  return apiConfig(readSettings(API_SETTINGS, env, { ALLOWED_ORIGINS: defaultOrigins(port) }));
}
