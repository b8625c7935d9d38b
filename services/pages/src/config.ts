import { envString } from '@origin-lab/server-kit';
import type { HostPair } from '@origin-lab/contract';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SITE_PAIRS, parseSitePairs } from './site-pairs.js';

/** Everything the pages server needs; createApp takes it whole and reads nothing else. */
export interface PagesConfig {
  /** The folder of built pages. */
  root: string;
  /** Host pairs the pages swap between. */
  sitePairs: HostPair[];
}

/** The build writes the pages beside the compiled server, in dist/public. */
export const defaultPagesRoot = fileURLToPath(new URL('./public', import.meta.url));

/**
 * The settings from the environment: PAGES_ROOT and SITE_PAIRS, each falling back to its
 * default when unset or empty. The only place the pages' defaults live.
 */
export function pagesConfigFromEnv(env: Record<string, string | undefined>): PagesConfig {
  return {
    root: envString(env, 'PAGES_ROOT', defaultPagesRoot),
    sitePairs: parseSitePairs(envString(env, 'SITE_PAIRS', DEFAULT_SITE_PAIRS)),
  };
}
