import { assertUsableKey } from './proxy-key.js';
import { parseUpstreamBase, type UpstreamBase } from './proxy-paths.js';

/** The proxy's settings, checked and derived once when the app is built; every request reads these. */
export interface ProxySettings {
  base: UpstreamBase;
  apiKey: string;
  timeoutMs: number;
  maxBodyBytes: number;
  maxQueryChars: number;
  cacheTtlSeconds: number;
  cache: { ttlMs: number; maxEntries: number; maxBytes: number; now: () => number };
}

/** What the proxy is configured with: the third party, the key, and the bounds of a call and of the cache. */
export interface UpstreamOptions {
  /** Base URL of the third party; the proxy only ever appends an allowed path and the query. */
  url: string;
  /** Held server-side only. */
  apiKey: string;
  timeoutMs: number;
  cacheTtlSeconds: number;
  cacheMaxEntries: number;
  cacheMaxBytes: number;
  /** Largest upstream answer body the proxy reads (502 past it). */
  maxBodyBytes: number;
  /** Longest query string the proxy forwards (414 past it). */
  maxQueryChars: number;
}

/** Checks the options (a bad URL or key is a ConfigError) and derives what requests read. now: the cache's clock. */
export function proxySettings(upstream: UpstreamOptions, now: () => number): ProxySettings {
  assertUsableKey(upstream.apiKey);
  return {
    base: parseUpstreamBase(upstream.url),
    apiKey: upstream.apiKey,
    timeoutMs: upstream.timeoutMs,
    maxBodyBytes: upstream.maxBodyBytes,
    maxQueryChars: upstream.maxQueryChars,
    cacheTtlSeconds: upstream.cacheTtlSeconds,
    cache: {
      ttlMs: upstream.cacheTtlSeconds * 1_000,
      maxEntries: upstream.cacheMaxEntries,
      maxBytes: upstream.cacheMaxBytes,
      now,
    },
  };
}
