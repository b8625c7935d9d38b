import { serve } from '@origin-lab/server-kit';
import { forFile } from '@origin-lab/test-kit/vitest';
import { apiConfig, type ApiConfig } from '../../src/config.js';
import { startApi, type TestApi } from '../start-api.js';
import { createApp as createUpstreamMock } from '../../../upstream-mock/src/app.js';

export const HARDENING_KEY = 'hardening-upstream-key-5f1c9a';

/** The seed of every random choice in the hardening tests; HARDENING_SEED replays another run. */
export const SEED = Number(process.env.HARDENING_SEED ?? 20_261_121);

export type HardenedApi = TestApi;

/** The real api in this process on a free port, at the real stream pace, logs kept in memory (bounded). */
export function startHardenedApi(overrides: Partial<ApiConfig> = {}, keepLogs = 50_000): Promise<HardenedApi> {
  return startApi({ streamIntervalMs: apiConfig().streamIntervalMs, ...overrides }, keepLogs);
}

/**
 * For the test file that calls it: the upstream-mock in this process and the hardened api in
 * front of it (upstream timeout upstreamTimeoutMs), started before all tests and stopped after.
 */
export function hardenedApiForFile(
  overrides: Partial<ApiConfig>,
  { upstreamTimeoutMs, keepLogs }: { upstreamTimeoutMs: number; keepLogs: number },
): HardenedApi {
  return forFile(async () => {
    const upstream = await startUpstreamMock();
    const api = await startHardenedApi(
      { ...overrides, upstream: upstreamSettings(upstream.url, upstreamTimeoutMs) },
      keepLogs,
    ).catch(async (err: unknown) => {
      await upstream.stop();
      throw err;
    });
    return {
      ...api,
      stop: async () => {
        await api.stop();
        await upstream.stop();
      },
    };
  });
}

/** The upstream-mock app in this process, the third party behind /api/upstream/. */
export async function startUpstreamMock(): Promise<{ url: string; stop(): Promise<void> }> {
  const mock = createUpstreamMock({ apiKey: HARDENING_KEY, maxDelayMs: 2_000 });
  const running = await serve(mock.callback(), { port: 0, host: '127.0.0.1', onStopping: () => mock.release() });
  return { url: `http://127.0.0.1:${running.port}`, stop: () => running.stop(500) };
}

export function upstreamSettings(url: string, timeoutMs: number): ApiConfig['upstream'] {
  return { ...apiConfig().upstream, url, apiKey: HARDENING_KEY, timeoutMs };
}

/** Runs tasks with at most `limit` in flight. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
