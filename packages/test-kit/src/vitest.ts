import { afterAll, beforeAll } from 'vitest';

/**
 * For the test file that calls it: start() runs before all its tests and the result's stop()
 * after them. The returned object stands for what start() resolved with: read its properties
 * inside tests and hooks (before beforeAll ran, reading one throws).
 */
export function forFile<T extends object & { stop(): Promise<void> }>(start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.stop();
  });
  return new Proxy({} as T, {
    get(_target, property) {
      if (!started)
        throw new Error(
          `read .${String(property)} of a server that is not started (outside a test or hook, or start() failed)`,
        );
      return Reflect.get(started, property, started);
    },
    has: (_target, property) => started !== undefined && property in started,
  });
}
