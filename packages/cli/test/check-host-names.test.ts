import { describe, expect, it } from 'vitest';
import { expressPrefixMatch, YOURS } from './fixtures.js';
import { check, ENGINES, findingsOf } from './run-check.js';

// Which characters each engine takes in a host name decides which origins an attacker can be:
// written from the URL standard (forbidden host code points) and each engine's measured
// behaviour (docs/check.md). A file of its own: one of the longest checks, started first.

describe.skipIf(ENGINES.length === 0)(`check, origins that start with yours (${ENGINES.join(', ')})`, () => {
  it('an origin function that checks a prefix: yours followed by anything reads, as far as each engine can be that origin', async () => {
    const server = await expressPrefixMatch();
    const { report } = await check(server.url, ['--from', YOURS, '--hostile', 'prefix,special-characters']).finally(
      () => server.stop(),
    );
    const prefix = 'http://app.example.test.attacker.test';
    const special = (c: string) => `http://app.example.test${c}.attacker.test`;
    // The URL standard forbids | and ^ in a host: no engine can be those origins.
    for (const c of ['|', '^'])
      for (const run of report.results.filter((r) => r.origin.origin === special(c)))
        expect(run.couldNot, `${run.engine} ${special(c)}`).not.toBeNull();
    // Every origin an engine could be reads with credentials there, "_" and "-" in every engine.
    for (const engine of ENGINES) {
      const runs = report.results.filter((run) => run.engine === engine && run.cell.credentials);
      const could = runs.filter((run) => run.couldNot === null).map((run) => run.origin.origin);
      expect(could, engine).toEqual(expect.arrayContaining([prefix, special('_'), special('-')]));
      for (const run of runs.filter((r) => r.couldNot === null))
        expect(run.readable, `${engine} ${run.origin.origin}`).toBe(true);
    }
    // Which of the other characters each engine takes in a host name is its own (measured,
    // docs/check.md): Firefox refuses most, WebKit ";", Chromium none of them.
    const notOrigins = Object.fromEntries(
      ENGINES.map((engine) => [
        engine,
        report.results
          .filter((run) => run.engine === engine && run.cell.id === 'get' && run.couldNot !== null)
          .map((run) => run.origin.origin.slice('http://app.example.test'.length, -'.attacker.test'.length))
          .sort(),
      ]),
    );
    const measured: Record<string, string[]> = {
      chromium: ['^', '|'],
      firefox: ['!', '&', "'", '(', '*', ',', ';', '=', '^', '`', '{', '|', '}', '~'],
      webkit: [';', '^', '|'],
    };
    for (const engine of ENGINES) expect(notOrigins[engine], engine).toEqual([...measured[engine]!].sort());
    expect(findingsOf(report).map((finding) => finding.kind)).toEqual(['hostile-read-credentials']);
  }, 240_000);
});
