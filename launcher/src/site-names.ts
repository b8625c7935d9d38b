import { ConfigError, isHostName } from '@origin-lab/server-kit';

export type SiteNames = [string, string];

/**
 * SITE_A and SITE_B: the two names students type, given together or not at all. Undefined when
 * neither is set; the caller picks its own default then.
 */
export function siteNamesFromEnv(env: Record<string, string | undefined>): SiteNames | undefined {
  const a = env.SITE_A?.trim().toLowerCase() || undefined;
  const b = env.SITE_B?.trim().toLowerCase() || undefined;
  if (a === undefined && b === undefined) return undefined;
  if (a === undefined || b === undefined)
    throw new ConfigError(`set both SITE_A and SITE_B (two names for the same server), or neither`);
  for (const [name, value] of [
    ['SITE_A', a],
    ['SITE_B', b],
  ] as const) {
    if (!isHostName(value))
      throw new ConfigError(
        `${name} must be a host name such as lab-a.school.example, without scheme or port; got "${value}"`,
      );
  }
  if (a === b) throw new ConfigError(`SITE_A and SITE_B must be two different names; both are "${a}"`);
  return [a, b];
}

/**
 * Whether Caddy gives this name a certificate from its own local CA rather than from ACME. The
 * rule of Caddy 2.6 (Debian's, and the compose image's): localhost, *.localhost, *.local and IP
 * addresses. Newer Caddy adds *.internal and *.home.arpa; 2.6 treats them as public.
 */
export function isLocalName(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    /^\d{1,3}(\.\d{1,3}){3}$/.test(host)
  );
}
