import { readFileSync } from 'node:fs';
import { ConfigError } from '@origin-lab/server-kit';

/**
 * The upstream bearer key, from UPSTREAM_API_KEY_FILE (a Docker secret such as
 * /run/secrets/upstream_api_key) when set, else UPSTREAM_API_KEY, else the development default.
 * Errors name the variable and the rule, never the value.
 */
export function upstreamKeyFromEnv(env: Record<string, string | undefined>, fallback: string): string {
  const file = env.UPSTREAM_API_KEY_FILE;
  let key = env.UPSTREAM_API_KEY ?? '';
  if (file !== undefined && file !== '') {
    try {
      key = readFileSync(file, 'utf8').trim();
    } catch {
      throw new ConfigError(`UPSTREAM_API_KEY_FILE names a file that cannot be read: ${file}`);
    }
  }
  const chosen = key === '' ? fallback : key;
  assertUsableKey(chosen);
  return chosen;
}

/** A key goes into a header: visible ASCII only, so it can never break or be echoed by header validation. */
export function assertUsableKey(key: string): void {
  if (!/^[\x21-\x7e]{1,512}$/.test(key)) {
    throw new ConfigError('the upstream API key (UPSTREAM_API_KEY or UPSTREAM_API_KEY_FILE) must be 1 to 512 visible ASCII characters');
  }
}
