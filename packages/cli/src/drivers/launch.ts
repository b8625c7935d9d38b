import { existsSync } from 'node:fs';
import { browserExecutable, browserPackage, miniBrowser } from '@origin-lab/engines';
import { CommandError } from '../terminal.js';
import { ENGINE_NAMES, type DriverLaunch, type EngineName, type ProbeDriver } from './driver.js';

/** What each engine needs on this machine, as paths to look for. */
function neededFiles(name: EngineName): string[] {
  return name === 'webkit'
    ? [browserExecutable('webkit'), miniBrowser, '/usr/bin/xvfb-run', '/usr/bin/dbus-run-session']
    : [browserExecutable(name)];
}

/** The engines installed here, in the report's order. */
export function installedEngines(): EngineName[] {
  return ENGINE_NAMES.filter((name) => neededFiles(name).every((file) => existsSync(file)));
}

/** What is missing for an engine, in one line with the package that brings it; null when nothing is. */
export function missingFor(name: EngineName): string | null {
  const missing = neededFiles(name).filter((file) => !existsSync(file));
  if (missing.length === 0) return null;
  const packages = name === 'webkit' ? `${browserPackage.webkit} xvfb xauth dbus` : browserPackage[name];
  return `${name} is not installed (no ${missing.join(', ')}): install Debian's ${packages}, or set ${
    name === 'chromium'
      ? 'CHROMIUM_PATH'
      : name === 'firefox'
        ? 'FIREFOX_PATH'
        : 'WEBKIT_DRIVER_PATH and MINIBROWSER_PATH'
  }`;
}

/**
 * The engines to use: those asked for (each must be installed, or connected to), or every
 * installed or connected one.
 */
export function chooseEngines(asked: EngineName[] | 'installed', connected: readonly EngineName[] = []): EngineName[] {
  if (asked === 'installed') {
    const found = ENGINE_NAMES.filter((name) => connected.includes(name) || missingFor(name) === null);
    if (found.length === 0)
      throw new CommandError(
        `no browser engine is installed: ${ENGINE_NAMES.map((name) => missingFor(name)).join('; ')}`,
      );
    return found;
  }
  for (const name of asked) {
    const missing = connected.includes(name) ? null : missingFor(name);
    if (missing) throw new CommandError(missing);
  }
  return asked;
}

/** Starts one engine; a failure to start is a CommandError naming the engine. */
export async function startDriver(name: EngineName, launch: DriverLaunch): Promise<ProbeDriver> {
  try {
    if (name === 'webkit') return await (await import('./webkit.js')).WebKitProbeDriver.start(launch);
    return await (await import('./playwright.js')).PlaywrightProbeDriver.start(name, launch);
  } catch (err) {
    throw new CommandError(`${name} could not start: ${String((err as Error).message).split('\n')[0]}`);
  }
}
