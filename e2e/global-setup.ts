import type { FullConfig } from '@playwright/test';
import { stacksInUse, starters } from './stacks/index.js';
import { stackEnvName, type Stack, type StackInfo } from './stacks/stack.js';

/** Brings every selected stack up once for the whole run; returns the teardown that stops them all. */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const running: Stack[] = [];
  const stopAll = async () => {
    await Promise.allSettled(running.map((stack) => stack.stop()));
  };
  try {
    for (const name of stacksInUse()) {
      const started = Date.now();
      const stack = await starters[name]!();
      running.push(stack);
      // Everything but stop(), which stays in this process.
      const { stop: _stop, ...info }: Stack = stack;
      process.env[stackEnvName(name)] = JSON.stringify(info satisfies StackInfo);
      console.log(`[e2e] stack ${name} up in ${Date.now() - started} ms: ${stack.origins.join(' and ')}`);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return stopAll;
}
