import { discardLogs, envInt, type LogSink } from '@origin-lab/server-kit';
import { DEV_UPSTREAM_KEY, upstreamKeyFromEnv } from './key.js';

export interface UpstreamConfig {
  /** The bearer key callers must present. */
  apiKey: string;
  log: LogSink;
  /** Longest wait a ?mock=slow or ?mock=hold request may ask for. */
  maxDelayMs: number;
}

/** Where the upstream-mock listens when it runs on its own. */
export interface UpstreamListen {
  port: number;
  /** Undefined listens on every interface. */
  host: string | undefined;
}

/** Every default of the upstream-mock; a field left out (or undefined) keeps its default. */
export function upstreamConfig(overrides: Partial<UpstreamConfig> = {}): UpstreamConfig {
  return {
    apiKey: overrides.apiKey ?? DEV_UPSTREAM_KEY,
    log: overrides.log ?? discardLogs,
    maxDelayMs: overrides.maxDelayMs ?? 60_000,
  };
}

type Env = Record<string, string | undefined>;

/** Reads the settings from the environment; a bad value throws a ConfigError naming the variable. */
export function upstreamConfigFromEnv(env: Env, log: LogSink): UpstreamConfig {
  const base = upstreamConfig();
  return upstreamConfig({
    apiKey: upstreamKeyFromEnv(env),
    log,
    maxDelayMs: envInt(env, 'MOCK_MAX_DELAY_MS', base.maxDelayMs, 0, 600_000),
  });
}

export function upstreamListenFromEnv(env: Env): UpstreamListen {
  return { port: envInt(env, 'PORT', 8090, 0, 65_535), host: env.HOST || undefined };
}
