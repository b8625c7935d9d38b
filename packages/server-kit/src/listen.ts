import { ConfigError } from './env.js';
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

/**
 * Why a server could not listen, in one line naming PORT or HOST: the port taken or kept for
 * root, the address not this machine's or not resolving. Null for any other failure. example is
 * how to start with another port (`PORT=8081 npm start` for the launcher).
 */
export function listenFailure(err: unknown, listen: Listen, example = 'PORT=8081'): string | null {
  const { port, host } = listen;
  switch ((err as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return `port ${port} is taken: start with another, e.g. ${example}`;
    case 'EACCES':
      return `port ${port} needs privileges this user lacks (ports below 1024 do): start with another, e.g. ${example}`;
    case 'EADDRNOTAVAIL':
      return `HOST=${host} is not an address of this machine: leave HOST unset to listen on every one`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST=${host} does not resolve: give an address of this machine, or leave HOST unset`;
    default:
      return null;
  }
}

/**
 * What a server's start says instead of a stack trace, on one line before it exits 2: a bad
 * setting (ConfigError), or a failure to listen where listen says (listenFailure, with example).
 * Null for a failure that is a bug, which keeps its trace.
 */
export function startFailure(err: unknown, listen: Listen | undefined, example?: string): string | null {
  if (err instanceof ConfigError) return `configuration error: ${err.message}`;
  return listen ? listenFailure(err, listen, example) : null;
}

/**
 * A server's whole start, as each service's main.ts runs it: where to listen (PORT, HOST), then
 * start; a bad setting or a failure to listen is one line and exit 2 (startFailure), a bug keeps
 * its trace.
 */
export async function startServer(settings: ListenSettings, start: (listen: Listen) => Promise<void>): Promise<void> {
  let listen: Listen | undefined;
  try {
    listen = listenFromEnv(settings, process.env);
    await start(listen);
  } catch (err) {
    const said = startFailure(err, listen);
    if (said === null) throw err;
    console.error(said);
    process.exit(2);
  }
}
