import { ConfigError, envList } from '@origin-lab/server-kit';

/**
 * STUDENT_ORIGINS: the addresses a class opens, as the front serves them (docker compose sets it
 * from SITE_A, SITE_B and HTTPS_PORT). Each becomes its origin, so a default port drops out:
 * https://a.localhost:443 is written https://a.localhost.
 */
export function studentOriginsFromEnv(env: Record<string, string | undefined>): string[] {
  return envList(env, 'STUDENT_ORIGINS', []).map((raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`STUDENT_ORIGINS: ${JSON.stringify(raw)} is not an absolute URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new ConfigError(`STUDENT_ORIGINS: ${JSON.stringify(raw)} is not http or https`);
    return url.origin;
  });
}

/** What the pages server prints on start for the teacher to hand out. */
export function studentAnnouncement(origins: readonly string[]): string {
  return ['', 'Origin Lab: give the class these addresses', ...origins.map((origin) => `  ${origin}/`), ''].join('\n');
}
