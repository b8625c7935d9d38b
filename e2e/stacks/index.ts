import type { Stack, StackName } from './stack.js';
import { startEmbedded } from './embedded.js';

/** How each stack comes up. The deployment adds 'caddy' (local processes behind Caddy) and 'compose' (testcontainers). */
export const starters: Partial<Record<StackName, () => Promise<Stack>>> = {
  embedded: startEmbedded,
};

/** The stacks this run uses: E2E_STACKS=embedded,caddy,... or every stack that has a starter. */
export function selectedStacks(): StackName[] {
  const wanted = process.env.E2E_STACKS?.split(',').map((name) => name.trim()).filter(Boolean);
  const known = Object.keys(starters) as StackName[];
  if (!wanted) return known;
  for (const name of wanted) if (!known.includes(name as StackName)) throw new Error(`E2E_STACKS names an unknown stack: ${name}`);
  return wanted as StackName[];
}
