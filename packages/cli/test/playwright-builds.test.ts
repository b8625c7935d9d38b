import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findEngines, type FoundEngine } from '@origin-lab/engines';
import type { DriverLaunch } from '../src/drivers/driver.js';
import { driverFor } from '../src/drivers/launch.js';
import { playwrightBuildOptions } from '../src/drivers/playwright.js';

// Playwright's own Firefox and WebKit builds: found in its cache and started through
// playwright-core's launchers. The builds are downloads these machines cannot make, so this is
// data: where discovery finds them (a Playwright-shaped folder whose program is never started),
// which driver starts them and with which options. Untested with the real builds (docs/check.md).

// The builds playwright-core drives, as its own browsers.json pins them.
const manifest = createRequire(import.meta.url).resolve('playwright-core/package.json');
const pinned = (
  JSON.parse(readFileSync(join(dirname(manifest), 'browsers.json'), 'utf8')) as {
    browsers: { name: string; revision: string; browserVersion: string }[];
  }
).browsers;
const build = (name: string) => pinned.find((browser) => browser.name === name)!;

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-playwright-builds-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A Playwright-shaped cache with the given revision folders, each holding a stand-in program at the build's place. */
function cacheWith(folders: Record<string, string>): string {
  const cache = mkdtempSync(join(scratch, 'ms-playwright-'));
  for (const [folder, program] of Object.entries(folders)) {
    mkdirSync(dirname(join(cache, folder, program)), { recursive: true });
    writeFileSync(join(cache, folder, program), '#!/bin/sh\nexit 1\n');
    chmodSync(join(cache, folder, program), 0o755);
  }
  return cache;
}

const launch = (over: Partial<DriverLaunch> = {}): DriverLaunch => ({
  origins: [],
  timeoutMs: 10_000,
  localNetwork: 'grant',
  targetAddresses: [],
  connect: {},
  programs: {},
  session: null,
  trust: [],
  urls: [],
  resolve: {},
  ...over,
});

const found = (over: Partial<FoundEngine>): FoundEngine => ({
  family: 'webkit',
  product: 'Playwright WebKit',
  path: '/c/webkit-1/pw_run.sh',
  driver: 'playwright-webkit',
  via: "Playwright's cache",
  version: '27.2',
  label: 'Playwright WebKit 27.2',
  ...over,
});

describe("Playwright's own Firefox and WebKit builds", () => {
  it("are found in Playwright's cache before the system's engines, labelled with the build's version", async () => {
    const webkit = build('webkit');
    const firefox = build('firefox');
    const cache = cacheWith({
      [`webkit-${webkit.revision}`]: 'pw_run.sh',
      [`firefox-${firefox.revision}`]: 'firefox/firefox',
    });
    const discovery = await findEngines({
      env: { PLAYWRIGHT_BROWSERS_PATH: cache, PATH: '' },
      platform: 'linux',
      arch: 'x64',
      others: true,
    });
    const engine = (family: string) => discovery.engines.find((entry) => entry.family === family);
    expect(engine('webkit')).toMatchObject({
      driver: 'playwright-webkit',
      via: "Playwright's cache",
      path: join(cache, `webkit-${webkit.revision}`, 'pw_run.sh'),
      label: `Playwright WebKit ${webkit.browserVersion}`,
    });
    expect(engine('firefox')).toMatchObject({
      driver: 'playwright-firefox',
      label: `Playwright Firefox ${firefox.browserVersion.split('.')[0]}`,
    });
  });

  it("a build of another Playwright version is reported with the command that installs this one's", async () => {
    const webkit = build('webkit');
    const cache = cacheWith({ 'webkit-1000': 'pw_run.sh' });
    const discovery = await findEngines({
      env: { PLAYWRIGHT_BROWSERS_PATH: cache, PATH: '' },
      platform: 'linux',
      arch: 'x64',
      others: true,
    });
    const other = discovery.others.find((entry) => entry.path === join(cache, 'webkit-1000', 'pw_run.sh'));
    expect(other?.driver).toBe('unsupported');
    expect(other?.unsupported).toContain(`drives webkit-${webkit.revision}`);
    expect(other?.unsupported).toMatch(/npx playwright@[\d.]+ install webkit$/);
    expect(discovery.engines.find((entry) => entry.family === 'webkit')?.path).not.toBe(other?.path);
  });

  it("origin-lab engines lists the build it will use, and the other version's with its install command", () => {
    const webkit = build('webkit');
    const cache = cacheWith({ [`webkit-${webkit.revision}`]: 'pw_run.sh', 'webkit-1000': 'pw_run.sh' });
    const program = fileURLToPath(new URL('../bin/origin-lab.js', import.meta.url));
    const out = execFileSync(process.execPath, [program, 'engines'], {
      env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: cache, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const [uses, others] = out.split('Also found, not used:');
    expect(uses).toContain(
      `webkit   Playwright WebKit ${webkit.browserVersion}\n    ${join(cache, `webkit-${webkit.revision}`, 'pw_run.sh')} (Playwright's cache)`,
    );
    expect(others).toContain(
      `webkit   Playwright WebKit\n    ${join(cache, 'webkit-1000', 'pw_run.sh')} (Playwright's cache)\n    built for another Playwright version`,
    );
  });

  it("WebKit goes through Playwright when the build is Playwright's, else through WebKitGTK's WebDriver", () => {
    expect(driverFor('webkit', { programs: { webkit: found({}) } })).toBe('playwright');
    expect(
      driverFor('webkit', {
        programs: { webkit: found({ driver: 'webkitgtk-webdriver', path: '/usr/bin/WebKitWebDriver' }) },
      }),
    ).toBe('webdriver');
    expect(driverFor('webkit', { programs: {} })).toBe('webdriver');
    expect(driverFor('firefox', { programs: {} })).toBe('playwright');
  });

  it('each build starts headless from where it was found; Firefox is told the loopback names and set as Firefox ESR is (no HTTP cache, Fission off)', () => {
    expect(playwrightBuildOptions(found({}), launch())).toEqual({
      executablePath: '/c/webkit-1/pw_run.sh',
      headless: true,
    });
    const firefox = found({
      family: 'firefox',
      product: 'Playwright Firefox',
      path: '/c/f/firefox',
      driver: 'playwright-firefox',
    });
    expect(
      playwrightBuildOptions(firefox, launch({ resolve: { 'rebind.test': '127.0.0.1', 'far.test': '203.0.113.9' } })),
    ).toEqual({
      executablePath: '/c/f/firefox',
      headless: true,
      firefoxUserPrefs: {
        'browser.cache.disk.enable': false,
        'browser.cache.memory.enable': false,
        'fission.autostart': false,
        'network.dns.localDomains': 'rebind.test',
      },
    });
  });

  it('--ca is refused for them, naming the build: no authority can be added to it', () => {
    expect(() => playwrightBuildOptions(found({}), launch({ trust: ['/ca.pem'] }))).toThrow(
      /^--ca cannot be given to Playwright WebKit 27\.2: /,
    );
  });
});
