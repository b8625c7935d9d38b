import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findCaddy } from '@origin-lab/launcher/caddy';
import { allBrowsers, browserExecutable, browserPackage, miniBrowser, type BrowserName } from '@origin-lab/engines';
import { specsFor } from '../coverage.js';
import type { Stack, StackName } from './stack.js';
import { startEmbedded } from './embedded.js';
import { startLanStack } from './lan.js';
import { startCaddyStack } from './caddy.js';
import { composeExecutable, startComposeStack } from './compose.js';

/** How each stack comes up. */
export const starters: Record<StackName, () => Promise<Stack>> = {
  /** `npm start`: one process, http://localhost and http://127.0.0.1. */
  embedded: startEmbedded,
  /** `npm start` for a class on a LAN: two wildcard-DNS names over plain HTTP, not a secure context. */
  lan: startLanStack,
  /** Local processes behind Debian's caddy: https://a.localhost and https://b.localhost, HTTP/2. */
  caddy: startCaddyStack,
  /** The docker compose set, brought up by testcontainers, Caddy in a container. */
  compose: startComposeStack,
};

/** What a stack needs on this machine; the reason it cannot run, or undefined. */
const missingTool: Record<StackName, () => string | undefined> = {
  embedded: () => undefined,
  lan: () => undefined,
  caddy: () => (!findCaddy() ? 'caddy is not installed (apt-get install caddy)' : missingCertutil()),
  compose: () => {
    if (!onPath(composeExecutable)) return `${composeExecutable} is not installed (apt-get install docker-compose)`;
    try {
      execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      return 'no Docker engine answers (apt-get install docker.io, then start dockerd)';
    }
    return missingCertutil();
  },
};

const missingBrowser = (browser: BrowserName): string | undefined => {
  if (!existsSync(browserExecutable(browser)))
    return `${browserExecutable(browser)} is not there (apt-get install ${browserPackage[browser]})`;
  if (browser !== 'webkit') return undefined;
  // WebKitGTK has no headless mode: an Xvfb display and a session bus of its own (engines/webdriver.ts).
  if (!existsSync(miniBrowser)) return `${miniBrowser} is not there (apt-get install webkit2gtk-driver)`;
  for (const [program, pkg] of [
    ['Xvfb', 'xvfb'],
    ['xauth', 'xauth'],
    ['dbus-run-session', 'dbus'],
  ] as const)
    if (!onPath(program)) return `${program} is not installed (apt-get install ${pkg})`;
  return undefined;
};

/**
 * The stacks this run uses. E2E_STACKS=embedded,caddy,... picks some; by default every stack.
 *
 * Policy for a machine that lacks a stack's tools: on CI (CI=true), and for a stack named in
 * E2E_STACKS, that is an error that stops the run. On a developer machine the stack is left out
 * and one line says which and why. The first evaluation (the runner's, before the workers) decides
 * and passes the answer on to the workers through the environment.
 */
export function selectedStacks(): StackName[] {
  const all = Object.keys(starters) as StackName[];
  return select('E2E_STACKS', all, (name) => missingTool[name](), 'stack', all);
}

/** The selected stacks that some spec runs on in a selected browser (coverage.ts): the ones to start. */
export function stacksInUse(): StackName[] {
  const browsers = selectedBrowsers();
  return selectedStacks().filter((stack) =>
    browsers.some((browser) => specsFor(stack, browser).length + specsFor(stack, browser, true).length > 0),
  );
}

/**
 * The browsers this run uses: E2E_BROWSERS=chromium,firefox picks some; the same policy as stacks.
 * By default all three.
 */
export function selectedBrowsers(): BrowserName[] {
  return select('E2E_BROWSERS', allBrowsers, missingBrowser, 'browser', allBrowsers);
}

function select<T extends string>(
  variable: string,
  known: readonly T[],
  missing: (name: T) => string | undefined,
  kind: string,
  defaults: readonly T[],
): T[] {
  const decided = process.env[`${variable}_DECIDED`];
  if (decided !== undefined) return decided.split(',').filter(Boolean) as T[];

  const wanted = process.env[variable]
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of wanted ?? []) {
    if (!known.includes(name as T))
      throw new Error(`${variable} names an unknown ${kind}: ${name} (known: ${known.join(', ')})`);
  }
  const strict = isCi() || wanted !== undefined;
  const chosen: T[] = [];
  const problems: string[] = [];
  for (const name of (wanted as T[] | undefined) ?? defaults) {
    const reason = missing(name);
    if (reason === undefined) chosen.push(name);
    else if (strict) problems.push(`${kind} ${name}: ${reason}`);
    else
      console.warn(
        `[e2e] ${kind} ${name} left out on this machine: ${reason}. CI runs it; set CI=true to make this an error.`,
      );
  }
  if (problems.length > 0) {
    const why = isCi() ? 'on CI every stack and browser is required' : `${variable} asks for it`;
    throw new Error(`[e2e] cannot run (${why}):\n  ${problems.join('\n  ')}`);
  }
  if (chosen.length === 0) throw new Error(`[e2e] no ${kind} can run on this machine`);
  process.env[`${variable}_DECIDED`] = chosen.join(',');
  return chosen;
}

function isCi(): boolean {
  const value = process.env.CI?.toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

function missingCertutil(): string | undefined {
  return onPath('certutil')
    ? undefined
    : "certutil is not installed (apt-get install libnss3-tools); browsers need it to trust Caddy's CA";
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(`${dir}/${program}`));
}
