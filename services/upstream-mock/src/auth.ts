import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks `Authorization: Bearer <key>` in constant time (over hashes, so the length does not
 * leak either). The presented value is never echoed or logged by the caller.
 */
export function bearerChecker(apiKey: string): (authorization: string | undefined) => boolean {
  const expected = digest(apiKey);
  return (authorization) => {
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
