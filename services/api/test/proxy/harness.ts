import { afterAll, beforeAll, beforeEach } from 'vitest';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { serve, type RunningServer } from '@origin-lab/server-kit';
import { startNodeScript } from '@origin-lab/test-kit';
import { apiConfig, type ApiConfig } from '../../src/config.js';
import { createApp } from '../../src/app.js';

const mockMain = fileURLToPath(new URL('../../../upstream-mock/dist/main.js', import.meta.url));

/** A key nobody else uses, so finding it anywhere is proof of a leak. */
export function distinctiveKey(): string {
  return `test-upstream-key-${randomUUID()}`;
}

export interface CallSummary {
  total: number;
  unauthorized: number;
  byPath: Record<string, number>;
  held: number;
  recent: { n: number; path: string; query: string; accept: string | null; authorized: boolean }[];
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
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', UPSTREAM_API_KEY: apiKey, UPSTREAM_API_KEY_FILE: '', MOCK_MAX_DELAY_MS: '20000' },
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

export const ALLOWED_ORIGIN = 'http://allowed.example';

/** The real API, in this process, listening on a free port, with its log lines captured. */
export interface TestApi {
  url: string;
  port: number;
  server: RunningServer['server'];
  logs: Record<string, unknown>[];
  clock: TestClock;
  stop(): Promise<void>;
}

export async function startApi(upstream: Partial<ApiConfig['upstream']> & { url: string; apiKey: string }): Promise<TestApi> {
  const logs: Record<string, unknown>[] = [];
  const clock = new TestClock();
  const base = apiConfig();
  const config = apiConfig({
    allowedOrigins: [ALLOWED_ORIGIN],
    log: (entry) => logs.push(entry),
    logRequests: true,
    now: clock.now,
    upstream: { ...base.upstream, timeoutMs: 5_000, ...upstream },
  });
  const running = await serve(createApp(config).callback(), { port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${running.port}`,
    port: running.port,
    server: running.server,
    logs,
    clock,
    stop: () => running.stop(500),
  };
}

export interface ProxyStack {
  upstream: UpstreamProcess;
  api: TestApi;
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
  const stack = {} as ProxyStack;
  beforeAll(async () => {
    stack.upstream = await startUpstreamProcess(apiKey);
    stack.api = await startApi({ url: stack.upstream.url, apiKey, ...settings });
  });
  afterAll(async () => {
    await stack.api?.stop();
    await stack.upstream?.stop();
  });
  if (resetEachTest) beforeEach(() => stack.upstream.reset());
  return stack;
}

/** A closed port: connecting to it is refused. */
export async function refusedUrl(): Promise<string> {
  const running = await serve((_req, res) => res.end(), { port: 0, host: '127.0.0.1' });
  await running.stop(0);
  return `http://127.0.0.1:${running.port}`;
}
