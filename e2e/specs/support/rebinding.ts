import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, firefox, test } from '@playwright/test';
import type { RebindSite } from '@origin-lab/contract';
import { chromiumLaunch, firefoxLaunch } from '@origin-lab/engines';
import { openPage, runExperiment } from '../../engines/experiments.js';
import { expect } from '../../fixtures.js';
import type { Alone } from './per-experiment.js';

/**
 * The rebinding experiments of the Local Network Access page, as a person runs them: a browser
 * profile set to ask the lab's resolver (DNS over HTTPS) and to trust the authority that signed
 * its certificate, nothing else changed (each engine's own DNS cache). Chromium: its "secure DNS"
 * setting in the profile's Local State; Firefox: its Trusted Recursive Resolver settings, with
 * answers that point at private and loopback addresses allowed (network.trr.allow-rfc1918).
 * WebKitGTK takes names from the system's resolver only: the page says so, as a known difference.
 */

/** How long one attack may take: the page's own wait (90 s, past Chromium's minute of DNS cache) and the start. */
const ATTACK_MS = 110_000;

/** The rebinding lab's settings, read from /site-config.js as the page reads them. */
async function rebindSite(origin: string): Promise<RebindSite> {
  const script = await (await fetch(`${origin}/site-config.js`)).text();
  const site = JSON.parse(
    script
      .slice(script.indexOf('=') + 1)
      .trim()
      .replace(/;$/, ''),
  ) as { rebind?: RebindSite };
  if (!site.rebind) throw new Error(`${origin} runs no rebinding lab (npm start -- --rebind)`);
  return site.rebind;
}

/**
 * Runs one rebinding experiment in a Chromium or Firefox profile set to the lab's resolver;
 * countedPublic: the attacker's address ([::1] at the server's port) counted as public, and the
 * user's answer to Local Network Access no (headless Chromium answers no itself).
 */
async function runConfigured(browserName: string, url: string, id: string, site: RebindSite, countedPublic = false) {
  const attacker = `[::1]:${site.ports[id === 'rebind-open' ? 'open' : 'checked']}`;
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-rebind-'));
  const caFile = join(dir, 'resolver-ca.pem');
  writeFileSync(caFile, site.caPem);
  try {
    if (browserName === 'chromium') {
      const profile = join(dir, 'profile');
      mkdirSync(profile);
      writeFileSync(
        join(profile, 'Local State'),
        JSON.stringify({ dns_over_https: { mode: 'secure', templates: site.resolver } }),
      );
      const options = chromiumLaunch([caFile]);
      if (countedPublic) options.args = [...(options.args ?? []), `--ip-address-space-overrides=${attacker}=public`];
      const context = await chromium.launchPersistentContext(profile, options);
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await openPage(page, url);
        return await runExperiment(page, id, ATTACK_MS);
      } finally {
        await context.close();
      }
    }
    const browser = await firefox.launch(
      firefoxLaunch([caFile], [], {
        'network.trr.mode': 3,
        'network.trr.uri': site.resolver.replace('{?dns}', ''),
        'network.trr.allow-rfc1918': true,
        'network.trr.confirmationNS': 'skip',
        ...(countedPublic && {
          'network.lna.address_space.public.override': attacker,
          'permissions.default.loopback-network': 2,
        }),
      }),
    );
    try {
      const page = await (await browser.newContext()).newPage();
      await openPage(page, url);
      return await runExperiment(page, id, ATTACK_MS);
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One rebinding experiment: in Chromium and Firefox, what the spec of the attack says (the name
 * points at the local server, whose answer decides); in WebKit, the attack page never loads.
 * How long each engine took is the page's to show; it is not asserted.
 */
export async function rebindTest(
  { page, browserName, origins }: Parameters<Alone>[0],
  id: string,
  expected: Record<string, unknown>,
): Promise<void> {
  test.setTimeout(ATTACK_MS + 60_000);
  const url = `${origins.other}/local-network.html`;
  if (browserName === 'webkit') {
    await page.open(url);
    const result = await page.runExperiment(id, 30_000);
    expect(result.observed).toEqual({ outcome: 'not-loaded' });
    expect(result.state).toBe('known-difference');
    return;
  }
  const result = await runConfigured(browserName, url, id, await rebindSite(origins.other));
  expect(result.observed).toMatchObject(expected);
  expect(result.state).toBe('agree');
  test.info().annotations.push({ type: 'rebound after', description: `${result.observed.waitedMs} ms` });
}

/**
 * The open server's rebinding with the attack page counted public, as a real attacker's page is:
 * Local Network Access then decides. Measured: Chromium refuses every request once the name points
 * at loopback (a page that is not a secure context may not reach a more private address); Firefox
 * 153 lets the same-origin request through, refused permission or not.
 */
export async function rebindCountedPublic(browserName: string, origin: string): Promise<void> {
  test.setTimeout(ATTACK_MS + 60_000);
  const result = await runConfigured(
    browserName,
    `${origin}/local-network.html`,
    'rebind-open',
    await rebindSite(origin),
    true,
  );
  expect(result.observed).toMatchObject(
    browserName === 'chromium' ? { outcome: 'failed' } : { outcome: 'read', status: 200 },
  );
  expect(result.state).toBe('agree');
}
