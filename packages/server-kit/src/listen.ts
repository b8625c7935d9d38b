import { readSettings, setting, type Env } from './settings.js';

/**
 * Where a server listens when it runs on its own: the PORT and HOST rows of a settings table.
 * Each start (the api's, the pages', the upstream-mock's, the launcher's) gives its own default
 * port and says what that port is; HOST reads the same everywhere.
 */
export function listenSettings(defaultPort: number, portDoc: string) {
  return {
    port: setting.int('PORT', defaultPort, 0, 65_535, { doc: portDoc }),
    host: setting.text('HOST', '', { doc: 'address to listen on', shown: 'every interface' }),
  };
}

export type ListenSettings = ReturnType<typeof listenSettings>;

export interface Listen {
  port: number;
  /** Undefined listens on every interface (dual-stack). */
  host: string | undefined;
}

/** PORT and HOST from the environment; a bad value throws a ConfigError naming the variable. */
export function listenFromEnv(settings: ListenSettings, env: Env): Listen {
  const { port, host } = readSettings(settings, env);
  return { port, host: host || undefined };
}
