import type http from 'node:http';
import { serve } from '@origin-lab/server-kit';
import type { Listening } from '@origin-lab/test-kit';
import { forFile } from '@origin-lab/test-kit/vitest';
import { expect } from 'vitest';
import { apiConfig, type ApiConfig } from '../src/config.js';
import { createApp, type ApiApp } from '../src/app.js';

export const ALLOWED = 'http://allowed.example';
export const ALSO_ALLOWED = 'https://b.localhost';

export interface TestApi extends Listening {
  app: ApiApp;
  server: http.Server;
  logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

/**
 * A real API on a free loopback port, with logs collected in memory instead of stdout (at most
 * keepLogs lines, for long runs). Streams tick every 20 ms unless overridden.
 */
export async function startApi(overrides: Partial<ApiConfig> = {}, keepLogs = Infinity): Promise<TestApi> {
  const logs: Record<string, unknown>[] = [];
  const config = apiConfig({
    allowedOrigins: [ALLOWED, ALSO_ALLOWED],
    streamIntervalMs: 20,
    log: (entry) => {
      if (logs.length < keepLogs) logs.push(entry);
    },
    ...overrides,
  });
  const app = createApp(config);
  if (!(await app.whenStateReady(5_000))) {
    await app.close();
    throw new Error("the api's shared state (Redis) was not ready within 5 s");
  }
  const running = await serve(app.callback(), { port: 0, host: '127.0.0.1', onStopping: () => app.endStreams() });
  return {
    url: `http://127.0.0.1:${running.port}`,
    port: running.port,
    app,
    server: running.server,
    logs,
    stop: async () => {
      await running.stop(500);
      await app.close();
    },
  };
}

/** For the test file that calls it: startApi(overrides) before all its tests, stopped after them. */
export function apiForFile(overrides: Partial<ApiConfig> = {}): TestApi {
  return forFile(() => startApi(overrides));
}

/**
 * HEAD of an event stream at path: its headers at once (a stream that waited for its end would
 * pass the call's bound), no body, and no stream left open on the server.
 */
export async function expectStreamHead(api: TestApi, path: string): Promise<void> {
  const answer = await fetch(`${api.url}${path}`, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('text/event-stream');
  expect(await answer.text()).toBe('');
  expect(api.app.openStreamCount()).toBe(0);
}
