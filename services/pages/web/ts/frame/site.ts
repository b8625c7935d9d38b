/** Which origin is "this" and which is "the other": computed from location.origin at load. */
import type { HostPair } from '@origin-lab/contract';
import { originOnHost } from '@origin-lab/contract/site';

export interface SiteOrigins {
  self: string;
  /** null when this host is not in any configured pair. */
  other: string | null;
  /** The same server under its third name (SITE_C), scheme and port kept; null when it has none. */
  third: string | null;
}

/** The other origin: the host swapped for its partner, scheme and port kept. */
export function otherOrigin(origin: string, pairs: readonly HostPair[]): string | null {
  const host = new URL(origin).hostname.toLowerCase();
  for (const [first, second] of pairs) {
    const partner = host === first ? second : host === second ? first : undefined;
    if (partner !== undefined) return originOnHost(origin, partner);
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
  ORIGIN_LAB_SITE?: { pairs?: HostPair[]; third?: string | null };
}

/** Reads the pairs and the third name that /site-config.js (from SITE_PAIRS and SITE_C) put on window. */
export function currentSite(): SiteOrigins {
  const site = (globalThis as SiteGlobal).ORIGIN_LAB_SITE;
  const third = site?.third ?? null;
  return {
    self: location.origin,
    other: otherOrigin(location.origin, site?.pairs ?? []),
    third: third === null ? null : originOnHost(location.origin, third),
  };
}
