import { ConfigError } from './env.js';
import { setting, type Env, type Setting } from './settings.js';

/** A host name or an IPv4 address: no scheme, no port, no path. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Whether value is a lower-case host name (or IPv4 address) a site variable may hold. */
export function isHostName(value: string): boolean {
  return HOST_NAME.test(value);
}

/** The third name of the embedded default and the docker compose set: *.localhost reaches this machine in every browser. */
export const DEFAULT_THIRD_SITE = 'c.localhost';

/**
 * SITE_C, as the api and the pages read it: a third host name of the same server (the lab's
 * redirect to a third origin), or null for `none`.
 */
export function thirdSiteSetting(doc: string): Setting<string | null> {
  return setting.custom<string | null>('SITE_C', DEFAULT_THIRD_SITE, {
    doc,
    accepts: 'a host name, or `none`',
    read: (env: Env, fallback) => {
      const raw = env.SITE_C?.trim().toLowerCase() ?? '';
      if (raw === '') return fallback;
      if (raw === 'none') return null;
      if (!isHostName(raw))
        throw new ConfigError(`SITE_C must be a host name such as c.localhost, or none; got "${env.SITE_C}"`);
      return raw;
    },
  });
}
