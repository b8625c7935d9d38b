import { describe, expect, it } from 'vitest';
import {
  distributionOf,
  installCommand,
  newestFirst,
  pinnedBuild,
  platformKey,
  playwrightCache,
  playwrightPlace,
  systemPlaces,
} from '../src/engine-places.js';
import { examinePlaywrightBuild, identify } from '../src/find-engines.js';

// Data only: the places are what each vendor and Playwright 1.64's registry document. Only the
// Linux rows and a Playwright-shaped cache ran here (packages/cli/test/engines-command.test.ts);
// macOS and Windows are untested on these machines (docs/check.md).

describe("Playwright's browser cache", () => {
  it('is PLAYWRIGHT_BROWSERS_PATH when set, else the platform cache folder; 0 (the package folder) is not looked in', () => {
    expect(playwrightCache('linux-x64', { PLAYWRIGHT_BROWSERS_PATH: '/opt/pw' }, '/home/u')).toBe('/opt/pw');
    expect(playwrightCache('linux-x64', { PLAYWRIGHT_BROWSERS_PATH: '0' }, '/home/u')).toBeNull();
    expect(playwrightCache('linux-x64', {}, '/home/u')).toBe('/home/u/.cache/ms-playwright');
    expect(playwrightCache('linux-arm64', { XDG_CACHE_HOME: '/xdg' }, '/home/u')).toBe('/xdg/ms-playwright');
    expect(playwrightCache('mac-arm64', {}, '/Users/u')).toBe('/Users/u/Library/Caches/ms-playwright');
    expect(playwrightCache('win-x64', { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'C:\\Users\\u')).toBe(
      'C:\\Users\\u\\AppData\\Local\\ms-playwright',
    );
  });

  it('holds each browser where playwright-core 1.64 unpacks it, per platform', () => {
    const cache = '/c';
    expect(playwrightPlace('linux-x64', cache, 'chromium-1200')?.path).toBe('/c/chromium-1200/chrome-linux64/chrome');
    expect(playwrightPlace('linux-arm64', cache, 'chromium-1200')?.path).toBe(
      '/c/chromium-1200/chrome-linux-arm64/chrome',
    );
    expect(playwrightPlace('mac-arm64', cache, 'chromium-1200')?.path).toBe(
      '/c/chromium-1200/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
    );
    expect(playwrightPlace('win-x64', 'C:\\c', 'chromium-1200')?.path).toBe(
      'C:\\c\\chromium-1200\\chrome-win64\\chrome.exe',
    );
    expect(playwrightPlace('linux-x64', cache, 'chromium_headless_shell-1200')?.path).toBe(
      '/c/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell',
    );
    expect(playwrightPlace('mac-x64', cache, 'firefox-1500')?.path).toBe(
      '/c/firefox-1500/firefox/Nightly.app/Contents/MacOS/firefox',
    );
    expect(playwrightPlace('win-x64', 'C:\\c', 'webkit-2200')?.path).toBe('C:\\c\\webkit-2200\\Playwright.exe');
    expect(playwrightPlace('linux-x64', cache, 'ffmpeg-1011')).toBeNull();
  });

  it("drives Playwright's own Firefox and WebKit through Playwright's launchers, each with its revision", () => {
    const firefox = playwrightPlace('linux-x64', '/c', 'firefox-1555')!;
    expect(firefox).toMatchObject({ family: 'firefox', driver: 'playwright-firefox', revision: '1555' });
    expect(firefox.path).toBe('/c/firefox-1555/firefox/firefox');
    const webkit = playwrightPlace('linux-x64', '/c', 'webkit-2370')!;
    expect(webkit).toMatchObject({ family: 'webkit', driver: 'playwright-webkit', revision: '2370' });
    expect(webkit.path).toBe('/c/webkit-2370/pw_run.sh');
  });

  // The shape of playwright-core's browsers.json: one entry per browser, its revision, the
  // browser's version, and the revisions some systems take instead (revisionOverrides).
  const browsersJson = {
    browsers: [
      { name: 'chromium', revision: '1248', browserVersion: '156.0.8078.4' },
      { name: 'firefox', revision: '1555', browserVersion: '157.0' },
      { name: 'webkit', revision: '2370', revisionOverrides: { mac14: '2251' }, browserVersion: '27.2' },
    ],
  };

  it("reads the builds playwright-core drives from its browsers.json, other systems' revisions too", () => {
    expect(pinnedBuild(browsersJson, 'webkit')).toEqual({ revisions: ['2370', '2251'], browserVersion: '27.2' });
    expect(pinnedBuild(browsersJson, 'firefox')).toEqual({ revisions: ['1555'], browserVersion: '157.0' });
    expect(pinnedBuild({ browsers: [{ name: 'webkit', revision: 2370 }] }, 'webkit')).toBeNull();
    expect(pinnedBuild({}, 'firefox')).toBeNull();
    expect(pinnedBuild(null, 'firefox')).toBeNull();
  });

  it("labels the build playwright-core drives with its version, and reports another version's build with its install command", () => {
    const browsers = { json: browsersJson, version: '1.64.1' };
    const at = (folder: string) =>
      examinePlaywrightBuild(playwrightPlace('mac-arm64', '/c', folder)!, "Playwright's cache", browsers);
    expect(at('webkit-2370')).toMatchObject({
      driver: 'playwright-webkit',
      version: '27.2',
      label: 'Playwright WebKit 27.2',
    });
    expect(at('webkit-2251')).toMatchObject({ driver: 'playwright-webkit', label: 'Playwright WebKit 27.2' });
    expect(at('firefox-1555')).toMatchObject({ driver: 'playwright-firefox', label: 'Playwright Firefox 157' });
    const older = at('webkit-2200');
    expect(older.driver).toBe('unsupported');
    expect(older.unsupported).toBe(
      "built for another Playwright version (the check's playwright-core 1.64.1 drives webkit-2370): npx playwright@1.64.1 install webkit",
    );
    expect(examinePlaywrightBuild(playwrightPlace('linux-x64', '/c', 'firefox-1555')!, 'x', null).driver).toBe(
      'unsupported',
    );
  });

  it('tries the newest revision first and skips folders that are not revisions', () => {
    expect(newestFirst(['chromium-1190', 'chromium-1200', '.links', 'firefox-1500'])).toEqual([
      'firefox-1500',
      'chromium-1200',
      'chromium-1190',
    ]);
  });

  it('of one revision, tries the headless shell before the full Chromium, whatever order the folder lists them in', () => {
    for (const listing of [
      ['chromium-1200', 'chromium_headless_shell-1200'],
      ['chromium_headless_shell-1200', 'chromium-1200'],
    ])
      expect(newestFirst(listing)).toEqual(['chromium_headless_shell-1200', 'chromium-1200']);
    // A newer full Chromium still comes before an older shell.
    expect(newestFirst(['chromium_headless_shell-1190', 'chromium-1200'])).toEqual([
      'chromium-1200',
      'chromium_headless_shell-1190',
    ]);
  });
});

describe('the places installers use', () => {
  it("Linux: Debian's Chromium headless shell, Chromium and Firefox ESR first, then the other distributions', Chrome and Edge stable", () => {
    const linux = systemPlaces('linux-x64', {}, '/home/u').map((place) => `${place.family} ${place.path}`);
    expect(linux.slice(0, 3)).toEqual([
      'chromium /usr/lib/chromium/chromium-headless-shell',
      'chromium /usr/lib/chromium/chromium',
      'chromium /usr/bin/chromium',
    ]);
    expect(linux).toContain('chromium /snap/bin/chromium');
    expect(linux).toContain('chromium /opt/google/chrome/chrome');
    expect(linux).toContain('chromium /opt/microsoft/msedge/msedge');
    expect(linux.indexOf('firefox /usr/lib/firefox-esr/firefox-esr')).toBeLessThan(
      linux.indexOf('firefox /usr/bin/firefox'),
    );
    expect(linux).toContain('webkit /usr/bin/WebKitWebDriver');
  });

  it('macOS: the applications in /Applications, and Safari through safaridriver, reported but not driven', () => {
    const mac = systemPlaces('mac-arm64', {}, '/Users/u');
    expect(mac.map((place) => place.path)).toContain('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    expect(mac.map((place) => place.path)).toContain('/Applications/Firefox.app/Contents/MacOS/firefox');
    const safari = mac.find((place) => place.product === 'Safari')!;
    expect(safari.path).toBe('/usr/bin/safaridriver');
    expect(safari.driver).toBe('unsupported');
    expect(safari.unsupported).toMatch(/takes no proxy/);
  });

  it('Windows: Program Files (both) and the per-user Chrome', () => {
    const windows = systemPlaces('win-x64', { ProgramFiles: 'D:\\PF', LOCALAPPDATA: 'C:\\L' }, 'C:\\Users\\u').map(
      (place) => place.path,
    );
    expect(windows).toContain('D:\\PF\\Google\\Chrome\\Application\\chrome.exe');
    expect(windows).toContain('C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe');
    expect(windows).toContain('C:\\L\\Google\\Chrome\\Application\\chrome.exe');
    expect(windows).toContain('D:\\PF\\Mozilla Firefox\\firefox.exe');
  });

  it('names the platforms Playwright downloads for, and no other', () => {
    expect(platformKey('linux', 'x64')).toBe('linux-x64');
    expect(platformKey('darwin', 'arm64')).toBe('mac-arm64');
    expect(platformKey('win32', 'x64')).toBe('win-x64');
    expect(platformKey('freebsd', 'x64')).toBeNull();
  });
});

describe('the command that installs a missing engine', () => {
  it("is the distribution's own package where it has one, and Playwright's download elsewhere", () => {
    const debian = distributionOf('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n');
    expect(debian).toBe('debian');
    expect(installCommand('firefox', 'linux-x64', debian)).toBe('sudo apt-get install firefox-esr');
    expect(installCommand('webkit', 'linux-x64', debian)).toContain('webkit2gtk-driver');
    expect(distributionOf('ID=ubuntu\nID_LIKE=debian\n')).toBe('ubuntu');
    expect(distributionOf('ID=linuxmint\nID_LIKE="ubuntu debian"\n')).toBe('ubuntu');
    expect(distributionOf('ID="fedora"\n')).toBe('fedora');
    expect(installCommand('chromium', 'mac-arm64', 'other')).toBe('npx playwright install chromium');
    expect(installCommand('firefox', 'win-x64', 'other')).toBe('winget install Mozilla.Firefox');
    expect(installCommand('webkit', 'mac-arm64', 'other')).toBe('npx playwright install webkit');
    expect(installCommand('webkit', 'win-x64', 'other')).toBe('npx playwright install webkit');
  });
});

describe('what a program says it is', () => {
  it('reads the family, product and version from --version, as each browser prints it', () => {
    expect(identify('Chromium 156.0.8078.108 \n')).toEqual({
      family: 'chromium',
      product: 'Chromium',
      version: '156.0.8078.108',
    });
    expect(identify('Google Chrome 131.0.6778.85 \n')?.product).toBe('Google Chrome');
    expect(identify('Google Chrome for Testing 131.0.6778.33\n')?.product).toBe('Google Chrome for Testing');
    expect(identify('Microsoft Edge 131.0.2903.70\n')?.product).toBe('Microsoft Edge');
    expect(identify('Mozilla Firefox 153.8.0esr\n')).toEqual({
      family: 'firefox',
      product: 'Firefox ESR',
      version: '153.8.0esr',
    });
    expect(identify('Mozilla Firefox 145.0\n')?.product).toBe('Firefox');
    expect(identify('Usage: WebKitWebDriver options\n')).toEqual({
      family: 'webkit',
      product: 'WebKitGTK',
      version: null,
    });
    expect(identify('GNU bash, version 5.2.15')).toBeNull();
  });
});
