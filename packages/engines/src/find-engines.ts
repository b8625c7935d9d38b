/**
 * Finds the engines on this machine, in this order for each family: a path the user names
 * (`--browser name=path`, then CHROMIUM_PATH, FIREFOX_PATH or WEBKIT_DRIVER_PATH), Playwright's
 * own browser cache, the places installers use (engine-places.ts), then PATH. The first one check
 * can drive is used; the others found are reported too. Each browser says its own version
 * (`--version`); WebKitGTK tells its version only once started.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import {
  distributionOf,
  ENGINE_FAMILIES,
  HEADLESS_SHELL,
  installCommand,
  isPlaywrightBuild,
  miniBrowserPlaces,
  newestFirst,
  PATH_NAMES,
  PATH_VARIABLE,
  pinnedBuild,
  platformKey,
  playwrightCache,
  playwrightPlace,
  systemPlaces,
  type EngineFamily,
  type Place,
  type PlatformKey,
} from './engine-places.js';

export interface FoundEngine extends Place {
  /** How it was found, as a report says it: "--browser", "CHROMIUM_PATH", "Playwright's cache", "installed", "PATH". */
  via: string;
  /** The version the program printed, e.g. 156.0.8078.108; null when it says it only once started. */
  version: string | null;
  /** How reports name it: product and major version ("Chromium 156", "Firefox ESR 153", "WebKitGTK"). */
  label: string;
  /** WebKitGTK only: the MiniBrowser its WebDriver starts. */
  miniBrowser?: string;
}

export interface MissingEngine {
  family: EngineFamily;
  /** Why none could be used: where it looked, or what it found that check cannot drive. */
  why: string;
  /** The one command that installs one on this platform. */
  install: string;
}

export interface Discovery {
  /** One engine per family that check drives, in the report's order. */
  engines: FoundEngine[];
  /** Programs found that check does not use (a second one of a family, or one it cannot drive). */
  others: FoundEngine[];
  missing: MissingEngine[];
}

/** A path given for an engine that is not that engine, or cannot run: the command exits 2 naming it. */
export class EngineChoiceError extends Error {}

/**
 * The oldest major versions check drives. Firefox: Playwright 1.64 drives it through WebDriver
 * BiDi, and Firefox ESR 140 lacks a command it sends (measured: docs/testing.md), so 153, the ESR
 * after it. Chromium 120: chosen, not measured (only Chromium 156 ran here).
 */
export const OLDEST_MAJOR: Readonly<Record<'chromium' | 'firefox', number>> = { chromium: 120, firefox: 153 };

export interface FindOptions {
  /** `--browser name=path`, at most one per family. */
  named?: Partial<Record<EngineFamily, string>>;
  env?: Record<string, string | undefined>;
  platform?: string;
  arch?: string;
  home?: string;
  /** How long a program may take to print its version (VERSION_TIMEOUT_MS). */
  versionTimeoutMs?: number;
  /**
   * Whether to look on past each family's engine for the others (Discovery.others): what
   * `origin-lab engines` lists; check uses the first alone and need not start every other one.
   */
  others?: boolean;
  /**
   * The families to look for, every one when not given: check looks only for the engines it will
   * start, so that no other browser is started to say its version.
   */
  families?: readonly EngineFamily[];
}

const realPath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

const isProgram = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The most of a program's answer kept: a version line is short, a --help page a few KB. */
const VERSION_TEXT_CHARS = 64 * 1024;

/**
 * What the program prints when asked its version (WebKit's driver has no version switch: its
 * --help names it), or why it printed nothing: it failed, or took longer than timeoutMs.
 */
function versionText(place: Place, timeoutMs: number): Promise<{ text: string; failed: string | null }> {
  const ask = (args: string[]) =>
    new Promise<{ text: string; failed: string | null }>((resolve) => {
      // A group of its own, stopped whole when it is late: a wrapper script's own children too.
      const child = spawn(place.path, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = { stdout: '', stderr: '' };
      for (const name of ['stdout', 'stderr'] as const)
        child[name].setEncoding('utf8').on('data', (chunk: string) => {
          if (output[name].length < VERSION_TEXT_CHARS) output[name] += chunk;
        });
      let late = false;
      const stopGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => {
        late = true;
        stopGroup();
      }, timeoutMs);
      // Ctrl-C on the command (it exits): the group does not hear the terminal's signal, so it is stopped here.
      process.once('exit', stopGroup);
      const settle = (failure: string | null) => {
        clearTimeout(timer);
        process.off('exit', stopGroup);
        const { stdout, stderr } = output;
        if (!failure || stdout) return resolve({ text: `${stdout}${stderr}`, failed: null });
        resolve({ text: `${stdout}${stderr}`, failed: late ? `no answer within ${timeoutMs} ms` : failure });
      };
      child.once('error', (err) => settle(`it failed: ${err.message}`));
      child.once('close', (code, signal) =>
        settle(code === 0 ? null : `it failed: ${output.stderr.trim().split('\n')[0] || `exit ${code ?? signal}`}`),
      );
    });
  if (place.driver !== 'webkitgtk-webdriver') return ask(['--version']);
  // A browser named as WebKit's driver says what it is to --version.
  return ask(['--help']).then(async (help) => (identify(help.text) ? help : { ...(await ask(['--version'])) }));
}

/** What the program's output says it is: its family and version, or null when it is none of the three. */
export function identify(output: string): { family: EngineFamily; product: string; version: string | null } | null {
  const firefox = /Mozilla Firefox (\d+[\w.]*)/.exec(output);
  if (firefox)
    return { family: 'firefox', product: /esr/.test(firefox[1]!) ? 'Firefox ESR' : 'Firefox', version: firefox[1]! };
  const chromium =
    /(Chromium|Google Chrome for Testing|Google Chrome|Microsoft Edge|Chrome Headless Shell|HeadlessChrome)\s+(\d+[\d.]*)/.exec(
      output,
    );
  if (chromium) return { family: 'chromium', product: chromium[1]!, version: chromium[2]! };
  if (/WebKitWebDriver/.test(output)) return { family: 'webkit', product: 'WebKitGTK', version: null };
  return null;
}

const labelOf = (product: string, version: string | null) =>
  version ? `${product} ${version.split('.')[0]}` : product;

/** playwright-core's own list of the builds it drives (its browsers.json), or null where it cannot be read. */
function playwrightBrowsers(): { json: unknown; version: string } | null {
  try {
    const manifest = createRequire(import.meta.url).resolve('playwright-core/package.json');
    const json: unknown = JSON.parse(readFileSync(join(dirname(manifest), 'browsers.json'), 'utf8'));
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return { json, version };
  } catch {
    return null;
  }
}

/**
 * A build of Playwright's own Firefox or WebKit: driven when it is the revision this
 * playwright-core drives (its version is the one browsers.json gives: the build has no switch
 * that prints it), else reported with the command that installs the right one.
 */
export function examinePlaywrightBuild(
  place: Place,
  via: string,
  browsers: { json: unknown; version: string } | null = playwrightBrowsers(),
): FoundEngine {
  const family = place.family === 'firefox' ? 'firefox' : 'webkit';
  const pinned = browsers && pinnedBuild(browsers.json, family);
  if (!pinned || !place.revision || !pinned.revisions.includes(place.revision)) {
    const wanted = pinned ? `${family}-${pinned.revisions[0]}` : `its own ${family} build`;
    const install = browsers
      ? `npx playwright@${browsers.version} install ${family}`
      : `npx playwright install ${family}`;
    return {
      ...place,
      via,
      version: null,
      label: place.product,
      driver: 'unsupported',
      unsupported: `built for another Playwright version (the check's playwright-core${browsers ? ` ${browsers.version}` : ''} drives ${wanted}): ${install}`,
    };
  }
  const label =
    family === 'webkit' ? `${place.product} ${pinned.browserVersion}` : labelOf(place.product, pinned.browserVersion);
  return { ...place, via, version: pinned.browserVersion, label };
}

/** Checks one found program: that it runs and is the family it was looked for as. */
async function examine(place: Place, via: string, timeoutMs: number, key: PlatformKey): Promise<FoundEngine | string> {
  if (place.driver === 'unsupported') return { ...place, via, version: null, label: place.product };
  if (isPlaywrightBuild(place)) return examinePlaywrightBuild(place, via);
  const printed = await versionText(place, timeoutMs);
  const said = identify(printed.text);
  if (!said) {
    const what = place.family === 'webkit' ? "WebKit's WebDriver" : `a ${place.family} browser`;
    const first = printed.text.trim().split('\n')[0]?.slice(0, 80);
    if (printed.failed) return `${place.path} did not say it is ${what} (${printed.failed})`;
    return first ? `${place.path} is not ${what} (it says "${first}")` : `${place.path} did not say it is ${what}`;
  }
  if (said.family !== place.family)
    return `${place.path} is ${said.product} ${said.version ?? ''}, not ${place.family}`.trimEnd();
  const major = Number(said.version?.split('.')[0]);
  const oldest = place.family === 'webkit' ? 0 : OLDEST_MAJOR[place.family];
  if (Number.isFinite(major) && major < oldest)
    return `${place.path} is ${said.product} ${said.version}, older than ${place.family === 'chromium' ? 'Chromium' : 'Firefox'} ${oldest}, the oldest check drives`;
  // The product as the program names itself (Debian's Chromium in Playwright's cache is still
  // Chromium), but for Debian's headless shell, which calls itself Chromium too.
  const product = place.product === HEADLESS_SHELL ? HEADLESS_SHELL : said.product;
  const found: FoundEngine = {
    ...place,
    product,
    via,
    version: said.version,
    label: labelOf(product, said.version),
  };
  if (place.family === 'webkit') {
    const miniBrowser = [process.env.MINIBROWSER_PATH, ...miniBrowserPlaces(key)].find(
      (path) => path && isProgram(path),
    );
    if (!miniBrowser)
      return `${place.path} is WebKitGTK's WebDriver, but no MiniBrowser was found (${miniBrowserPlaces(key).join(', ')}; or set MINIBROWSER_PATH)`;
    found.miniBrowser = miniBrowser;
  }
  return found;
}

/** How check drives a program named for a family (by --browser, a variable or PATH). */
const DRIVER_OF = { chromium: 'chromium', firefox: 'firefox-bidi', webkit: 'webkitgtk-webdriver' } as const;

/** Every place to look for one family, in order, each with how a report names where it came from. */
function placesFor(
  family: EngineFamily,
  key: PlatformKey,
  options: Required<Pick<FindOptions, 'env' | 'home'>> & FindOptions,
): { place: Place; via: string; explicit: boolean }[] {
  const { env, home, named = {} } = options;
  const places: { place: Place; via: string; explicit: boolean }[] = [];
  const explicit = (path: string, via: string) => {
    places.push({ place: { family, product: family, path, driver: DRIVER_OF[family] }, via, explicit: true });
  };
  if (named[family]) explicit(named[family]!, `--browser ${family}=`);
  if (env[PATH_VARIABLE[family]]) explicit(env[PATH_VARIABLE[family]]!, PATH_VARIABLE[family]);
  const cache = playwrightCache(key, env, home);
  if (cache) {
    let folders: string[] = [];
    try {
      folders = readdirSync(cache);
    } catch {
      // No cache: nothing installed by Playwright.
    }
    for (const folder of newestFirst(folders)) {
      const place = playwrightPlace(key, cache, folder);
      if (place?.family === family) places.push({ place, via: `Playwright's cache`, explicit: false });
    }
  }
  for (const place of systemPlaces(key, env, home))
    if (place.family === family) places.push({ place, via: 'installed', explicit: false });
  if (key.startsWith('linux'))
    for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean))
      for (const [name, product] of PATH_NAMES[family])
        places.push({
          place: { family, product, path: join(dir, name), driver: DRIVER_OF[family] },
          via: 'PATH',
          explicit: false,
        });
  return places;
}

/** How long a program may take to print its version unless told otherwise (check's --timeout). */
export const VERSION_TIMEOUT_MS = 10_000;

/** Finds every family's engine; a named path that is not usable is an EngineChoiceError. */
export async function findEngines(options: FindOptions = {}): Promise<Discovery> {
  const env = options.env ?? process.env;
  const home = options.home ?? homedir();
  const key = platformKey(options.platform ?? process.platform, options.arch ?? process.arch);
  if (!key)
    throw new EngineChoiceError(
      `no engine places are known for ${options.platform ?? process.platform} on ${options.arch ?? process.arch}`,
    );
  const timeoutMs = options.versionTimeoutMs ?? VERSION_TIMEOUT_MS;
  let osRelease = '';
  try {
    osRelease = readFileSync('/etc/os-release', 'utf8');
  } catch {
    // Not Linux, or no os-release: the generic install commands.
  }
  const distribution = distributionOf(osRelease);
  const discovery: Discovery = { engines: [], others: [], missing: [] };
  for (const family of ENGINE_FAMILIES.filter((name) => options.families?.includes(name) ?? true)) {
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const { place, via, explicit } of placesFor(family, key, { ...options, env, home })) {
      if (options.others === false && discovery.engines.some((engine) => engine.family === family)) break;
      // One program under several names (/bin and /usr/bin, a symbolic link) is looked at once.
      const real = realPath(place.path);
      if (seen.has(real)) continue;
      seen.add(real);
      if (!isProgram(place.path)) {
        if (explicit)
          throw new EngineChoiceError(`${via}${via.endsWith('=') ? '' : ' is '}${place.path}: no program there`);
        continue;
      }
      const examined = await examine(place, via, timeoutMs, key);
      if (typeof examined === 'string') {
        if (explicit) throw new EngineChoiceError(`${via}${via.endsWith('=') ? '' : ': '}${examined}`);
        problems.push(examined);
        continue;
      }
      // A launcher script of a browser already found (Debian's /usr/bin/chromium) says nothing new.
      const same = (engine: FoundEngine) =>
        engine.family === family && engine.label === examined.label && engine.version === examined.version;
      if (discovery.engines.some(same) || discovery.others.some(same)) continue;
      const taken = discovery.engines.some((engine) => engine.family === family);
      if (examined.driver === 'unsupported' || taken) discovery.others.push(examined);
      else discovery.engines.push(examined);
    }
    if (!discovery.engines.some((engine) => engine.family === family)) {
      const unsupported = discovery.others.filter((other) => other.family === family && other.unsupported);
      const why = [
        ...unsupported.map((other) => `${other.label} at ${other.path}: ${other.unsupported}`),
        ...problems,
      ].join('; ');
      discovery.missing.push({
        family,
        why: why || `none found (${PATH_VARIABLE[family]}, Playwright's cache, the usual places and PATH)`,
        install: installCommand(family, key, distribution),
      });
    }
  }
  return discovery;
}
