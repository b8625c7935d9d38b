import { test as base, expect } from '@playwright/test';
import { stackEnvName, type StackInfo, type StackName } from './stacks/stack.js';

export interface StackOptions {
  stackName: StackName;
}

export interface StackFixtures {
  /** The stack of this project, as the global setup started it. */
  stack: StackInfo;
  /** The page's own origin and the other origin of the stack. */
  origins: { self: string; other: string };
}

/**
 * The stack is the project's: one per worker, so a beforeAll (a page's one run of its
 * experiments, support/per-experiment.ts) can reach it too.
 */
export const test = base.extend<object, StackFixtures & StackOptions>({
  stackName: ['embedded', { option: true, scope: 'worker' }],
  stack: [
    async ({ stackName }, use) => {
      const raw = process.env[stackEnvName(stackName)];
      if (!raw) throw new Error(`stack ${stackName} is not running: the global setup did not start it`);
      await use(JSON.parse(raw) as StackInfo);
    },
    { scope: 'worker' },
  ],
  origins: [
    async ({ stack }, use) => {
      await use({ self: stack.origins[0], other: stack.origins[1] });
    },
    { scope: 'worker' },
  ],
});

export { expect };
