import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { startRedis, startRedisCluster, type RunningRedis, type RunningRedisCluster } from '@origin-lab/test-kit';
import { forFile } from '@origin-lab/test-kit/vitest';
import { connectRedis, type RedisSettings, type SharedRedis } from '../../src/shared-state/redis.js';

/**
 * The homes of the api's state, for tests that run the same cases against each: this process's
 * memory, a real redis-server started for the test file, and a real Redis Cluster. Each Redis test gets a
 * key prefix of its own, so tests never see each other's keys; connections close after each test.
 */
export type BackendName = 'memory' | 'redis' | 'redis cluster';
export const BACKENDS: BackendName[] = ['memory', 'redis', 'redis cluster'];

export interface SharedStateForFile {
  /** The settings that reach it under a fresh key prefix (one per test, so tests never meet). */
  settings(commandTimeoutMs?: number): RedisSettings;
  /** A new connection pair under a fresh prefix, closed after the test. */
  connect(): Promise<SharedRedis>;
}

export interface RedisForFile extends SharedStateForFile {
  server: RunningRedis;
}

export interface RedisClusterForFile extends SharedStateForFile {
  cluster: RunningRedisCluster;
}

const newPrefix = () => `test-${randomBytes(6).toString('hex')}:`;

/** Settings for the server or cluster at url() (read once it is started), each under a fresh prefix. */
const settingsOf =
  (url: () => string, cluster: boolean) =>
  (commandTimeoutMs = 1_000): RedisSettings => ({ url: url(), cluster, commandTimeoutMs, keyPrefix: newPrefix() });

function connecting(settings: (commandTimeoutMs?: number) => RedisSettings): SharedStateForFile {
  const open: SharedRedis[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((redis) => redis.close()));
  });
  return {
    settings,
    async connect() {
      const reached = settings();
      const redis = connectRedis(reached, () => {});
      open.push(redis);
      if (!(await redis.whenReady(5_000))) throw new Error(`redis at ${reached.url} was not ready within 5 s`);
      return redis;
    },
  };
}

/** One redis-server for the test file. */
export function redisForFile(options: { persistence?: boolean } = {}): RedisForFile {
  const server = forFile(() => startRedis(options));
  return { server, ...connecting(settingsOf(() => server.url, false)) };
}

/** A Redis Cluster of three primaries for the test file (test-kit's startRedisCluster). */
export function redisClusterForFile(): RedisClusterForFile {
  const cluster = forFile(() => startRedisCluster(3));
  return { cluster, ...connecting(settingsOf(() => cluster.url, true)) };
}
