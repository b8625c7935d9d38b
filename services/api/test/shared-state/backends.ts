import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { startRedis, type RunningRedis } from '@origin-lab/test-kit';
import { forFile } from '@origin-lab/test-kit/vitest';
import { connectRedis, type SharedRedis } from '../../src/shared-state/redis.js';

/**
 * The two homes of the api's state, for tests that run the same cases against each: this
 * process's memory, and a real redis-server started for the test file. Each Redis test gets a
 * key prefix of its own, so tests never see each other's keys; connections close after each test.
 */
export type BackendName = 'memory' | 'redis';
export const BACKENDS: BackendName[] = ['memory', 'redis'];

export interface RedisForFile {
  server: RunningRedis;
  /** A new connection pair under a fresh prefix. */
  connect(): Promise<SharedRedis>;
  /** A fresh key prefix for one test. */
  newPrefix(): string;
}

export function redisForFile(options: { persistence?: boolean } = {}): RedisForFile {
  const server = forFile(() => startRedis(options));
  const open: SharedRedis[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((redis) => redis.close()));
  });
  const newPrefix = () => `test-${randomBytes(6).toString('hex')}:`;
  return {
    server,
    newPrefix,
    async connect() {
      const redis = connectRedis({ url: server.url, commandTimeoutMs: 1_000, keyPrefix: newPrefix() }, () => {});
      open.push(redis);
      if (!(await redis.whenReady(5_000))) throw new Error(`redis at ${server.url} was not ready within 5 s`);
      return redis;
    },
  };
}
