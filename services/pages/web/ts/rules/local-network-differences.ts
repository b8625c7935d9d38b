import { CHROMIUM, FIREFOX, WEBKIT, type KnownDifference } from './known-differences.js';

/**
 * The Local Network Access page's engine differences beyond the first (which known-differences.ts
 * keeps): a list of its own so that only that page and the engines page load it (every other page
 * stays under its 100 KB). The engines page shows both lists in one table.
 */
export const LOCAL_NETWORK_DIFFERENCES: readonly KnownDifference[] = [
  {
    page: 'local-network',
    experiment: 'lna-iframe',
    engine: 'chromium',
    did: 'a frame Local Network Access stopped still fires load (its error page): only the server tells',
    says: 'a stopped frame still fires load here (its error page): the server view tells',
    measured: CHROMIUM,
    departsFromSpec: false,
  },
  {
    page: 'local-network',
    experiment: 'lna-websocket',
    engine: 'firefox',
    did: 'connects a WebSocket to loopback that the user refused: its Local Network Access covers WebSocket from 154',
    says: 'this Firefox does not check a WebSocket yet (from 154): it connects',
    measured: FIREFOX,
    departsFromSpec: false,
  },
  {
    page: 'local-network',
    experiment: 'lna-target-address-space-wrong',
    engine: 'chromium',
    did: 'fails a fetch whose targetAddressSpace is not the address space it reached, even from a page on loopback; the others ignore the option',
    says: 'a wrong targetAddressSpace fails the fetch before anything is sent',
    measured: CHROMIUM,
    departsFromSpec: false,
  },
  {
    page: 'local-network',
    experiment: 'rebind-open',
    engine: 'chromium',
    did: 'rebinds after about 60 s, whatever the TTL; with the attack page counted public, Local Network Access refuses every rebound request',
    says: 'Chromium keeps a DNS answer about a minute; counted public, its Local Network Access refuses the rebound requests',
    measured: CHROMIUM,
    departsFromSpec: false,
  },
  {
    page: 'local-network',
    experiment: 'rebind-open',
    engine: 'firefox',
    did: 'rebinds after the TTL (about 1.6 s); with the attack page counted public and the permission refused, still reads: the request is same-origin',
    says: 'Firefox rebinds after the TTL, and its Local Network Access lets the same-origin request through',
    measured: FIREFOX,
    departsFromSpec: false,
  },
  ...(['rebind-open', 'rebind-checked'] as const).map((experiment) => ({
    page: 'local-network',
    experiment,
    engine: 'webkit' as const,
    did: "cannot be pointed at the lab's resolver (it asks the system's): the attack page never loads",
    says: "WebKit resolves through the system, never the lab's resolver",
    measured: WEBKIT,
    departsFromSpec: true,
  })),
];
