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

/** Where the lab listens on loopback; 0 takes a free port. */
export interface RebindPorts {
  resolver: number;
  open: number;
  checked: number;
}

export async function startRebindLab(ports: RebindPorts = { resolver: 0, open: 0, checked: 0 }): Promise<RebindLab> {
  const tls = localAuthority('origin-lab rebinding resolver (this machine only)', ['127.0.0.1']);
  const stops: (() => Promise<void>)[] = [];
  try {
    const open = await startLocalServer('open', ports.open);
    stops.push(open.stop);
    const checked = await startLocalServer('checked', ports.checked);
    stops.push(checked.stop);
    const answers = new RebindingAnswers({ attacker: '::1', victim: '127.0.0.1' });
    const resolver = await startResolver(answers, tls, ports.resolver);
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
