import { readFileSync } from 'node:fs';
import { ConfigError } from '@origin-lab/server-kit';

/** The development key shared with the API's default configuration; never use it for anything real. */
export const DEV_UPSTREAM_KEY = 'dev-only-upstream-key';

/**
 * The bearer key, from UPSTREAM_API_KEY_FILE (a Docker secret such as /run/secrets/upstream_api_key)
 * or UPSTREAM_API_KEY. Errors name the variable, never the value.
 */
export function upstreamKeyFromEnv(env: Record<string, string | undefined>): string {
  const file = env.UPSTREAM_API_KEY_FILE;
  let key = env.UPSTREAM_API_KEY ?? '';
  if (file !== undefined && file !== '') {
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch {
      throw new ConfigError(`UPSTREAM_API_KEY_FILE names a file that cannot be read: ${file}`);
    }
  }
  if (key === '') return DEV_UPSTREAM_KEY;
  if (!/^[\x21-\x7e]{1,512}$/.test(key)) {
    throw new ConfigError('UPSTREAM_API_KEY (or the file UPSTREAM_API_KEY_FILE names) must be 1 to 512 visible ASCII characters (no spaces or control characters)');
  }
  return key;
}
