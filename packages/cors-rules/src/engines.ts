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
