/**
 * The engines every check of these tests runs in: those this test run has (E2E_BROWSERS, as
 * `npm test` set it up), else every one installed. Apart from run-check.ts so that the engine
 * tests' global set-up (shared-engines.ts), which runs outside the test workers, can read it.
 */
import { findEngines } from '@origin-lab/engines';
import type { EngineName } from '../src/drivers/driver.js';

export const ENGINES: EngineName[] = await (async () => {
  const chosen = (process.env.E2E_BROWSERS ?? '').split(',').filter(Boolean);
  const found = (await findEngines({ others: false })).engines.map((engine) => engine.family);
  return chosen.length > 0 ? found.filter((name) => chosen.includes(name)) : found;
})();
