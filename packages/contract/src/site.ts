/** origin with its host name replaced (scheme and port kept): the same server under another name. */
export function originOnHost(origin: string, host: string): string {
  const url = new URL(origin);
  url.hostname = host;
  return url.origin;
}
