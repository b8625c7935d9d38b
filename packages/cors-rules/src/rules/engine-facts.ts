/** Engine families, for the few rules where the spec says browsers differ. */
export type EngineFamily = 'chromium' | 'firefox' | 'webkit';

export function engineFamily(userAgent: string): EngineFamily {
  if (/Firefox\//.test(userAgent)) return 'firefox';
  if (/Chrom(e|ium)\//.test(userAgent)) return 'chromium';
  if (/AppleWebKit\//.test(userAgent)) return 'webkit';
  return 'chromium';
}

/**
 * EventSource reconnect delay with no retry: field, as measured (about 3 s / about 5 s; WebKit
 * (GTK) 2.50.6, measured: 3.0 s between the end of a stream and the next request, six times).
 */
export function expectedReconnectMs(family: EngineFamily): number | null {
  if (family === 'chromium' || family === 'webkit') return 3_000;
  if (family === 'firefox') return 5_000;
  return null;
}

/**
 * Longest time the engine keeps a preflight answer, whatever Access-Control-Max-Age says. WebKit
 * (GTK) 2.50.6, measured: under Max-Age 86400 a repeat 590 s later went without a preflight and
 * one 610 s later was preflighted again (600 s).
 */
export function preflightCacheCapSeconds(family: EngineFamily): number | null {
  if (family === 'chromium') return 7_200;
  if (family === 'firefox') return 86_400;
  if (family === 'webkit') return 600;
  return null;
}

/**
 * How long the engine keeps a preflight answer that has no Access-Control-Max-Age: SPEC.md names
 * 5 s for chromium. Firefox, measured (ESR 153), keeps it for an immediate repeat and has dropped
 * it 6.5 s later, like chromium. WebKit (GTK) 2.50.6, measured: a repeat 4.5 s after the preflight
 * went without one, a repeat 5.5 s after was preflighted again (5 s). Null where nothing is known.
 */
export function preflightCacheDefaultSeconds(family: EngineFamily): number | null {
  return family === 'chromium' || family === 'firefox' || family === 'webkit' ? 5 : null;
}

/** True when measured is within the coarse band around expected that tells the families apart. */
export function sameFamilyDelay(measuredMs: number, expectedMs: number): boolean {
  return measuredMs >= expectedMs * 0.75 && measuredMs <= expectedMs * 1.25 + 750;
}

/** Host names and addresses that are this machine: localhost, *.localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === '::1';
}

/**
 * Whether an https page may fetch this http:// URL (Mixed Content: only a potentially trustworthy
 * URL). Chromium and Firefox count loopback as trustworthy; WebKit (GTK) 2.50.6, measured, does
 * not: an https page's fetch of http://127.0.0.1 fails with "Load failed" and never leaves.
 */
export function blocksAsMixedContent(family: EngineFamily, pageOrigin: string, target: URL): boolean {
  if (!pageOrigin.startsWith('https:') || target.protocol !== 'http:') return false;
  return family === 'webkit' || !isLoopbackHost(target.hostname);
}

/** An IP address on this machine or a private network: 127/8, ::1, 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10. */
export function isLocalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(bare.replace(/^::ffff:/, ''));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  return bare === '::1' || /^f[cd][0-9a-f]{2}:/.test(bare) || /^fe[89ab][0-9a-f]:/.test(bare);
}

/**
 * Whether Chromium's Local Network Access (since 142) stops a request before it leaves: a page it
 * counts as public (any host but a loopback name) reaching a loopback or private address. A page
 * that is not a secure context is refused outright; a secure one unless the user allows it.
 * Firefox and WebKit do not stop the check's pages (measured: Firefox ESR 153, WebKit (GTK) 2.50).
 */
export function blocksAsLocalNetwork(
  family: EngineFamily,
  pageOrigin: string,
  targetIsLocal: boolean,
  userAllows: boolean,
): boolean {
  if (family !== 'chromium' || !targetIsLocal || !URL.canParse(pageOrigin)) return false;
  const page = new URL(pageOrigin);
  if (isLoopbackHost(page.hostname)) return false;
  return !userAllows || page.protocol !== 'https:';
}
