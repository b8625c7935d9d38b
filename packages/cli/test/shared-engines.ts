/**
 * Vitest's global set-up for the engine tests: one Firefox for the whole run, as a Playwright
 * browser server that every `check` of these tests connects to (--connect), instead of each
 * check starting its own (Firefox takes seconds to start; each check makes fresh contexts in it).
 * Chromium starts in about a quarter of a second and takes a per-target switch: each check
 * starts its own. The default run and the packed package start everything themselves, as a user's
 * run does. It has the prefs of a Firefox the check starts (CHECK_FIREFOX_PREFS); the check
 * cannot know that of an engine it connects to, so it still opens a new page for another origin
 * of a site it has held.
 */
import { firefoxLaunch, killGroupWhenGone } from '@origin-lab/engines';
import type { TestProject } from 'vitest/node';
import { CHECK_FIREFOX_PREFS } from '../src/drivers/playwright.js';
import { ENGINES } from './test-engines.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Firefox's WebSocket address, or '' when this run has no Firefox. */
    firefoxServer: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!ENGINES.includes('firefox')) {
    project.provide('firefoxServer', '');
    return async () => undefined;
  }
  const { firefox } = await import('playwright-core');
  const server = await firefox.launchServer({ ...firefoxLaunch([], [], CHECK_FIREFOX_PREFS), timeout: 60_000 });
  project.provide('firefoxServer', server.wsEndpoint());
  // Playwright runs the browser in a process group of its own, and vitest stopped by a signal
  // (Ctrl-C, npm test's own stop) ends without this teardown: the guard stops the group then.
  const group = server.process().pid;
  if (group !== undefined) killGroupWhenGone(group);
  return async () => {
    await server.close();
  };
}
