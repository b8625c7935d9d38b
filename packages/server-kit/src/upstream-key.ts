import { envSecret } from './secret.js';

type Env = Record<string, string | undefined>;

/**
 * The key the api and the upstream-mock both fall back to, so `npm start` works with nothing
 * set; never use it for anything real.
 */
export const DEV_UPSTREAM_KEY = 'dev-only-upstream-key';

/**
 * The upstream bearer key, read the same by the api (which sends it) and the upstream-mock (which
 * checks it): UPSTREAM_API_KEY_FILE (a Docker secret), else UPSTREAM_API_KEY, else fallback (the
 * settings tables give DEV_UPSTREAM_KEY).
 */
export function upstreamKeyFromEnv(env: Env, fallback: string): string {
  return envSecret(env, 'UPSTREAM_API_KEY', fallback);
}
