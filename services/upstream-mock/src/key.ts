import { envSecret } from '@origin-lab/server-kit';

/** The development key shared with the API's default configuration; never use it for anything real. */
export const DEV_UPSTREAM_KEY = 'dev-only-upstream-key';

/** The bearer key: UPSTREAM_API_KEY_FILE (a Docker secret), else UPSTREAM_API_KEY, else the development key. */
export function upstreamKeyFromEnv(env: Record<string, string | undefined>, fallback = DEV_UPSTREAM_KEY): string {
  return envSecret(env, 'UPSTREAM_API_KEY', fallback);
}
