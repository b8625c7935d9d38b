import type { ApiConfig } from '../config.js';
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

export function proxySettings(config: ApiConfig): ProxySettings {
  const upstream = config.upstream;
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
      now: config.now,
    },
  };
}
