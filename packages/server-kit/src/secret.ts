import { readFileSync } from 'node:fs';
import { ConfigError } from './env.js';

type Env = Record<string, string | undefined>;

/**
 * A secret from NAME_FILE (a Docker secret such as /run/secrets/...) when set, else NAME, else
 * fallback. It must fit in an HTTP header: 1 to 512 visible ASCII characters. Errors name the
 * variable and the rule, never the value.
 */
export function envSecret(env: Env, name: string, fallback: string): string {
  const file = env[`${name}_FILE`];
  let value = env[name] ?? '';
  if (file !== undefined && file !== '') {
    try {
      value = readFileSync(file, 'utf8').trim();
    } catch {
      throw new ConfigError(`${name}_FILE names a file that cannot be read: ${file}`);
    }
  }
  const chosen = value === '' ? fallback : value;
  assertHeaderSafeSecret(chosen, name);
  return chosen;
}

/** A secret goes into a header: visible ASCII only, so it can never break or be echoed by header validation. */
export function assertHeaderSafeSecret(value: string, name: string): void {
  if (!/^[\x21-\x7e]{1,512}$/.test(value)) {
    throw new ConfigError(
      `${name} (or the file ${name}_FILE names) must be 1 to 512 visible ASCII characters (no spaces or control characters)`,
    );
  }
}
