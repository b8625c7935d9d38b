import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import type { ApiConfig } from '../../src/config.js';
import { startApi, type TestApi } from '../start-api.js';
import type { SharedStateForFile } from './backends.js';

/**
 * Starts api replicas sharing one Redis (or one cluster) under a key prefix of their own (as
 * `docker compose up --scale api=N` does), named replica-1, replica-2, ...; all stopped after each test.
 */
export function replicasOn(redis: SharedStateForFile) {
  const running: TestApi[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((api) => api.stop()));
  });
  return async (count: number, overrides: Partial<ApiConfig> = {}, commandTimeoutMs = 1_000): Promise<TestApi[]> => {
    const settings = redis.settings(commandTimeoutMs);
    const started = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        startApi({
          redis: settings,
          replica: `replica-${i + 1}`,
          ...overrides,
        }),
      ),
    );
    running.push(...started);
    return started;
  };
}

/** A fresh visitor token, as a page load makes one. */
export const newVisitor = () => randomBytes(16).toString('base64url');

/** POST /api/posts at baseUrl with a urlencoded form: a title, and an author. */
export const postForm = (baseUrl: string, title: string, author = 'Replica test') =>
  fetch(`${baseUrl}/api/posts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title, author }),
  });
