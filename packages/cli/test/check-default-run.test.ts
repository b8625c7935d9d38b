import { describe, expect, it } from 'vitest';
import { expressExactAllowlist, YOURS } from './fixtures.js';
import { check, ENGINES, findingsOf } from './run-check.js';

// The check as most people first run it: the default matrix from every origin class, in every
// engine, against a server configured right. Expectations written from the rules: an exact
// allowlist with credentials and the request's headers lets your origin read everything and no
// other origin read anything. (A file of its own: the longest check, so that other forks take the
// other long files.)

describe.skipIf(ENGINES.length === 0)(`check, the default run (${ENGINES.join(', ')})`, () => {
  it('a correct exact allowlist: yours reads everything, no origin an attacker could own reads anything', async () => {
    const server = await expressExactAllowlist();
    try {
      const { code, report, stderr } = await check(server.url, ['--from', YOURS], { startOwn: true });
      expect(findingsOf(report)).toEqual([]);
      // Counted as public (the test default), every attacker origin was asked in every engine.
      expect(report.notTried).toEqual([]);
      expect(code).toBe(0);
      // The table (on standard error beside --json -) ends in the verdict: all tried, nothing found.
      expect(stderr.trim().split('\n').at(-1)).toBe('OK no findings (exit 0)');
      // The default matrix ran whole: every cell of yours read in every engine, with its preflight.
      const yours = report.results.filter((run) => run.origin.kind === 'yours');
      expect(yours.map((run) => run.cell.id)).toEqual(expect.arrayContaining(['custom-header', 'authorization']));
      for (const run of yours) expect(run.readable, `${run.engine} ${run.cell.id}`).toBe(true);
      for (const run of yours.filter((r) => r.cell.id === 'custom-header'))
        expect(run.preflight, run.engine).toMatchObject({ sent: true, status: 204 });
      // Max-Age 600: the repeat goes without a preflight (seen by Chromium; the rules elsewhere).
      for (const run of yours.filter((r) => r.cell.id === 'preflight-cache'))
        expect(run.preflightKept?.kept, run.engine).toBe(true);
      expect(report.origins.filter((origin) => origin.kind !== 'yours').length).toBeGreaterThan(20);
    } finally {
      await server.stop();
    }
  }, 240_000);
});
