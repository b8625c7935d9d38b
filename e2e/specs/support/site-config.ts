import http from 'node:http';
import type { RebindSite } from '@origin-lab/contract';

/** What a stack's /site-config.js tells its pages about the lab's own small servers (as the pages read it). */
export interface SiteConfig {
  rebind?: RebindSite;
  privateAddress?: string;
}

/**
 * GET origin/site-config.js over plain HTTP. A name under .localhost is asked for at 127.0.0.1
 * with its Host kept, as browsers resolve such names (the system's resolver may not know them).
 */
function siteConfigText(origin: string): Promise<string> {
  const url = new URL('/site-config.js', origin);
  if (url.protocol !== 'http:') throw new Error(`${origin}: the site config is read over http:// only`);
  const host = url.hostname.endsWith('.localhost') ? '127.0.0.1' : url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host, port: url.port, path: url.pathname, headers: { host: url.host }, timeout: 10_000, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: status ${res.statusCode}`)),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within 10 s`)));
    req.on('error', reject);
  });
}

export async function siteConfig(origin: string): Promise<SiteConfig> {
  const script = await siteConfigText(origin);
  return JSON.parse(
    script
      .slice(script.indexOf('=') + 1)
      .trim()
      .replace(/;$/, ''),
  ) as SiteConfig;
}
