import net from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@origin-lab/server-kit';
import { spawnWatched, type WatchedProcess } from '@origin-lab/test-kit';

/**
 * The rebinding lab as a service of its own (compose's `rebind` profile runs this program on the
 * host's network): it listens at the ports it is given, tells the pages its settings through a
 * file, and removes the file when it stops. A bad setting or a port in use is one line, exit 2.
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'origin-lab-rebind-service-'));
const children: WatchedProcess[] = [];
afterEach(() => {
  for (const { child } of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serveLab(env: Record<string, string>): WatchedProcess {
  const launched = spawnWatched(process.execPath, ['launcher/dist/rebind/serve.js'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  children.push(launched);
  return launched;
}

describe('the rebinding lab as a service of its own', () => {
  it('listens at its ports, writes its settings for the pages, and removes them on SIGTERM', async () => {
    const [resolver, open, checked] = [await freePort(), await freePort(), await freePort()];
    const siteFile = join(dir, 'rebind.json');
    const lab = serveLab({
      REBIND_RESOLVER_PORT: String(resolver),
      REBIND_OPEN_PORT: String(open),
      REBIND_CHECKED_PORT: String(checked),
      REBIND_SITE_FILE: siteFile,
    });
    await lab.waitFor(/rebinding lab listening/, 15_000, 'the rebinding lab listening');
    const site = JSON.parse(readFileSync(siteFile, 'utf8'));
    expect(site).toMatchObject({
      resolver: `https://127.0.0.1:${resolver}/dns-query{?dns}`,
      domain: 'rebind.test',
      ports: { open, checked },
    });
    expect(site.caPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    // The victim's side of each local server answers on 127.0.0.1, the attacker's page on [::1].
    expect((await fetch(`http://127.0.0.1:${checked}/secret`)).status).toBe(200);
    expect(await (await fetch(`http://[::1]:${open}/`)).text()).toContain('A rebinding attack');
    lab.child.kill('SIGTERM');
    expect(await lab.exitWithin(5_000)).toBe(0);
    expect(existsSync(siteFile)).toBe(false);
  });

  it('refuses a port that is not one, naming the variable: exit 2', async () => {
    const lab = serveLab({ REBIND_OPEN_PORT: 'eighty', REBIND_SITE_FILE: join(dir, 'never.json') });
    expect(await lab.exitWithin(10_000)).toBe(2);
    expect(lab.stderr()).toMatch(/^rebinding lab: REBIND_OPEN_PORT/);
    expect(lab.stderr().trim().split('\n')).toHaveLength(1);
  });

  it('says which ports when one is taken: exit 2', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const lab = serveLab({
        REBIND_RESOLVER_PORT: String(port),
        REBIND_OPEN_PORT: String(await freePort()),
        REBIND_CHECKED_PORT: String(await freePort()),
        REBIND_SITE_FILE: join(dir, 'never.json'),
      });
      expect(await lab.exitWithin(10_000)).toBe(2);
      expect(lab.stderr()).toMatch(
        new RegExp(`^rebinding lab: the rebinding lab cannot listen \\(ports ${port}, .*EADDRINUSE`),
      );
      expect(existsSync(join(dir, 'never.json'))).toBe(false);
    } finally {
      taken.close();
    }
  });
});
