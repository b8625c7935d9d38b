import { afterEach, beforeEach } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { CallSummary } from '@origin-lab/contract';
import { fileURLToPath } from 'node:url';
import { serve } from '@origin-lab/server-kit';
import { startNodeScript } from '@origin-lab/test-kit';
import { forFile } from '@origin-lab/test-kit/vitest';
import { apiConfig, type ApiConfig } from '../../src/config.js';
import { ALLOWED, startApi, type TestApi } from '../start-api.js';

const mockMain = fileURLToPath(new URL('../../../upstream-mock/dist/main.js', import.meta.url));

/** A key nobody else uses, so finding it anywhere is proof of a leak. */
export function distinctiveKey(): string {
  return `test-upstream-key-${randomUUID()}`;
}

/** The real upstream-mock as its own process (services/upstream-mock/dist/main.js) on a free port. */
export interface UpstreamProcess {
  url: string;
  /** Everything the process wrote, stdout and stderr. */
  output(): string;
  calls(): Promise<CallSummary>;
  reset(): Promise<void>;
  release(): Promise<number>;
  stop(): Promise<void>;
}

export async function startUpstreamProcess(apiKey: string): Promise<UpstreamProcess> {
  const mock = await startNodeScript(mockMain, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      UPSTREAM_API_KEY: apiKey,
      UPSTREAM_API_KEY_FILE: '',
      MOCK_MAX_DELAY_MS: '20000',
    },
    ready: /"msg":"upstream-mock listening","port":(\d+)/,
    timeoutMs: 10_000,
    what: 'the upstream-mock',
  });
  const url = `http://127.0.0.1:${mock.ready[1]}`;
  const admin = async (method: string, path: string) => {
    const res = await fetch(`${url}/_admin/${path}`, { method, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`admin ${path} answered ${res.status}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  return {
    url,
    output: mock.output,
    calls: async () => (await admin('GET', 'calls')) as unknown as CallSummary,
    reset: async () => void (await admin('POST', 'reset')),
    release: async () => (await admin('POST', 'release')).released as number,
    stop: () => mock.stop(),
  };
}

/** A stopped clock the test moves by hand: the proxy cache reads it instead of the wall clock. */
export class TestClock {
  private current = Date.now();
  readonly now = () => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

export const ALLOWED_ORIGIN = ALLOWED;

/** The real API (start-api.ts), with request logs and a clock the test moves by hand. */
export type ProxyApi = TestApi & { clock: TestClock };

/** The API in front of an upstream: request logging on, the proxy cache on a TestClock. */
export async function startProxyApi(
  upstream: Partial<ApiConfig['upstream']> & { url: string; apiKey: string },
): Promise<ProxyApi> {
  const clock = new TestClock();
  const api = await startApi({
    allowedOrigins: [ALLOWED_ORIGIN],
    logRequests: true,
    now: clock.now,
    upstream: { ...apiConfig().upstream, timeoutMs: 5_000, ...upstream },
  });
  return { ...api, clock };
}

export interface ProxyStack {
  upstream: UpstreamProcess;
  api: ProxyApi;
  stop(): Promise<void>;
}

/**
 * For the test file that calls it: a real upstream-mock process started before all tests, and a
 * real API in front of it, both stopped after. With resetEachTest the upstream's call counts and
 * held requests are cleared before each test.
 */
export function proxyStackForFile(
  apiKey: string,
  settings: Partial<ApiConfig['upstream']> = {},
  { resetEachTest = false } = {},
): ProxyStack {
  const stack = forFile(async (): Promise<ProxyStack> => {
    const upstream = await startUpstreamProcess(apiKey);
    const api = await startProxyApi({ url: upstream.url, apiKey, ...settings }).catch(async (err: unknown) => {
      await upstream.stop();
      throw err;
    });
    return {
      upstream,
      api,
      stop: async () => {
        await api.stop();
        await upstream.stop();
      },
    };
  });
  if (resetEachTest) beforeEach(() => stack.upstream.reset());
  return stack;
}

/**
 * For a test file whose tests each start their own API: one upstream-mock process for the file,
 * and freshApi() for an API in front of it that is stopped after the test. After each test the
 * upstream's call counts are reset; with releaseHeld its held requests are released first.
 */
export function upstreamForFile(apiKey: string, { releaseHeld = false } = {}) {
  const upstream = forFile(() => startUpstreamProcess(apiKey));
  let current: ProxyApi | undefined;
  afterEach(async () => {
    if (releaseHeld) await upstream.release();
    await current?.stop();
    current = undefined;
    await upstream.reset();
  });
  return {
    upstream,
    /** The API the running test started. */
    api: (): ProxyApi => {
      if (!current) throw new Error('no API started in this test: call freshApi() first');
      return current;
    },
    freshApi: async (settings: Partial<ApiConfig['upstream']> = {}): Promise<ProxyApi> =>
      (current = await startProxyApi({ url: upstream.url, apiKey, ...settings })),
  };
}

/** A closed port: connecting to it is refused. */
export async function refusedUrl(): Promise<string> {
  const running = await serve((_req, res) => res.end(), { port: 0, host: '127.0.0.1' });
  await running.stop(0);
  return `http://127.0.0.1:${running.port}`;
}
