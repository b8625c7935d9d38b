import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  expressAllowlistAndSubdomains,
  expressExactAllowlist,
  expressReflectingAll,
  YOURS,
  type Fixture,
} from './fixtures.js';
import { check, ENGINES, oneEngine, runProgram } from './run-check.js';

// --baseline as a reviewer of a CORS change uses it: a run before the change, its JSON report
// kept, a run after it compared with that report. Expected by hand: an allowlist widened by a
// regular expression that trusts every subdomain of example.test lets evil.example.test (the
// "subdomain" attacker origin) read, with and without credentials, and nothing else changes.

const CHECK_MS = 240_000;
const EVIL = 'http://evil.example.test';

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-check-baseline-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function against(fixture: Promise<Fixture>, args: string[]) {
  const server = await fixture;
  try {
    return {
      url: server.url,
      ...(await check(server.url, ['--from', YOURS, '--hostile', 'arbitrary,subdomain', ...args])),
    };
  } finally {
    await server.stop();
  }
}

describe.skipIf(ENGINES.length === 0)(`check --baseline, in real runs (${ENGINES.join(', ')})`, () => {
  it(
    'an allowlist that also trusts subdomains: the subdomain origin gained access, and that alone fails the run',
    async () => {
      const engines = oneEngine('chromium');
      const engine = engines[1]!;
      const before = await against(expressExactAllowlist(), engines);
      expect(before.code).toBe(0);
      const file = join(scratch, 'before.json');
      writeFileSync(file, JSON.stringify(before.report));

      const markdown = join(scratch, 'after.md');
      // --fail-on never: the findings of the widened allowlist do not fail the run; the gain does.
      const after = await against(expressAllowlistAndSubdomains(), [
        ...engines,
        '--baseline',
        file,
        '--fail-on',
        'never',
        '--markdown',
        markdown,
      ]);
      const diff = after.report.baseline!;
      expect(
        diff.gained.map(({ engine, origin, kind, cell, fails }) => ({ engine, origin, kind, cell, fails })),
      ).toEqual([
        { engine, origin: EVIL, kind: 'subdomain', cell: 'get', fails: true },
        { engine, origin: EVIL, kind: 'subdomain', cell: 'get-credentials', fails: true },
      ]);
      expect(diff.lost).toEqual([]);
      expect(diff.notComparable).toBe(0);
      expect(diff.file).toBe('before.json');
      expect(diff.target).toBe(before.url);
      // Each fixture listens on a port of its own: the same path at another origin, said.
      expect(diff.differs).toEqual({
        target: after.url,
        engines: [],
        origins: { onlyEarlier: [], onlyNow: [] },
        requests: { onlyEarlier: [], onlyNow: [] },
      });
      expect(after.code).toBe(1);
      expect(after.report.exitCode).toBe(1);

      // The terminal report (on standard error, the JSON taking standard output) begins with the diff.
      const terminal = after.stderr.split('\n');
      expect(terminal.slice(2, 6)).toEqual([
        '',
        `Since before.json (${before.report.startedAt})`,
        `  gained: ${EVIL} can now read GET and GET, credentials (fetch) in ${engine}`,
        `  target: ${before.url} then, ${after.url} now`,
      ]);
      expect(terminal.at(-2)).toMatch(/^FAIL .*; 1 origin not yours gained access since before\.json \(exit 1\)$/);
      const summary = readFileSync(markdown, 'utf8');
      expect(summary).toContain(
        `### Since \`before.json\` (${before.report.startedAt})\n\n- 🔴 **gained:** \`${EVIL}\` can now read GET and GET, credentials (fetch) in ${engine}\n`,
      );
      expect(summary.indexOf('### Since')).toBeLessThan(summary.indexOf('### From'));
    },
    CHECK_MS,
  );

  it(
    'the same server twice: one line says nothing changed',
    async () => {
      const engines = oneEngine('firefox');
      const before = await against(expressReflectingAll(), engines);
      const file = join(scratch, 'same.json');
      writeFileSync(file, JSON.stringify(before.report));
      const after = await against(expressReflectingAll(), [...engines, '--baseline', file]);
      expect(after.report.baseline!.gained).toEqual([]);
      expect(after.report.baseline!.lost).toEqual([]);
      expect(after.stderr).toContain('\nSince same.json');
      expect(after.stderr).toContain('\n  no origin gained or lost access, in any engine\n');
    },
    CHECK_MS,
  );
});

describe('check --baseline: a bad file is one line and exit 2, before any engine starts', () => {
  const target = 'http://127.0.0.1:9/me';
  const written = (name: string, text: string) => {
    const file = join(scratch, name);
    writeFileSync(file, text);
    return file;
  };

  it.each([
    ['missing', () => join(scratch, 'no-such.json'), 'no such file'],
    ['not JSON', () => written('log.txt', 'FAIL 1 high (exit 1)\n'), 'not JSON ('],
    ['not a report of check', () => written('package.json', '{"name":"x"}'), 'not a JSON report of origin-lab check'],
    [
      'a report of another endpoint',
      () =>
        written(
          'other.json',
          JSON.stringify({ tool: 'origin-lab check', target: 'http://127.0.0.1:9/other', engines: [], results: [] }),
        ),
      'a report of http://127.0.0.1:9/other, another endpoint than http://127.0.0.1:9/me',
    ],
  ])('%s', async (_, make, message) => {
    const file = make();
    const ran = await runProgram(['check', target, '--from', YOURS, '--baseline', file, '--quiet'], 30_000);
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    expect(ran.stderr).toContain(`origin-lab: --baseline ${file}: ${message}`);
    expect(ran.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });
});
