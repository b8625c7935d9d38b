/** Which origin is "this" and which is "the other": computed from location.origin at load. */
import type { HostPair } from '@origin-lab/contract';

export interface SiteOrigins {
  self: string;
  /** null when this host is not in any configured pair. */
  other: string | null;
}

/** The other origin: the host swapped for its partner, scheme and port kept. */
export function otherOrigin(origin: string, pairs: readonly HostPair[]): string | null {
  const url = new URL(origin);
  const host = url.hostname.toLowerCase();
  for (const [first, second] of pairs) {
    const partner = host === first ? second : host === second ? first : undefined;
    if (partner !== undefined) {
      url.hostname = partner;
      return url.origin;
    }
  }
  return null;
}

export type OriginRole = 'this origin' | 'other origin' | 'elsewhere';

/** How a URL relates to the page: same origin, the partner origin, or neither. */
export function originRole(url: string, site: SiteOrigins, base: string = site.self): OriginRole {
  let origin: string;
  try {
    origin = new URL(url, base).origin;
  } catch {
    return 'elsewhere';
  }
  if (origin === site.self) return 'this origin';
  if (origin === site.other) return 'other origin';
  return 'elsewhere';
}

interface SiteGlobal {
  ORIGIN_LAB_SITE?: { pairs?: HostPair[] };
}

/** Reads the pairs that /site-config.js (generated from SITE_PAIRS) put on window. */
export function currentSite(): SiteOrigins {
  const pairs = (globalThis as SiteGlobal).ORIGIN_LAB_SITE?.pairs ?? [];
  return { self: location.origin, other: otherOrigin(location.origin, pairs) };
}
