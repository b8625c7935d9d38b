/**
 * The engines every check of these tests runs in: those this test run has (E2E_BROWSERS, as
 * `npm test` set it up), else every one installed. Apart from run-check.ts so that the engine
 * tests' global set-up (shared-engines.ts), which runs outside the test workers, can read it.
 */
import { installedEngines } from '../src/drivers/launch.js';

export const ENGINES = (() => {
  const chosen = (process.env.E2E_BROWSERS ?? '').split(',').filter(Boolean);
  const installed = installedEngines();
  return chosen.length > 0 ? installed.filter((name) => chosen.includes(name)) : installed;
})();
