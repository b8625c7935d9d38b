import { hostname } from 'node:os';
import {
  ConfigError,
  envBool,
  envInt,
  envList,
  envNumber,
  envString,
  stdoutLog,
  type LogSink,
} from '@origin-lab/server-kit';
import { upstreamKeyFromEnv } from './proxy/proxy-key.js';
import type { VisitorLimits } from './fair-share/visitor-limits.js';
import type { RedisSettings } from './shared-state/redis.js';

/** An inclusive integer range with the value used when the query leaves it out. */
export interface Bounds {
  min: number;
  max: number;
  default: number;
}

export interface ApiConfig {
  /** The written-down allowlist: exact origins (scheme://host[:port]) whose cross-origin reads are approved. */
  allowedOrigins: string[];
  flaky: { rate: number; seed?: number };
  slowMs: Bounds;
  streamCount: Bounds;
  /** Pause between stream records; one second in the spec, shorter in tests. */
  streamIntervalMs: number;
  limits: {
    /** Largest request body read by echo, beacon and urlencoded posts. */
    bodyBytes: number;
    /** Multipart: largest single file, number of files, number of non-file fields, largest field value. */
    fileBytes: number;
    files: number;
    fields: number;
    fieldBytes: number;
    titleChars: number;
    authorChars: number;
  };
  /** What one visitor (page load) may hold at once on a shared server; 0 is no limit. */
  visitorLimits: VisitorLimits;
  /** The post store keeps at most this many posts, dropping the oldest. */
  postsMax: number;
  /** How many received beacons GET /api/beacon remembers. */
  beaconJournal: number;
  /** The visitors' journals (what the server saw, per page load; /lab/journal). */
  journal: {
    entriesPerVisitor: number;
    visitors: number;
    idleSeconds: number;
    /** Unread bytes a journal stream may hold before it is ended (the reader resumes). */
    streamBufferBytes: number;
    keepAliveMs: number;
  };
  /** The CORS lab (/lab/cors): how much one URL may ask for. */
  lab: {
    /** Names in one list (Allow-Methods, Allow-Headers, Expose-Headers). */
    listItems: number;
    /** Characters of one parameter value (a list, or the extra header's value). */
    valueChars: number;
    /** Most ticks one run of the stream lab (/lab/stream) may ask for. */
    streamMaxTicks: number;
  };
  upstream: {
    /** Base URL of the third party; the proxy only ever appends an allowed path and the query. */
    url: string;
    /** Held server-side only. */
    apiKey: string;
    timeoutMs: number;
    cacheTtlSeconds: number;
    cacheMaxEntries: number;
    cacheMaxBytes: number;
    /** Largest upstream answer body the proxy reads (502 past it). */
    maxBodyBytes: number;
    /** Longest query string the proxy forwards (414 past it). */
    maxQueryChars: number;
  };
  /**
   * Where posts, beacons, the proxy cache, the journals and the fair-share counts live: null
   * keeps them in this process (the embedded default); Redis shares them between replicas.
   */
  redis: RedisSettings | null;
  /** How long a visitor's fair-share count outlives its last request in Redis (a dead replica's holds go then). */
  holdCountTtlSeconds: number;
  /** This process's name among replicas, in journal entries and /lab/health. */
  replica: string;
  log: LogSink;
  logRequests: boolean;
  /** At most this many request lines a second, the rest counted in one warning a second; 0: every line. */
  logRequestLinesPerSecond: number;
  /** Clock for the proxy cache, injectable so tests can move time instead of sleeping. */
  now: () => number;
}

export const defaultLimits: ApiConfig['limits'] = {
  bodyBytes: 1024 * 1024,
  fileBytes: 1024 * 1024,
  files: 2,
  fields: 20,
  fieldBytes: 16 * 1024,
  titleChars: 200,
  authorChars: 80,
};

/** The origins of the embedded default (one port, two host names) and of the Caddy front. */
export function defaultOrigins(port: number): string[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`, 'https://a.localhost', 'https://b.localhost'];
}

export function apiConfig(overrides: Partial<ApiConfig> = {}): ApiConfig {
  return {
    allowedOrigins: defaultOrigins(8080),
    flaky: { rate: 0.5 },
    slowMs: { min: 0, max: 30_000, default: 1_000 },
    streamCount: { min: 1, max: 120, default: 5 },
    streamIntervalMs: 1_000,
    limits: defaultLimits,
    // Room for every demonstration: ten EventSources plus the journal's stream, the
    // six-connection experiments' held requests, and what a page sends alongside.
    visitorLimits: { inFlight: 64, streams: 16, slow: 16 },
    postsMax: 100,
    beaconJournal: 20,
    journal: {
      entriesPerVisitor: 200,
      visitors: 1_000,
      idleSeconds: 1_800,
      streamBufferBytes: 256 * 1024,
      keepAliveMs: 15_000,
    },
    lab: { listItems: 20, valueChars: 256, streamMaxTicks: 50 },
    upstream: {
      url: 'http://127.0.0.1:8090',
      apiKey: 'dev-only-upstream-key',
      timeoutMs: 5_000,
      cacheTtlSeconds: 300,
      cacheMaxEntries: 500,
      cacheMaxBytes: 16 * 1024 * 1024,
      maxBodyBytes: 2 * 1024 * 1024,
      maxQueryChars: 1_024,
    },
    redis: null,
    holdCountTtlSeconds: 600,
    replica: hostname(),
    log: stdoutLog,
    logRequests: true,
    logRequestLinesPerSecond: 2_000,
    now: Date.now,
    ...overrides,
  };
}

type Env = Record<string, string | undefined>;

/** Where the api listens when it runs on its own. */
export interface ApiListen {
  port: number;
  /** Undefined listens on every interface (dual-stack). */
  host: string | undefined;
}

export function apiListenFromEnv(env: Env): ApiListen {
  return { port: envInt(env, 'PORT', 3000, 0, 65_535), host: env.HOST || undefined };
}

/** Reads every setting from the environment; a bad value throws a ConfigError naming the variable. */
export function apiConfigFromEnv(env: Env, port: number): ApiConfig {
  const base = apiConfig();
  const seed =
    env.FLAKY_SEED === undefined || env.FLAKY_SEED === '' ? undefined : envInt(env, 'FLAKY_SEED', 0, 0, 2 ** 32 - 1);
  const slowMax = envInt(env, 'SLOW_MS_MAX', base.slowMs.max, 0, 600_000);
  const countMax = envInt(env, 'STREAM_COUNT_MAX', base.streamCount.max, 1, 100_000);
  return apiConfig({
    allowedOrigins: envList(env, 'ALLOWED_ORIGINS', defaultOrigins(port)),
    flaky: { rate: envNumber(env, 'FLAKY_RATE', base.flaky.rate, 0, 1), seed },
    slowMs: {
      min: 0,
      max: slowMax,
      default: envInt(env, 'SLOW_MS_DEFAULT', Math.min(base.slowMs.default, slowMax), 0, slowMax),
    },
    streamCount: {
      min: 1,
      max: countMax,
      default: envInt(env, 'STREAM_COUNT_DEFAULT', Math.min(base.streamCount.default, countMax), 1, countMax),
    },
    streamIntervalMs: envInt(env, 'STREAM_INTERVAL_MS', base.streamIntervalMs, 1, 60_000),
    limits: {
      bodyBytes: envInt(env, 'BODY_LIMIT_BYTES', defaultLimits.bodyBytes, 1, 100 * 1024 * 1024),
      fileBytes: envInt(env, 'UPLOAD_FILE_BYTES', defaultLimits.fileBytes, 1, 100 * 1024 * 1024),
      files: envInt(env, 'UPLOAD_FILES', defaultLimits.files, 0, 100),
      fields: envInt(env, 'FORM_FIELDS', defaultLimits.fields, 1, 1_000),
      fieldBytes: envInt(env, 'FORM_FIELD_BYTES', defaultLimits.fieldBytes, 1, 10 * 1024 * 1024),
      titleChars: envInt(env, 'TITLE_MAX_CHARS', defaultLimits.titleChars, 1, 100_000),
      authorChars: envInt(env, 'AUTHOR_MAX_CHARS', defaultLimits.authorChars, 1, 100_000),
    },
    visitorLimits: {
      inFlight: envInt(env, 'VISITOR_MAX_IN_FLIGHT', base.visitorLimits.inFlight, 0, 100_000),
      streams: envInt(env, 'VISITOR_MAX_STREAMS', base.visitorLimits.streams, 0, 100_000),
      slow: envInt(env, 'VISITOR_MAX_SLOW', base.visitorLimits.slow, 0, 100_000),
    },
    postsMax: envInt(env, 'POSTS_MAX', base.postsMax, 1, 1_000_000),
    beaconJournal: envInt(env, 'BEACON_JOURNAL', base.beaconJournal, 0, 10_000),
    journal: {
      entriesPerVisitor: envInt(env, 'JOURNAL_ENTRIES', base.journal.entriesPerVisitor, 1, 100_000),
      visitors: envInt(env, 'JOURNAL_VISITORS', base.journal.visitors, 0, 1_000_000),
      idleSeconds: envInt(env, 'JOURNAL_IDLE_SECONDS', base.journal.idleSeconds, 1, 7 * 86_400),
      streamBufferBytes: envInt(
        env,
        'JOURNAL_STREAM_BUFFER_BYTES',
        base.journal.streamBufferBytes,
        1_024,
        64 * 1024 * 1024,
      ),
      keepAliveMs: base.journal.keepAliveMs,
    },
    lab: {
      listItems: envInt(env, 'LAB_LIST_ITEMS', base.lab.listItems, 1, 1_000),
      valueChars: envInt(env, 'LAB_VALUE_CHARS', base.lab.valueChars, 16, 8_192),
      streamMaxTicks: envInt(env, 'LAB_STREAM_MAX_TICKS', base.lab.streamMaxTicks, 1, 1_000),
    },
    upstream: {
      url: envString(env, 'UPSTREAM_URL', base.upstream.url),
      apiKey: upstreamKeyFromEnv(env, base.upstream.apiKey),
      timeoutMs: envInt(env, 'UPSTREAM_TIMEOUT_MS', base.upstream.timeoutMs, 1, 600_000),
      cacheTtlSeconds: envInt(env, 'PROXY_CACHE_TTL_SECONDS', base.upstream.cacheTtlSeconds, 0, 86_400),
      cacheMaxEntries: envInt(env, 'PROXY_CACHE_MAX_ENTRIES', base.upstream.cacheMaxEntries, 1, 1_000_000),
      cacheMaxBytes: envInt(env, 'PROXY_CACHE_MAX_BYTES', base.upstream.cacheMaxBytes, 1, 1024 * 1024 * 1024),
      maxBodyBytes: envInt(env, 'UPSTREAM_MAX_BODY_BYTES', base.upstream.maxBodyBytes, 1, 1024 * 1024 * 1024),
      maxQueryChars: envInt(env, 'PROXY_MAX_QUERY_CHARS', base.upstream.maxQueryChars, 0, 8_192),
    },
    redis: redisFromEnv(env),
    holdCountTtlSeconds: envInt(env, 'REDIS_HOLD_TTL_SECONDS', base.holdCountTtlSeconds, 10, 7 * 86_400),
    replica: envString(env, 'REPLICA_NAME', base.replica),
    logRequests: envBool(env, 'LOG_REQUESTS', true),
    logRequestLinesPerSecond: envInt(env, 'LOG_REQUEST_LINES_PER_SECOND', base.logRequestLinesPerSecond, 0, 1_000_000),
  });
}

/** REDIS_URL switches the shared state to Redis; unset (or empty) keeps it in memory. */
function redisFromEnv(env: Env): RedisSettings | null {
  const url = env.REDIS_URL ?? '';
  if (url === '') return null;
  if (!/^rediss?:\/\/[^/]/.test(url))
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, such as redis://redis:6379 (got "${url}")`);
  return {
    url,
    commandTimeoutMs: envInt(env, 'REDIS_TIMEOUT_MS', 1_000, 10, 60_000),
    keyPrefix: envString(env, 'REDIS_KEY_PREFIX', 'origin-lab:'),
  };
}
