import type { HostPair } from '@origin-lab/contract';
import { startLauncher } from './embedded.js';
import type { Stack } from './stack.js';

/**
 * Two names for one server on a LAN, from two wildcard-DNS services that embed the address in
 * the name (docs/classroom.md). Two services, so two registrable domains: the pages are
 * cross-site to each other, as with a.localhost and b.localhost. Public DNS really answers
 * these with 127.0.0.1; the suite has no DNS, so it tells the browsers the same (loopbackNames).
 */
const lanSites: HostPair = ['127-0-0-1.nip.io', '127-0-0-1.sslip.io'];
/** The third name a teacher gives (SITE_C): nip.io answers any name ending in the address as well. */
const lanThird = 'c.127-0-0-1.nip.io';

/**
 * A class on a LAN as docs/classroom.md sets it up without a certificate: `npm start` with
 * SITE_A and SITE_B, plain HTTP on one port. Pages there are not a secure context.
 */
export async function startLanStack(): Promise<Stack> {
  const { port, stop } = await startLauncher(
    { HOST: '127.0.0.1', SITE_A: lanSites[0], SITE_B: lanSites[1], SITE_C: lanThird },
    new RegExp(`http://${lanSites[0].replaceAll('.', '\\.')}:(\\d+)/`),
    'the LAN stack (npm start with SITE_A and SITE_B)',
  );
  return {
    name: 'lan',
    origins: [`http://${lanSites[0]}:${port}`, `http://${lanSites[1]}:${port}`],
    third: `http://${lanThird}:${port}`,
    loopbackNames: [...lanSites, lanThird],
    stop,
  };
}
