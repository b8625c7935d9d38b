import { readFile } from 'node:fs/promises';
import type { RebindSite } from '@origin-lab/contract';

/**
 * The rebinding lab's settings when it runs as a service of its own (compose's `rebind` profile):
 * the file it writes (REBIND_SITE_FILE), read again at most every refreshMs, so the pages follow
 * the lab's starts and stops. No file, or one that is not a RebindSite: the lab is off.
 */
export function rebindSiteFromFile(file: string, refreshMs = 2_000): () => Promise<RebindSite | null> {
  let last: { at: number; site: Promise<RebindSite | null> } | null = null;
  return () => {
    const now = Date.now();
    if (last === null || now - last.at >= refreshMs)
      last = {
        at: now,
        site: readFile(file, 'utf8').then(
          (text) => asRebindSite(text),
          () => null,
        ),
      };
    return last.site;
  };
}

const isPort = (value: unknown) => Number.isInteger(value) && (value as number) > 0 && (value as number) < 65_536;

/** The file's text as a RebindSite, or null when it is not one. */
export function asRebindSite(text: string): RebindSite | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const site = value as Partial<RebindSite> | null;
  const ok =
    typeof site?.resolver === 'string' &&
    /^https:\/\/127\.0\.0\.1:\d+\/dns-query\{\?dns\}$/.test(site.resolver) &&
    typeof site.caPem === 'string' &&
    site.caPem.startsWith('-----BEGIN CERTIFICATE-----') &&
    typeof site.domain === 'string' &&
    /^[a-z0-9.-]+$/.test(site.domain) &&
    isPort(site.ports?.open) &&
    isPort(site.ports?.checked);
  return ok ? { resolver: site.resolver!, caPem: site.caPem!, domain: site.domain!, ports: site.ports! } : null;
}
