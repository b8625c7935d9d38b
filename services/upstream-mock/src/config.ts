import {
  defaultsOf,
  discardLogs,
  listenSettings,
  readSettings,
  setting,
  upstreamKeyFromEnv,
  DEV_UPSTREAM_KEY,
  type Env,
  type LogSink,
  type ValuesOf,
} from '@origin-lab/server-kit';

/** Every setting of the upstream-mock, each written once (the README's table comes from here). */
export const UPSTREAM_SETTINGS = {
  apiKey: setting.custom('UPSTREAM_API_KEY', DEV_UPSTREAM_KEY, {
    doc: 'the bearer key callers must present, or `UPSTREAM_API_KEY_FILE`: a file holding it',
    shown: "the api's dev key",
    accepts: '1 to 512 visible ASCII characters',
    read: upstreamKeyFromEnv,
  }),
  maxDelayMs: setting.int('MOCK_MAX_DELAY_MS', 60_000, 0, 600_000, {
    doc: 'longest wait a `?mock=slow` or `?mock=hold` request may ask for',
  }),
};

export type UpstreamConfig = ValuesOf<typeof UPSTREAM_SETTINGS> & { log: LogSink };

/** Every default of the upstream-mock; a field left out (or undefined) keeps its default. */
export function upstreamConfig(overrides: Partial<UpstreamConfig> = {}): UpstreamConfig {
  const defaults = defaultsOf(UPSTREAM_SETTINGS);
  return {
    apiKey: overrides.apiKey ?? defaults.apiKey,
    log: overrides.log ?? discardLogs,
    maxDelayMs: overrides.maxDelayMs ?? defaults.maxDelayMs,
  };
}

/** Reads the settings from the environment; a bad value throws a ConfigError naming the variable. */
export function upstreamConfigFromEnv(env: Env, log: LogSink): UpstreamConfig {
  return upstreamConfig({ ...readSettings(UPSTREAM_SETTINGS, env), log });
}

/** Where the upstream-mock listens when it runs on its own. */
export const UPSTREAM_LISTEN_SETTINGS = listenSettings(
  8090,
  'port the upstream-mock listens on when it runs on its own',
);
