import dns from 'node:dns';
import type { LookupFunction } from 'node:net';

/**
 * glibc does not resolve *.localhost (browsers do), and a LAN stack's names have no DNS here (its
 * browsers are told the same): send those names to loopback. Used by the suite's own client
 * (specs/support/server.ts) and by WebKit's forward proxy (engines/loopback-proxy.ts).
 */
export function loopbackLookup(loopbackNames: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname === 'localhost' || hostname.endsWith('.localhost') || loopbackNames.includes(hostname)) {
      if (options.all)
        (callback as (err: null, addresses: dns.LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
      return;
    }
    dns.lookup(hostname, options, callback as never);
  };
}
