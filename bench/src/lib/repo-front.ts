import { startCaddy, type RunningCaddy } from '@origin-lab/launcher/caddy';
import { freePort } from '@origin-lab/server-kit';
import type { Server } from './servers.js';

export interface RepoFront {
  caddy: RunningCaddy;
  httpsPort: number;
  httpPort: number;
}

/**
 * The repository's Caddyfile in Debian's Caddy, for a.localhost and b.localhost on free ports, in
 * front of these api processes (its `list` mode: every address, health-checked). The pages'
 * routes go to the first api: a benchmark asks for no page.
 */
export async function startRepoFront(
  apis: readonly Server[],
  ports?: { httpsPort: number; httpPort: number },
): Promise<RepoFront> {
  const { httpsPort, httpPort } = ports ?? { httpsPort: await freePort(), httpPort: await freePort() };
  const addresses = apis.map((api) => `127.0.0.1:${api.port}`);
  const caddy = await startCaddy({
    sites: ['a.localhost', 'b.localhost'],
    httpsPort,
    httpPort,
    apiUpstream: addresses.join(' '),
    pagesUpstream: addresses[0]!,
  });
  return { caddy, httpsPort, httpPort };
}
