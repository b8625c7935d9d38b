import { assertHeaderSafeSecret } from '@origin-lab/server-kit';

/** Checked again when the app is built, since tests and the launcher pass a key without the environment. */
export function assertUsableKey(key: string): void {
  assertHeaderSafeSecret(key, 'UPSTREAM_API_KEY');
}
