import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../src/check/report.js';
import { expressExactAllowlist, YOURS } from './fixtures.js';
import { check, ENGINES, findingsOf } from './run-check.js';

// The check as most people first run it: the default matrix from every origin class, in every
// engine, against a server configured right. Expectations written from the rules: an exact
// allowlist with credentials and the request's headers lets your origin read everything and no
// other origin read anything. (A file of its own: the longest check, so that other forks take the
// other long files.) It tries every origin class in every engine, so it is also where what each
// engine can be, and what it refuses before CORS is asked, is checked per engine; the other tests
// then try a server's logic in one engine.

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
      engineCannotBe(report);
      webkitRefusesMixedContent(report);
    } finally {
      await server.stop();
    }
  }, 240_000);
});

/**
 * Which origins each engine can be. Which characters an engine takes in a host name is its own
 * (measured, docs/check.md): the URL standard forbids | and ^ (no engine can be those origins),
 * Firefox refuses most others, WebKit ";", Chromium none. Every engine can be the trailing dot,
 * another port and a lookalike (punycode) name.
 */
function engineCannotBe(report: CheckReport) {
  const measured: Record<string, string[]> = {
    chromium: ['^', '|'],
    firefox: ['!', '&', "'", '(', '*', ',', ';', '=', '^', '`', '{', '|', '}', '~'],
    webkit: [';', '^', '|'],
  };
  const special = report.results.filter((run) => run.origin.kind === 'special-characters' && run.cell.id === 'get');
  for (const engine of ENGINES) {
    const refused = special
      .filter((run) => run.engine === engine && run.couldNot !== null)
      .map((run) => run.origin.origin.slice(YOURS.length, -'.attacker.test'.length))
      .sort();
    expect(refused, engine).toEqual([...measured[engine]!].sort());
  }
  for (const run of report.results.filter((r) => ['trailing-dot', 'other-port', 'lookalike'].includes(r.origin.kind)))
    expect(run.couldNot, `${run.engine} ${run.origin.origin}`).toBeNull();
}

/**
 * An https page calling this http:// target on loopback: Chromium and Firefox count loopback as
 * potentially trustworthy, WebKit blocks it as mixed content before it leaves (cors-rules'
 * engine-facts.ts), for every https attacker origin (your host over https, the hosting sites).
 */
function webkitRefusesMixedContent(report: CheckReport) {
  const https = report.results.filter((run) => run.origin.origin.startsWith('https://') && run.couldNot === null);
  expect(new Set(https.map((run) => run.origin.kind))).toEqual(new Set(['other-scheme', 'third-party']));
  for (const run of https) {
    const refusedFirst = run.reason?.rule === 'mixed-content';
    expect(refusedFirst, `${run.engine} ${run.origin.origin} ${run.cell.id}`).toBe(run.engine === 'webkit');
  }
}
