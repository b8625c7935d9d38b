import { assertHeaderSafeSecret, envSecret } from '@origin-lab/server-kit';

/** The upstream bearer key: UPSTREAM_API_KEY_FILE (a Docker secret), else UPSTREAM_API_KEY, else the development default. */
export function upstreamKeyFromEnv(env: Record<string, string | undefined>, fallback: string): string {
  return envSecret(env, 'UPSTREAM_API_KEY', fallback);
}

/** Checked again when the app is built, since tests and the launcher pass a key without the environment. */
export function assertUsableKey(key: string): void {
  assertHeaderSafeSecret(key, 'UPSTREAM_API_KEY');
}
