import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, firefox, test } from '@playwright/test';
import type { RebindSite } from '@origin-lab/contract';
import { chromiumLaunch, firefoxLaunch } from '@origin-lab/engines';
import type { Page } from '@playwright/test';
import type { EnginePage, ExperimentResult } from '../../engines/engine.js';
import { openPage, readExperiment, waitForVerdict } from '../../engines/experiments.js';
import { expect } from '../../fixtures.js';
import { LOCAL_NETWORK_ENGINES } from '../../../services/pages/web/ts/rules/local-network-engines.js';
import { expectAsTheEnginesPageSays } from './engines-page-table.js';
import { siteConfig } from './site-config.js';

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
  const { rebind } = await siteConfig(origin);
  if (!rebind) throw new Error(`${origin} runs no rebinding lab (npm start -- --rebind)`);
  return rebind;
}

/**
 * Runs rebinding experiments at once, in one page of a Chromium or Firefox profile set to the
 * lab's resolver; countedPublic: the open server's attacker address ([::1] at its port) counted as
 * public, and the user's answer to Local Network Access no (headless Chromium answers no itself).
 */
async function runConfigured(
  browserName: string,
  url: string,
  ids: readonly string[],
  site: RebindSite,
  countedPublic = false,
): Promise<Record<string, ExperimentResult>> {
  const attacker = `[::1]:${site.ports.open}`;
  const dir = mkdtempSync(join(tmpdir(), 'origin-lab-rebind-'));
  const caFile = join(dir, 'resolver-ca.pem');
  writeFileSync(caFile, site.caPem);
  const runAll = async (page: Page) => {
    await openPage(page, url);
    for (const id of ids) await page.locator(`section#${id}`).getByRole('button', { name: 'Run' }).click();
    const results: Record<string, ExperimentResult> = {};
    for (const id of ids) {
      await waitForVerdict(page, id, ATTACK_MS);
      results[id] = await readExperiment(page, id);
    }
    return results;
  };
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
        return await runAll(context.pages()[0] ?? (await context.newPage()));
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
      return await runAll(await (await browser.newContext()).newPage());
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What one engine's rebinding run gave: both experiments as set up, and the open one with its attacker counted public. */
export interface RebindRun {
  asSetUp: Record<string, ExperimentResult>;
  countedPublic: ExperimentResult;
}

/**
 * Both rebinding experiments in a profile set to the lab's resolver, and beside it (a second
 * browser, at the same time) the open one with its attacker counted public: one wait on each
 * engine's DNS cache for the three, not three in a row.
 */
export async function runRebinding(browserName: string, origin: string): Promise<RebindRun> {
  const site = await rebindSite(origin);
  const url = `${origin}/local-network.html`;
  const [asSetUp, publicRun] = await Promise.all([
    runConfigured(browserName, url, ['rebind-open', 'rebind-checked'], site),
    runConfigured(browserName, url, ['rebind-open'], site, true),
  ]);
  return { asSetUp, countedPublic: publicRun['rebind-open']! };
}

/** How long a test that may wait for the whole run may take. */
export const REBIND_TEST_MS = ATTACK_MS + 60_000;

/**
 * One rebinding experiment, as set up: in Chromium and Firefox what the attack's specification
 * says (the name points at the local server, whose answer decides); in WebKit, the attack page
 * never loads. How long each engine took is the page's to show; it is not asserted.
 */
export async function rebindTest(
  page: EnginePage,
  browserName: string,
  origin: string,
  run: () => Promise<RebindRun>,
  id: string,
  expected: Record<string, unknown>,
): Promise<void> {
  if (browserName === 'webkit') {
    await page.open(`${origin}/local-network.html`);
    const result = await page.runExperiment(id, 30_000);
    expect(result.observed).toEqual({ outcome: 'not-loaded' });
    expect(result.state).toBe('known-difference');
    expectAsTheEnginesPageSays(LOCAL_NETWORK_ENGINES, 'webkit', id, result.observed);
    return;
  }
  const result = (await run()).asSetUp[id]!;
  expect(result.observed).toMatchObject(expected);
  expect(result.state).toBe('agree');
  if (id === 'rebind-checked') expectAsTheEnginesPageSays(LOCAL_NETWORK_ENGINES, browserName, id, result.observed);
  test.info().annotations.push({ type: 'rebound after', description: `${result.observed.waitedMs} ms` });
}

/**
 * The open server's rebinding with the attack page counted public, as a real attacker's page is:
 * Local Network Access then decides. Measured: Chromium refuses every request once the name points
 * at loopback (a page that is not a secure context may not reach a more private address); Firefox
 * 153 lets the same-origin request through, refused permission or not.
 */
export function expectCountedPublic(browserName: string, result: ExperimentResult): void {
  expect(result.observed).toMatchObject(
    browserName === 'chromium' ? { outcome: 'failed' } : { outcome: 'read', status: 200 },
  );
  expect(result.state).toBe('agree');
  expectAsTheEnginesPageSays(LOCAL_NETWORK_ENGINES, browserName, 'rebind-open', result.observed);
}
