import type { Discovery } from '@origin-lab/engines';
import { CommandError } from '../terminal.js';
import { ENGINE_NAMES, type DriverLaunch, type EngineName, type ProbeDriver } from './driver.js';

/** Why an engine cannot be used here, in one line with the command that installs it. */
function missingLine(discovery: Discovery, name: EngineName): string {
  const missing = discovery.missing.find((entry) => entry.family === name);
  return missing ? `${name} was not found: ${missing.why}. Install: ${missing.install}` : `${name} was not found`;
}

/**
 * The engines to use: those asked for (each must be found, or connected to), or every one found
 * or connected. A missing one is said with why and how to install it (origin-lab engines lists all).
 */
export function chooseEngines(
  asked: EngineName[] | 'installed',
  connected: readonly EngineName[],
  discovery: Discovery,
): EngineName[] {
  const usable = (name: EngineName) =>
    connected.includes(name) || discovery.engines.some((engine) => engine.family === name);
  if (asked === 'installed') {
    const found = ENGINE_NAMES.filter(usable);
    if (found.length === 0)
      throw new CommandError(
        `no browser engine was found: ${ENGINE_NAMES.map((name) => missingLine(discovery, name)).join('; ')}`,
      );
    return found;
  }
  for (const name of asked) if (!usable(name)) throw new CommandError(missingLine(discovery, name));
  return asked;
}

/**
 * The engines to look for on this machine before choosing: those the check may start (the ones
 * asked for, else every one) but not one it connects to, which runs elsewhere, and any named with
 * --browser, which is checked even when not run.
 */
export function enginesToFind(
  asked: EngineName[] | 'installed',
  connected: readonly EngineName[],
  named: Partial<Record<EngineName, string>>,
): EngineName[] {
  const wanted: readonly EngineName[] = asked === 'installed' ? ENGINE_NAMES : asked;
  return ENGINE_NAMES.filter(
    (name) => (wanted.includes(name) && !connected.includes(name)) || named[name] !== undefined,
  );
}

/** The program each engine runs, as found (for DriverLaunch.programs). */
export function programsOf(discovery: Discovery): DriverLaunch['programs'] {
  return Object.fromEntries(discovery.engines.map((engine) => [engine.family, engine]));
}

/**
 * Which driver starts an engine: WebKitGTK through its WebDriver (webkit.ts), everything else,
 * Playwright's own WebKit build included, through Playwright (playwright.ts).
 */
export function driverFor(name: EngineName, launch: Pick<DriverLaunch, 'programs'>): 'webdriver' | 'playwright' {
  return name === 'webkit' && launch.programs.webkit?.driver !== 'playwright-webkit' ? 'webdriver' : 'playwright';
}

/** Starts one engine; a failure to start is a CommandError naming the engine. */
export async function startDriver(name: EngineName, launch: DriverLaunch): Promise<ProbeDriver> {
  try {
    if (driverFor(name, launch) === 'webdriver')
      return await (await import('./webkit.js')).WebKitProbeDriver.start(launch);
    return await (await import('./playwright.js')).PlaywrightProbeDriver.start(name, launch);
  } catch (err) {
    throw new CommandError(`${name} could not start: ${String((err as Error).message).split('\n')[0]}`);
  }
}
