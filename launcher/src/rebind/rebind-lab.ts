import type { RebindSite } from '@origin-lab/contract';
import { localAuthority } from '@origin-lab/server-kit/local-authority';
import { RebindingAnswers, REBIND_DOMAIN, startResolver } from './resolver.js';
import { startLocalServer } from './local-servers.js';

/**
 * `npm start -- --rebind`: the DNS rebinding lab beside the service (never the api or the pages):
 * a resolver the browser is told to use, and two local servers, one that checks Host and Origin
 * and one that does not. What the pages need to know of it is the contract's RebindSite (in
 * /site-config.js).
 */

export interface RebindLab {
  site: RebindSite;
  stop(): Promise<void>;
}

export async function startRebindLab(): Promise<RebindLab> {
  const tls = localAuthority('origin-lab rebinding resolver (this machine only)', ['127.0.0.1']);
  const stops: (() => Promise<void>)[] = [];
  try {
    const open = await startLocalServer('open');
    stops.push(open.stop);
    const checked = await startLocalServer('checked');
    stops.push(checked.stop);
    const resolver = await startResolver(new RebindingAnswers({ attacker: '::1', victim: '127.0.0.1' }), tls);
    stops.push(resolver.stop);
    return {
      site: {
        resolver: resolver.template,
        caPem: tls.caPem,
        domain: REBIND_DOMAIN,
        ports: { open: open.port, checked: checked.port },
      },
      stop: async () => {
        for (const stop of stops.reverse()) await stop();
      },
    };
  } catch (err) {
    for (const stop of stops.reverse()) await stop();
    throw err;
  }
}
