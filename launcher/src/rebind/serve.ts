import { rmSync, writeFileSync } from 'node:fs';
import { ConfigError, readSettings, stopOnSignals } from '@origin-lab/server-kit';
import { startRebindLab } from './rebind-lab.js';
import { REBIND_SETTINGS } from './settings.js';

/**
 * The DNS rebinding lab as a service of its own: compose's `rebind` service, on the host's network
 * (its servers must be on the loopback of the machine the browser runs on). It writes what the
 * pages need (the contract's RebindSite) to a file the pages server reads, and removes it on stop.
 * A bad setting or a port in use: one line and exit 2.
 */
try {
  const { resolver, open, checked, siteFile } = readSettings(REBIND_SETTINGS, process.env);
  const lab = await startRebindLab({ resolver, open, checked }).catch((err: Error) => {
    throw new ConfigError(`the rebinding lab cannot listen (ports ${resolver}, ${open}, ${checked}): ${err.message}`);
  });
  writeFileSync(siteFile, `${JSON.stringify(lab.site)}\n`);
  console.log(
    JSON.stringify({ msg: 'rebinding lab listening', resolver: lab.site.resolver, ports: lab.site.ports, siteFile }),
  );
  stopOnSignals(async () => {
    rmSync(siteFile, { force: true });
    await lab.stop();
  });
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`rebinding lab: ${err.message}`);
  process.exit(2);
}
