/**
 * Where each engine may be on a machine, as data: the paths an installer puts a browser at, per
 * platform, Playwright's own browser cache, and the one command that installs a missing engine.
 * Nothing here touches the file system; find-engines.ts looks. Only Linux's Debian paths and a
 * Playwright-shaped cache holding Debian's Chromium were run here (docs/check.md, "Where engines
 * are found"); the macOS and Windows rows are the vendors' documented install places, untested.
 */
import { posix, win32 } from 'node:path';

export type EngineFamily = 'chromium' | 'firefox' | 'webkit';
export const ENGINE_FAMILIES: readonly EngineFamily[] = ['chromium', 'firefox', 'webkit'];

/** The platforms the tables know, named as Playwright names its downloads. */
export type PlatformKey = 'linux-x64' | 'linux-arm64' | 'mac-x64' | 'mac-arm64' | 'win-x64';

/**
 * How `check` drives a program it found: Chromium over its DevTools protocol, Firefox ESR or
 * Firefox over WebDriver BiDi, WebKitGTK over W3C WebDriver, and Playwright's own Firefox and
 * WebKit builds over Playwright's protocol, through playwright-core's own launchers (those two are
 * downloads that cannot be made here: the launch is unit-tested as data and never ran here).
 * `unsupported` ones are reported by `origin-lab engines` with why, and never started: Safari's
 * safaridriver takes no proxy, and check serves its probe pages through one; a Playwright build
 * made for another Playwright version speaks another revision of its protocol.
 */
export type DriverKind =
  'chromium' | 'firefox-bidi' | 'webkitgtk-webdriver' | 'playwright-firefox' | 'playwright-webkit' | 'unsupported';

/** Whether check starts the program through playwright-core's launchers: Playwright's own Firefox or WebKit build. */
export const isPlaywrightBuild = (place: Pick<Place, 'driver'>): boolean =>
  place.driver === 'playwright-firefox' || place.driver === 'playwright-webkit';

/**
 * Debian's Chromium without the browser around it (package chromium-headless-shell): it says it
 * is "Chromium" when asked, so its place names it.
 */
export const HEADLESS_SHELL = 'Chromium Headless Shell';

/** One place an engine may be. */
export interface Place {
  family: EngineFamily;
  /** The product as its maker names it: "Google Chrome", "Firefox ESR", "WebKitGTK". */
  product: string;
  /** The program check starts: the browser, or WebKit's WebDriver. */
  path: string;
  driver: DriverKind;
  /** Why it cannot be driven, when driver is `unsupported`. */
  unsupported?: string;
  /** A folder of Playwright's cache: the build's revision (`webkit-2370`: 2370). */
  revision?: string;
}

export function platformKey(platform: string, arch: string): PlatformKey | null {
  if (platform === 'linux') return arch === 'arm64' ? 'linux-arm64' : arch === 'x64' ? 'linux-x64' : null;
  if (platform === 'darwin') return arch === 'arm64' ? 'mac-arm64' : 'mac-x64';
  if (platform === 'win32') return arch === 'x64' ? 'win-x64' : null;
  return null;
}

const isWindows = (key: PlatformKey) => key === 'win-x64';
const join = (key: PlatformKey, ...parts: string[]) => (isWindows(key) ? win32.join : posix.join)(...parts);

/**
 * Playwright's cache: PLAYWRIGHT_BROWSERS_PATH when set (0 is the package's own folder, which
 * this command does not look in), else the platform's cache folder (as playwright-core 1.64 computes it).
 */
export function playwrightCache(
  key: PlatformKey,
  env: Record<string, string | undefined>,
  home: string,
): string | null {
  const set = env.PLAYWRIGHT_BROWSERS_PATH;
  if (set === '0') return null;
  if (set) return set;
  if (key.startsWith('linux')) return posix.join(env.XDG_CACHE_HOME || posix.join(home, '.cache'), 'ms-playwright');
  if (key.startsWith('mac')) return posix.join(home, 'Library', 'Caches', 'ms-playwright');
  return win32.join(env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local'), 'ms-playwright');
}

/**
 * The browsers inside one revision folder of Playwright's cache (`chromium-1200`, `firefox-1500`,
 * `webkit-2200`, ...), as playwright-core 1.64's registry lays them out; null for a folder that
 * holds no browser.
 */
export function playwrightPlace(key: PlatformKey, cache: string, folder: string): Place | null {
  const mac = key.startsWith('mac');
  const arch = key.endsWith('arm64') ? 'arm64' : 'x64';
  const chromeDir = isWindows(key)
    ? 'chrome-win64'
    : mac
      ? `chrome-mac-${arch}`
      : arch === 'arm64'
        ? 'chrome-linux-arm64'
        : 'chrome-linux64';
  const at = (...parts: string[]) => join(key, cache, folder, ...parts);
  const revision = /-(\d+)$/.exec(folder)?.[1];
  if (/^chromium-\d+$/.test(folder))
    return {
      family: 'chromium',
      product: 'Chrome for Testing',
      path: mac
        ? at(chromeDir, 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing')
        : at(chromeDir, isWindows(key) ? 'chrome.exe' : 'chrome'),
      driver: 'chromium',
    };
  if (/^chromium_headless_shell-\d+$/.test(folder)) {
    const shell = isWindows(key)
      ? 'chrome-headless-shell-win64'
      : `chrome-headless-shell-${mac ? `mac-${arch}` : arch === 'arm64' ? 'linux-arm64' : 'linux64'}`;
    return {
      family: 'chromium',
      product: 'Chrome Headless Shell',
      path: at(shell, isWindows(key) ? 'chrome-headless-shell.exe' : 'chrome-headless-shell'),
      driver: 'chromium',
    };
  }
  if (/^firefox-\d+$/.test(folder))
    return {
      family: 'firefox',
      product: 'Playwright Firefox',
      revision,
      path: mac
        ? at('firefox', 'Nightly.app', 'Contents', 'MacOS', 'firefox')
        : at('firefox', isWindows(key) ? 'firefox.exe' : 'firefox'),
      driver: 'playwright-firefox',
    };
  if (/^webkit-\d+$/.test(folder))
    return {
      family: 'webkit',
      product: 'Playwright WebKit',
      revision,
      path: at(isWindows(key) ? 'Playwright.exe' : 'pw_run.sh'),
      driver: 'playwright-webkit',
    };
  return null;
}

/** The build of one of Playwright's browsers that a playwright-core version drives, as its browsers.json pins it. */
export interface PinnedBuild {
  /** The revision folders it accepts: its own, and those it takes on some systems (revisionOverrides). */
  revisions: string[];
  /** The browser's version in that build, e.g. 27.2. */
  browserVersion: string;
}

/**
 * The builds of Playwright's Firefox and WebKit that playwright-core drives, read from its
 * browsers.json: each speaks the revision of Playwright's protocol its own version sends, so a
 * build another version installed is reported, never started. null where the file names none.
 */
export function pinnedBuild(browsersJson: unknown, family: 'firefox' | 'webkit'): PinnedBuild | null {
  const entries = (browsersJson as { browsers?: unknown } | null)?.browsers;
  if (!Array.isArray(entries)) return null;
  const entry = entries.find((browser: { name?: unknown }) => browser?.name === family) as
    { revision?: unknown; browserVersion?: unknown; revisionOverrides?: Record<string, unknown> } | undefined;
  if (typeof entry?.revision !== 'string' || typeof entry.browserVersion !== 'string') return null;
  const overrides = Object.values(entry.revisionOverrides ?? {}).filter(
    (value): value is string => typeof value === 'string',
  );
  return { revisions: [entry.revision, ...overrides], browserVersion: entry.browserVersion };
}

/**
 * The revision folders of a cache listing, newest first within each kind (the highest number);
 * of one revision, the headless shell before the full Chromium, as Playwright prefers it headless.
 */
export function newestFirst(folders: readonly string[]): string[] {
  const revision = (folder: string) => Number(/-(\d+)$/.exec(folder)?.[1] ?? -1);
  const shell = (folder: string) => (folder.startsWith('chromium_headless_shell-') ? 0 : 1);
  return [...folders]
    .filter((folder) => revision(folder) >= 0)
    .sort((a, b) => revision(b) - revision(a) || shell(a) - shell(b));
}

const linuxLib = (key: PlatformKey) => (key === 'linux-arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu');

/** Where installers put each engine, by platform, in the order they are tried. */
export function systemPlaces(key: PlatformKey, env: Record<string, string | undefined>, home: string): Place[] {
  const chromium = (product: string, path: string): Place => ({
    family: 'chromium',
    product,
    path,
    driver: 'chromium',
  });
  const firefox = (product: string, path: string): Place => ({
    family: 'firefox',
    product,
    path,
    driver: 'firefox-bidi',
  });
  if (key.startsWith('linux'))
    return [
      // Debian's Chromium headless shell first (the same build, without the browser's own UI:
      // what a headless check needs, in half the time), then Debian's Chromium; the wrapper
      // scripts of Debian, Fedora and Arch; Ubuntu's snap.
      chromium(HEADLESS_SHELL, '/usr/lib/chromium/chromium-headless-shell'),
      chromium('Chromium', '/usr/lib/chromium/chromium'),
      chromium('Chromium', '/usr/bin/chromium'),
      chromium('Chromium', '/usr/bin/chromium-browser'),
      chromium('Chromium', '/snap/bin/chromium'),
      chromium('Google Chrome', '/opt/google/chrome/chrome'),
      chromium('Google Chrome', '/usr/bin/google-chrome-stable'),
      chromium('Microsoft Edge', '/opt/microsoft/msedge/msedge'),
      chromium('Microsoft Edge', '/usr/bin/microsoft-edge-stable'),
      firefox('Firefox ESR', '/usr/lib/firefox-esr/firefox-esr'),
      firefox('Firefox ESR', '/usr/bin/firefox-esr'),
      firefox('Firefox', '/usr/lib/firefox/firefox'),
      firefox('Firefox', '/usr/lib64/firefox/firefox'),
      firefox('Firefox', '/usr/bin/firefox'),
      { family: 'webkit', product: 'WebKitGTK', path: '/usr/bin/WebKitWebDriver', driver: 'webkitgtk-webdriver' },
    ];
  if (key.startsWith('mac'))
    return [
      chromium('Google Chrome', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
      chromium('Chromium', '/Applications/Chromium.app/Contents/MacOS/Chromium'),
      chromium('Microsoft Edge', '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'),
      firefox('Firefox', '/Applications/Firefox.app/Contents/MacOS/firefox'),
      {
        family: 'webkit',
        product: 'Safari',
        path: '/usr/bin/safaridriver',
        driver: 'unsupported',
        unsupported:
          "Safari's WebDriver takes no proxy, and check puts its probe page at each origin through one (untested here)",
      },
    ];
  const programFiles = env.ProgramFiles || 'C:\\Program Files';
  const programFilesX86 = env['ProgramFiles(x86)'] || 'C:\\Program Files (x86)';
  const local = env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local');
  return [
    chromium('Google Chrome', win32.join(programFiles, 'Google', 'Chrome', 'Application', 'chrome.exe')),
    chromium('Google Chrome', win32.join(programFilesX86, 'Google', 'Chrome', 'Application', 'chrome.exe')),
    chromium('Google Chrome', win32.join(local, 'Google', 'Chrome', 'Application', 'chrome.exe')),
    chromium('Microsoft Edge', win32.join(programFilesX86, 'Microsoft', 'Edge', 'Application', 'msedge.exe')),
    chromium('Microsoft Edge', win32.join(programFiles, 'Microsoft', 'Edge', 'Application', 'msedge.exe')),
    firefox('Firefox', win32.join(programFiles, 'Mozilla Firefox', 'firefox.exe')),
    firefox('Firefox', win32.join(programFilesX86, 'Mozilla Firefox', 'firefox.exe')),
  ];
}

/** The program names looked for on PATH (Linux), after the fixed places. */
export const PATH_NAMES: Readonly<Record<EngineFamily, readonly [name: string, product: string][]>> = {
  chromium: [
    ['chromium', 'Chromium'],
    ['chromium-browser', 'Chromium'],
    ['google-chrome-stable', 'Google Chrome'],
    ['google-chrome', 'Google Chrome'],
    ['microsoft-edge-stable', 'Microsoft Edge'],
  ],
  firefox: [
    ['firefox-esr', 'Firefox ESR'],
    ['firefox', 'Firefox'],
  ],
  webkit: [['WebKitWebDriver', 'WebKitGTK']],
};

/** WebKitGTK's MiniBrowser, which its WebDriver starts: Debian and Ubuntu, Fedora, Arch. */
export function miniBrowserPlaces(key: PlatformKey): string[] {
  return [
    `/usr/lib/${linuxLib(key)}/webkit2gtk-4.1/MiniBrowser`,
    '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
    '/usr/lib/webkit2gtk-4.1/MiniBrowser',
  ];
}

/** The environment variable that names each engine's program, as before discovery. */
export const PATH_VARIABLE: Readonly<Record<EngineFamily, string>> = {
  chromium: 'CHROMIUM_PATH',
  firefox: 'FIREFOX_PATH',
  webkit: 'WEBKIT_DRIVER_PATH',
};

/** The Linux distributions the install commands know, by /etc/os-release's ID (and ID_LIKE). */
export type Distribution = 'debian' | 'ubuntu' | 'fedora' | 'arch' | 'other';

export function distributionOf(osRelease: string): Distribution {
  const field = (name: string) => new RegExp(`^${name}="?([^"\\n]*)`, 'm').exec(osRelease)?.[1] ?? '';
  const ids = `${field('ID')} ${field('ID_LIKE')}`.split(/\s+/);
  for (const known of ['ubuntu', 'debian', 'fedora', 'arch'] as const) if (ids.includes(known)) return known;
  return 'other';
}

/** The one command that installs an engine check can drive, on this platform (and distribution). */
export function installCommand(family: EngineFamily, key: PlatformKey, distribution: Distribution): string {
  const playwright = (name: string) => `npx playwright install ${name}`;
  if (key.startsWith('linux')) {
    const packages: Record<Distribution, Record<EngineFamily, string>> = {
      debian: {
        chromium: 'sudo apt-get install chromium',
        firefox: 'sudo apt-get install firefox-esr',
        webkit: 'sudo apt-get install webkit2gtk-driver xvfb xauth dbus',
      },
      ubuntu: {
        chromium: playwright('chromium'),
        firefox: 'sudo apt-get install firefox',
        webkit: 'sudo apt-get install webkit2gtk-driver xvfb xauth dbus',
      },
      fedora: {
        chromium: 'sudo dnf install chromium',
        firefox: 'sudo dnf install firefox',
        webkit: 'sudo dnf install webkit2gtk4.1 xorg-x11-server-Xvfb xorg-x11-xauth dbus',
      },
      arch: {
        chromium: 'sudo pacman -S chromium',
        firefox: 'sudo pacman -S firefox',
        webkit: 'sudo pacman -S webkit2gtk-4.1 xorg-server-xvfb xorg-xauth dbus',
      },
      other: {
        chromium: playwright('chromium'),
        firefox: 'your distribution’s firefox package',
        webkit: 'your distribution’s WebKitGTK WebDriver',
      },
    };
    return packages[distribution][family];
  }
  if (key.startsWith('mac'))
    return {
      chromium: playwright('chromium'),
      firefox: 'brew install --cask firefox',
      webkit: playwright('webkit'),
    }[family];
  return {
    chromium: playwright('chromium'),
    firefox: 'winget install Mozilla.Firefox',
    webkit: playwright('webkit'),
  }[family];
}
