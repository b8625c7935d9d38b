import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { redisForFile } from './backends.js';
import { startApi } from '../start-api.js';

/** Whether this test process has loaded the Redis client library (CommonJS, so it is in require's cache). */
function ioredisLoaded(): boolean {
  const cache = createRequire(import.meta.url).cache;
  return Object.keys(cache).some((file) => /[\\/]node_modules[\\/]ioredis[\\/]/.test(file));
}

// In order: the memory api first, since once loaded a library stays loaded in this process.
describe.sequential('the Redis client library is loaded only for an api that keeps its state in Redis', () => {
  const redis = redisForFile();

  it('an api keeping its state in memory answers without loading it', async () => {
    const api = await startApi();
    try {
      expect((await fetch(`${api.url}/api/posts`)).status).toBe(200);
      expect(ioredisLoaded()).toBe(false);
    } finally {
      await api.stop();
    }
  });

  it('an api given REDIS_URL loads it and answers from Redis', async () => {
    const api = await startApi({
      redis: redis.settings(),
    });
    try {
      expect((await fetch(`${api.url}/api/posts`)).status).toBe(200);
      expect(ioredisLoaded()).toBe(true);
    } finally {
      await api.stop();
    }
  });
});
