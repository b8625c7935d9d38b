import { assertHeaderSafeSecret } from '@origin-lab/server-kit';
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
  /** The variable of each option, named by the errors that tell whoever runs the lab what to change. */
  variables: UpstreamVariables;
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

/** The environment variable that sets each option: the wiring gives them from its settings table. */
export type UpstreamVariables = Record<keyof UpstreamOptions, string>;

/**
 * Checks the options (a bad URL or key is a ConfigError naming its variable) and derives what
 * requests read. now: the cache's clock. The key is checked here as well as where the environment
 * is read, since tests and the launcher pass one without the environment.
 */
export function proxySettings(
  upstream: UpstreamOptions,
  variables: UpstreamVariables,
  now: () => number,
): ProxySettings {
  assertHeaderSafeSecret(upstream.apiKey, variables.apiKey);
  return {
    base: parseUpstreamBase(upstream.url, variables),
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
    variables,
  };
}
