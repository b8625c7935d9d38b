import type { LaunchOptions } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The engines the suite runs in: one of each family the spec tells apart. */
export type BrowserName = 'chromium' | 'firefox' | 'webkit';
/**
 * What a run uses unless E2E_BROWSERS says otherwise (npm test, CI): all three. webkit is
 * WebKitGTK over W3C WebDriver (engines/webdriver.ts), on the stacks stacks/index.ts names.
 */
export const allBrowsers: readonly BrowserName[] = ['chromium', 'firefox', 'webkit'];

/** WebKitGTK's driver and the browser it starts (Debian's webkit2gtk-driver). */
export const webkitDriver = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const miniBrowser = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** Debian's packages (test tools cannot download their own browsers here). */
export function browserExecutable(browser: BrowserName): string {
  if (browser === 'webkit') return webkitDriver;
  return browser === 'chromium'
    ? (process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium')
    : (process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr');
}

export const browserPackage: Record<BrowserName, string> = {
  chromium: 'chromium',
  firefox: 'firefox-esr',
  webkit: 'webkit2gtk-driver',
};

/**
 * Everything launched from this process keeps its profile and HOME in one folder, removed
 * when the process exits (each Playwright worker evaluates the config, so each has its own;
 * `origin-lab check` is one process).
 */
let scratch: string | undefined;
function scratchDir(prefix: string): string {
  if (!scratch) {
    const dir = mkdtempSync(join(tmpdir(), 'origin-lab-e2e-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    scratch = dir;
  }
  return mkdtempSync(join(scratch, prefix));
}

/**
 * Removes this process's launch folder now, once every browser it launched is closed: for a
 * process that may be ended without its exit handlers running (a test runner's worker).
 */
export function removeLaunchFolders(): void {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
}

/**
 * Launch options for a browser that trusts the given CA certificates the way a user's browser
 * would: in the certificate database the browser itself reads (NSS for both engines), so no
 * certificate error is ever ignored. loopbackNames are host names the browser resolves to
 * 127.0.0.1 itself, as a network's DNS would (the machines here have none). Never use ignoreHTTPSErrors with Chromium: it silently
 * drops sendBeacon sent at page close.
 */
export function launchOptions(
  browser: BrowserName,
  caCerts: readonly string[],
  loopbackNames: readonly string[] = [],
): LaunchOptions {
  // Playwright launches no WebKit: engines/webdriver.ts starts WebKitWebDriver itself.
  if (browser === 'webkit') return {};
  return browser === 'chromium' ? chromiumLaunch(caCerts, loopbackNames) : firefoxLaunch(caCerts, loopbackNames);
}

/** Debian's Chromium as PLATFORM.md measured it: no sandbox (root), no background networking, a throwaway HOME. */
export function chromiumLaunch(caCerts: readonly string[] = [], loopbackNames: readonly string[] = []): LaunchOptions {
  const home = scratchDir('chromium-home-');
  // Chromium on Linux reads the user's NSS database under $HOME/.pki/nssdb.
  if (caCerts.length > 0) trustInNssDb(join(home, '.pki', 'nssdb'), caCerts);
  return {
    executablePath: browserExecutable('chromium'),
    // Playwright turns the back/forward cache off by default; the beacons page shows it working.
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(loopbackNames.length > 0
        ? [`--host-resolver-rules=${loopbackNames.map((name) => `MAP ${name} 127.0.0.1`).join(',')}`]
        : []),
    ],
    env: { ...process.env, HOME: home } as Record<string, string>,
  };
}

/**
 * Firefox ESR through WebDriver BiDi (channel moz-firefox; Playwright 1.64 is pinned for it).
 * Firefox reads trust from the profile's own NSS database (cert9.db), and Playwright would give
 * it a fresh empty profile, so this passes a profile prepared here: every default argument is
 * replaced by the same ones with --profile pointing at it. A worker launches one Firefox at a
 * time, so one profile per process is never shared by two running browsers. morePrefs go into
 * the profile after these.
 */
export function firefoxLaunch(
  caCerts: readonly string[] = [],
  loopbackNames: readonly string[] = [],
  morePrefs: Readonly<Record<string, string | number | boolean>> = {},
): LaunchOptions {
  const home = scratchDir('firefox-home-');
  const profile = join(home, 'profile');
  mkdirSync(profile);
  if (caCerts.length > 0) trustInNssDb(profile, caCerts);
  // What Playwright writes into the profiles it makes, plus quiet on the network (no internet here).
  const prefs: Record<string, string | number | boolean> = {
    'app.normandy.api_url': '',
    'app.update.auto': false,
    'browser.safebrowsing.malware.enabled': false,
    'browser.safebrowsing.phishing.enabled': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'dom.testing.testutils.enabled': true,
    'extensions.update.enabled': false,
    'network.connectivity-service.enabled': false,
    'network.captive-portal-service.enabled': false,
    'toolkit.cosmeticAnimations.enabled': false,
    'toolkit.startup.max_resumed_crashes': -1,
    'toolkit.telemetry.enabled': false,
    // A blank first window, as Playwright's own profiles have: Firefox's home and welcome pages
    // (the new-tab page) cost about 1.4 s of CPU at every start (a launch and one page: 10.0 s of
    // CPU against 11.4 s, in turns). No page of a check or a test is the first window.
    'browser.newtabpage.enabled': false,
    'browser.startup.homepage': 'about:blank',
    'browser.startup.page': 0,
    'startup.homepage_welcome_url': 'about:blank',
    // Names answered with the loopback address without asking DNS.
    ...(loopbackNames.length > 0 ? { 'network.dns.localDomains': loopbackNames.join(',') } : {}),
    // The caller's own (a test's Local Network Access override, say).
    ...morePrefs,
  };
  writeFileSync(
    join(profile, 'user.js'),
    Object.entries(prefs)
      .map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`)
      .join('\n') + '\n',
  );
  return {
    channel: 'moz-firefox',
    executablePath: browserExecutable('firefox'),
    ignoreDefaultArgs: true,
    args: ['--remote-debugging-port=0', '--headless', '--profile', profile],
    env: { ...process.env, HOME: home } as Record<string, string>,
  };
}

/** Creates an NSS database in dir trusting each certificate as a CA for web sites. */
function trustInNssDb(dir: string, caCerts: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  const certutil = (args: string[]) =>
    execFileSync('certutil', ['-d', `sql:${dir}`, ...args], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  if (!existsSync(join(dir, 'cert9.db'))) certutil(['-N', '--empty-password']);
  caCerts.forEach((cert, index) => certutil(['-A', '-t', 'C,,', '-n', `origin-lab-ca-${index}`, '-i', cert]));
}
