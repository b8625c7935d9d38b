import type { RebindSite } from '@origin-lab/contract';

/** What a stack's /site-config.js tells its pages about the lab's own small servers (as the pages read it). */
export interface SiteConfig {
  rebind?: RebindSite;
  privateAddress?: string;
}

export async function siteConfig(origin: string): Promise<SiteConfig> {
  const script = await (await fetch(`${origin}/site-config.js`)).text();
  return JSON.parse(
    script
      .slice(script.indexOf('=') + 1)
      .trim()
      .replace(/;$/, ''),
  ) as SiteConfig;
}
