/** origin with its host name replaced (scheme and port kept): the same server under another name. */
export function originOnHost(origin: string, host: string): string {
  const url = new URL(origin);
  url.hostname = host;
  return url.origin;
}

/**
 * The DNS rebinding lab, when `npm start -- --rebind` runs it (in /site-config.js): the resolver a
 * browser profile is set to, the authority its certificate is signed by, the names it rebinds and
 * the ports of its two local servers.
 */
export interface RebindSite {
  /** The DNS-over-HTTPS template: https://127.0.0.1:<port>/dns-query{?dns} */
  resolver: string;
  /** The authority that signed the resolver's certificate (PEM). */
  caPem: string;
  /** Every name under it rebinds: first the attacker ([::1]), then the victim (127.0.0.1). */
  domain: string;
  ports: { open: number; checked: number };
}
