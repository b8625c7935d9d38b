import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeLaunchFolders } from '@origin-lab/engines';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  expressNullTrusted,
  expressPrefixMatch,
  expressReflectedWithoutVary,
  expressReflectingAll,
  expressSuffixMatch,
  expressUnescapedDot,
  YOURS,
  type Fixture,
} from './fixtures.js';
import type { CheckReport } from '../src/check/report.js';
import { openIn } from './proof-pages.js';
import { check, ENGINES, enginesOf, findingsOf, oneEngine, sorted, type Expected } from './run-check.js';

// Each expectation is written from the rules: which origins a configuration lets read, with or
// without credentials, and what a cross-origin page then sees. A high finding is an origin any
// site can be reading with credentials; medium, reading without them, or "null" trusted; low, an
// origin-dependent answer without Vary: Origin, or one of the user's own requests refused.

const CHECK_MS = 240_000;
const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-risks-'));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  // The proof pages' browsers' homes: a test worker is ended without running its exit handlers.
  removeLaunchFolders();
});

async function against(fixture: Promise<Fixture>, hostile: string, more: string[] = []) {
  const server = await fixture;
  try {
    return await check(server.url, ['--from', YOURS, '--hostile', hostile, ...more]);
  } finally {
    await server.stop();
  }
}

/**
 * --proof: one page per high finding and origin, in the order of the finding's origins (as
 * tried); hosted at the attacker origin (or any site, for null), a page reads what the check read
 * there, in every engine: the fixture's answer, status 200, {"me":"someone"} (16 characters).
 */
async function expectProofPages(dir: string, target: string, pages: readonly string[]) {
  expect(readdirSync(dir).sort()).toEqual([
    '01-hostile-read-credentials-attacker-test.html',
    '02-hostile-read-credentials-null-sandboxed-frame.html',
    '03-hostile-read-credentials-null-data-worker.html',
    '04-hostile-read-credentials-evil-example-test.html',
    'index.html',
  ]);
  const page = readFileSync(join(dir, '01-hostile-read-credentials-attacker-test.html'), 'utf8');
  const frame = readFileSync(join(dir, '02-hostile-read-credentials-null-sandboxed-frame.html'), 'utf8');
  // What the check read: from the page and from a null frame in a page at any site.
  const read = { state: 'read', status: '200', length: '16' };
  for (const engine of ENGINES)
    expect(await openIn(engine, 'http://attacker.test', [page, frame], target), engine).toEqual([read, read]);
  expect(pages).toEqual([
    'http://attacker.test',
    'null (sandboxed frame)',
    'null (data worker)',
    'http://evil.example.test',
  ]);
}

describe.skipIf(ENGINES.length === 0)(
  `check, against servers that let too much through (${ENGINES.join(', ')})`,
  () => {
    it(
      'express cors({ origin: true, credentials: true }): every origin reads with credentials, null too; --proof shows it in every engine',
      async () => {
        const server = await expressReflectingAll();
        const dir = join(scratch, 'proof');
        try {
          const { code, report } = await check(server.url, [
            '--from',
            YOURS,
            '--hostile',
            'arbitrary,null,subdomain',
            '--proof',
            dir,
          ]);
          expect(findingsOf(report)).toEqual(
            sorted([
              {
                kind: 'hostile-read-credentials',
                severity: 'high',
                origins: [
                  'http://attacker.test',
                  'http://evil.example.test',
                  'null (data worker)',
                  'null (sandboxed frame)',
                ],
              },
            ]),
          );
          expect(enginesOf(report, 'hostile-read-credentials')).toEqual([...ENGINES].sort());
          expect(code).toBe(1);
          await expectProofPages(dir, server.url, report.proofs?.pages.map((page) => page.origin) ?? []);
        } finally {
          await server.stop();
        }
      },
      CHECK_MS,
    );

    it(
      'an origin function that checks a suffix: a name ending in yours reads with credentials',
      async () => {
        const { report } = await against(expressSuffixMatch(), 'arbitrary,prefix,suffix', oneEngine('firefox'));
        expect(findingsOf(report)).toEqual(
          sorted([
            { kind: 'hostile-read-credentials', severity: 'high', origins: ['http://evilapp.example.test'] },
            // cors calls next() with no header at all when the function says no: the refusals carry
            // no Vary: Origin, so a shared cache may hand one to an origin it allows (low: no permission leaks).
            { kind: 'missing-vary', severity: 'low' },
          ]),
        );
      },
      CHECK_MS,
    );

    it(
      'a regular expression with unescaped dots: appxexample.test reads with credentials',
      async () => {
        const { report } = await against(expressUnescapedDot(), 'arbitrary,unescaped-dot', oneEngine('firefox'));
        expect(findingsOf(report)).toEqual(
          sorted([{ kind: 'hostile-read-credentials', severity: 'high', origins: ['http://appxexample.test'] }]),
        );
      },
      CHECK_MS,
    );

    it(
      '"null" on the allowlist: sandboxed frames and data: workers read (without credentials, which it does not allow)',
      async () => {
        const { report } = await against(expressNullTrusted(), 'arbitrary,null', oneEngine('webkit'));
        expect(findingsOf(report)).toEqual(
          sorted([
            { kind: 'null-trusted', severity: 'medium', origins: ['null (data worker)', 'null (sandboxed frame)'] },
            { kind: 'refused', severity: 'low', cell: 'get-credentials', rule: 'credentials-not-allowed' },
            { kind: 'refused', severity: 'low', cell: 'xhr-credentials', rule: 'credentials-not-allowed' },
          ]),
        );
      },
      CHECK_MS,
    );

    it(
      'a hand-written middleware that reflects the Origin without Vary: any site reads, caches may mix answers',
      async () => {
        const { report } = await against(expressReflectedWithoutVary(), 'arbitrary', oneEngine('chromium'));
        const expected: Expected[] = [
          { kind: 'hostile-read', severity: 'medium', origins: ['http://attacker.test'] },
          // The permission follows the Origin: only a shared cache between could hand it on (low).
          { kind: 'missing-vary', severity: 'low' },
          // No Access-Control-Allow-Credentials: the user's own credentialed reads fail too.
          { kind: 'refused', severity: 'low', cell: 'get-credentials', rule: 'credentials-not-allowed' },
          { kind: 'refused', severity: 'low', cell: 'xhr-credentials', rule: 'credentials-not-allowed' },
          // express answers OPTIONS itself (200, Allow) with the reflected origin but no Allow-Headers.
          { kind: 'refused', severity: 'low', cell: 'custom-header', rule: 'header-not-allowed' },
          { kind: 'refused', severity: 'low', cell: 'authorization', rule: 'header-not-allowed' },
        ];
        expect(findingsOf(report)).toEqual(sorted(expected));
      },
      CHECK_MS,
    );

    it(
      'the reflected answer cached for ten minutes: each origin of a site reads its own answer, never one an earlier origin left in the engine',
      async () => {
        // One page at a time: each engine is yours, then evil.example.test (the same site), on the
        // page it would reuse for it. What the engine kept of yours must not answer the next origin.
        // Every engine as the check starts it (Chromium's cache emptied, a Firefox without one),
        // then the run's shared Firefox as a connected one (a new page for a site it has held).
        const server = await expressReflectedWithoutVary({ maxAge: 600 });
        const args = ['--from', YOURS, '--hostile', 'subdomain', '--pages', '1'];
        const reports: CheckReport[] = [];
        try {
          reports.push((await check(server.url, args, { startOwn: true })).report);
          if (ENGINES.includes('firefox')) {
            const connected = await check(server.url, [...args, '--engines', 'firefox']);
            reports.push(connected.report);
            // The browser server's path lets anyone drive it: the report names its host and port only.
            const shared = inject('firefoxServer');
            if (shared) {
              const address = new URL(shared);
              expect(connected.report.engines.map((e) => e.program)).toEqual([`ws://${address.host}/…`]);
              expect(JSON.stringify(connected.report)).not.toContain(address.pathname);
            }
          }
        } finally {
          await server.stop();
        }
        // The server reflects every Origin: by Fetch's CORS check each origin's own answer is
        // readable; an answer of yours handed to evil.example.test would be refused there.
        for (const [index, report] of reports.entries())
          for (const engine of report.engines.map((e) => e.name))
            for (const origin of [YOURS, 'http://evil.example.test']) {
              const run = report.results.find(
                (r) => r.engine === engine && r.origin.origin === origin && r.cell.id === 'get',
              );
              expect(run?.readable, `${index === 0 ? 'started' : 'connected'} ${engine} ${origin}`).toBe(true);
            }
        // A subdomain (a position) reading without credentials: one step below medium.
        expect(findingsOf(reports[0]!)).toEqual(
          expect.arrayContaining([{ kind: 'hostile-read', severity: 'low', origins: ['http://evil.example.test'] }]),
        );
      },
      CHECK_MS,
    );

    it(
      'an origin function that checks a prefix: yours followed by anything reads, wherever the engine can be that origin',
      async () => {
        // WebKit: it can be 16 of the 18 names, at the same cost for all; which names each engine
        // can be is the default run's (check-default-run.test.ts).
        const { report } = await against(expressPrefixMatch(), 'prefix,special-characters', oneEngine('webkit'));
        const prefix = 'http://app.example.test.attacker.test';
        const special = (c: string) => `http://app.example.test${c}.attacker.test`;
        // The URL standard forbids | and ^ in a host: no engine can be those origins.
        for (const c of ['|', '^'])
          for (const run of report.results.filter((r) => r.origin.origin === special(c)))
            expect(run.couldNot, `${run.engine} ${special(c)}`).not.toBeNull();
        // Every origin the engine could be reads with credentials, "_" and "-" among them.
        const runs = report.results.filter((run) => run.cell.credentials);
        const could = runs.filter((run) => run.couldNot === null).map((run) => run.origin.origin);
        expect(could).toEqual(expect.arrayContaining([prefix, special('_'), special('-')]));
        for (const run of runs.filter((r) => r.couldNot === null))
          expect(run.readable, `${run.engine} ${run.origin.origin}`).toBe(true);
        expect(findingsOf(report).map((finding) => finding.kind)).toEqual(['hostile-read-credentials']);
      },
      CHECK_MS,
    );
  },
);

describe.skipIf(ENGINES.length === 0)('check, from an https origin to an http:// target on loopback', () => {
  it(
    'Chromium and Firefox count loopback as trustworthy; WebKit blocks it as mixed content, and the report names the difference',
    async () => {
      const server = await expressReflectingAll();
      try {
        const { report } = await check(server.url, ['--from', 'https://app.example.test', '--hostile', 'none']);
        for (const run of report.results) {
          // Mixed Content: an https page fetches only potentially trustworthy URLs; loopback is one
          // for Chromium and Firefox, not for WebKit (GTK) 2.50 (measured, cors-rules' engine-facts.ts).
          if (run.engine === 'webkit') {
            expect(run.readable, run.cell.id).toBe(false);
            expect(run.reason?.rule, run.cell.id).toBe('mixed-content');
            expect(run.sent?.value, run.cell.id).toBe(false);
          } else expect(run.readable, `${run.engine} ${run.cell.id}`).toBe(true);
        }
        // One difference, one reason (mixed content in WebKit): said once, with every request in it.
        const differ = report.findings.filter((finding) => finding.kind === 'engines-differ');
        if (ENGINES.includes('webkit') && ENGINES.length > 1) {
          expect(differ).toHaveLength(1);
          expect([...differ[0]!.cells].sort()).toEqual(report.cells.map((cell) => cell.id).sort());
        }
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );
});
