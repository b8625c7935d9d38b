import { describe, expect, it } from 'vitest';
import { ConfigError } from '@origin-lab/server-kit';
import { apiConfigFromEnv, type ApiConfig } from '../src/config.js';

/**
 * The defaults the README's Configuration table and docs/decisions.md promise, written here from
 * those documents, and the variable that changes each one.
 */
const DOCUMENTED: [variable: string, documented: number, read: (config: ApiConfig) => number, other?: string][] = [
  ['SLOW_MS_DEFAULT', 1000, (c) => c.slowMs.default],
  ['SLOW_MS_MAX', 30000, (c) => c.slowMs.max],
  ['STREAM_COUNT_DEFAULT', 5, (c) => c.streamCount.default],
  ['STREAM_COUNT_MAX', 120, (c) => c.streamCount.max],
  ['STREAM_INTERVAL_MS', 1000, (c) => c.streamIntervalMs],
  ['BODY_LIMIT_BYTES', 1048576, (c) => c.limits.bodyBytes],
  ['UPLOAD_FILE_BYTES', 1048576, (c) => c.limits.fileBytes],
  ['FORM_FIELD_BYTES', 16384, (c) => c.limits.fieldBytes],
  ['POSTS_MAX', 100, (c) => c.postsMax],
  ['JOURNAL_ENTRIES', 200, (c) => c.journal.entriesPerVisitor],
  ['JOURNAL_VISITORS', 1000, (c) => c.journal.visitors],
  ['JOURNAL_IDLE_SECONDS', 1800, (c) => c.journal.idleSeconds],
  ['JOURNAL_STREAM_BUFFER_BYTES', 262144, (c) => c.journal.streamBufferBytes, '4096'],
  ['LAB_STREAM_MAX_TICKS', 50, (c) => c.lab.streamMaxTicks],
  ['UPSTREAM_TIMEOUT_MS', 5000, (c) => c.upstream.timeoutMs],
  ['PROXY_CACHE_MAX_ENTRIES', 500, (c) => c.upstream.cacheMaxEntries],
  ['PROXY_CACHE_MAX_BYTES', 16777216, (c) => c.upstream.cacheMaxBytes],
  ['UPSTREAM_MAX_BODY_BYTES', 2097152, (c) => c.upstream.maxBodyBytes],
  ['UPLOAD_FILES', 2, (c) => c.limits.files],
  ['FORM_FIELDS', 20, (c) => c.limits.fields],
  ['TITLE_MAX_CHARS', 200, (c) => c.limits.titleChars],
  ['AUTHOR_MAX_CHARS', 80, (c) => c.limits.authorChars],
  ['BEACON_JOURNAL', 20, (c) => c.beaconJournal],
  ['PROXY_CACHE_TTL_SECONDS', 300, (c) => c.upstream.cacheTtlSeconds],
  ['PROXY_MAX_QUERY_CHARS', 1024, (c) => c.upstream.maxQueryChars],
  ['LAB_LIST_ITEMS', 20, (c) => c.lab.listItems],
  ['LAB_VALUE_CHARS', 256, (c) => c.lab.valueChars, '64'],
  ['VISITOR_MAX_IN_FLIGHT', 64, (c) => c.visitorLimits.inFlight],
  ['VISITOR_MAX_STREAMS', 16, (c) => c.visitorLimits.streams],
  ['VISITOR_MAX_SLOW', 16, (c) => c.visitorLimits.slow],
  ['LOG_REQUEST_LINES_PER_SECOND', 2000, (c) => c.logRequestLinesPerSecond, '0'],
];

describe('the api settings from the environment', () => {
  it.each(DOCUMENTED)(
    '%s defaults to %i and is read from the environment',
    (variable, documented, read, other = '7') => {
      expect(read(apiConfigFromEnv({}, 8080))).toBe(documented);
      expect(read(apiConfigFromEnv({ [variable]: other }, 8080))).toBe(Number(other));
    },
  );

  it.each([
    ['SLOW_MS_MAX', 'lots', /^SLOW_MS_MAX must be a whole number from \d+ to \d+; got "lots"$/],
    ['POSTS_MAX', '0', /^POSTS_MAX must be from 1 to \d+; got 0$/],
    ['LOG_REQUESTS', 'maybe', /^LOG_REQUESTS must be true or false; got "maybe"$/],
    ['FLAKY_RATE', '2', /^FLAKY_RATE must be /],
  ])('a bad %s (%s) is a configuration error naming the variable and what it accepts', (variable, value, message) => {
    const load = () => apiConfigFromEnv({ [variable]: value }, 8080);
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it.each([
    [{ REDIS_URL: 'redis://a:6379,redis://b:6379' }, /^REDIS_URL names several servers .*set REDIS_CLUSTER=true/],
    [
      { REDIS_URL: 'redis://a:6379,b:6379', REDIS_CLUSTER: 'true' },
      /^REDIS_URL must be a redis:\/\/ .*\(got "b:6379"\)$/,
    ],
    [{ REDIS_URL: 'redis://a:6379', REDIS_KEY_PREFIX: 'class-{1}:' }, /^REDIS_KEY_PREFIX must not hold \{ or \}/],
  ])('Redis settings that cannot work (%o) are a configuration error saying why', (env, message) => {
    expect(() => apiConfigFromEnv(env, 8080)).toThrow(message);
  });

  it('REDIS_CLUSTER takes REDIS_URL as the nodes of a Redis Cluster, one or more', () => {
    const config = apiConfigFromEnv({ REDIS_URL: 'redis://a:6379, redis://b:6379', REDIS_CLUSTER: 'true' }, 8080);
    expect(config.redis).toMatchObject({ cluster: true, url: 'redis://a:6379, redis://b:6379' });
    expect(apiConfigFromEnv({ REDIS_URL: 'redis://a:6379' }, 8080).redis).toMatchObject({ cluster: false });
  });
});
