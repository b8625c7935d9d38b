import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { expressCountingAllowlist } from './fixtures.js';
import { ENGINES, runProgram, STEP_TIMEOUT } from './run-check.js';
import type { CheckReport } from '../src/check/report.js';

// Local Network Access, as Chromium ships it (since 142): a public page must be granted permission
// before it reaches a loopback or private address, and a page that is not a secure context is
// refused outright. The check's pages are public names to Chromium; the fixture listens on
// 127.0.0.1. Written from Chromium's documented behaviour: not CORS, and the request never leaves.

const SECURE = 'https://app.example.test';
const PLAIN = 'http://app.example.test';
const CHECK_MS = 120_000;

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-local-network-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A check in Chromium alone, from a public https page and a public http one, with this answer to
 * the permission prompt (both in one run: Chromium decides each page on its own).
 */
async function checkLocal(url: string, localNetwork: 'grant' | 'deny') {
  const ran = await runProgram([
    'check',
    url,
    '--from',
    SECURE,
    '--from',
    PLAIN,
    '--hostile',
    'none',
    '--credentials',
    'omit',
    '--engines',
    'chromium',
    '--local-network',
    localNetwork,
    '--json',
    '-',
    '--quiet',
    ...STEP_TIMEOUT,
  ]);
  if (ran.code !== 0 && ran.code !== 1) throw new Error(`check exited ${ran.code}: ${ran.stderr}`);
  return JSON.parse(ran.stdout) as CheckReport;
}

/** The rules that decided the requests of one origin's page ('read' for a read). */
const rulesOf = (report: CheckReport, from: string) => [
  ...new Set(report.results.filter((run) => run.origin.origin === from).map((run) => run.reason?.rule ?? 'read')),
];

describe.skipIf(!ENGINES.includes('chromium'))("check and Chromium's Local Network Access (not CORS)", () => {
  it(
    'public pages, denied: nothing leaves, nothing is read; granted: CORS alone decides for https, http is refused still',
    async () => {
      const server = await expressCountingAllowlist([SECURE, PLAIN]);
      try {
        // The check asks the target itself before the engines, the same requests in every run: what
        // the engine sent is what one run brings more than the other.
        const before = server.arrived();
        const denied = await checkLocal(server.url, 'deny');
        const arrivedDenied = server.arrived() - before;
        for (const from of [SECURE, PLAIN]) expect(rulesOf(denied, from), from).toEqual(['local-network-access']);
        for (const run of denied.results) expect(run.reason!.text).toMatch(/^Not CORS: Local Network Access/);
        expect(new Set(denied.findings.map((finding) => finding.reason?.rule))).toEqual(
          new Set(['local-network-access']),
        );

        const between = server.arrived();
        const granted = await checkLocal(server.url, 'grant');
        const arrivedGranted = server.arrived() - between;
        expect(rulesOf(granted, SECURE)).toEqual(['read']);
        // A page that is not a secure context is refused even when the user would grant it.
        expect(rulesOf(granted, PLAIN)).toEqual(['local-network-access']);
        // Denied, none of the engine's requests arrived: at least one a request fewer than granted
        // (the https page's; the http page's never leave either way).
        const secureRequests = granted.results.filter((run) => run.origin.origin === SECURE).length;
        expect(secureRequests).toBeGreaterThan(0);
        expect(arrivedGranted - arrivedDenied).toBeGreaterThanOrEqual(secureRequests);
        // Counted as public (--local-network public), the same http page reads: every other check
        // test runs so, from http://app.example.test, and asserts what it reads in Chromium.
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );

  it(
    'a default check from a loopback origin: the attacker origins Chromium did not try are said so in every report, and the run is not OK',
    async () => {
      const mine = 'http://localhost:5173';
      const server = await expressCountingAllowlist([mine]);
      const files = { json: join(scratch, 'r.json'), junit: join(scratch, 'r.xml'), sarif: join(scratch, 'r.sarif') };
      const run = (more: string[]) =>
        runProgram([
          'check',
          server.url,
          '--from',
          mine,
          // http://attacker.test and the two null contexts in a page there (public names, plain
          // http), and http://evil.localhost:5173 (a loopback name, so not public to Chromium).
          '--hostile',
          'arbitrary,null,subdomain',
          '--credentials',
          'omit',
          '--engines',
          'chromium',
          '--color',
          'never',
          '--json',
          files.json,
          '--junit',
          files.junit,
          '--sarif',
          files.sarif,
          ...STEP_TIMEOUT,
          ...more,
        ]);
      try {
        // The default, grant: a public page that is not a secure context is refused outright.
        const ran = await run([]);
        const notTried = ['http://attacker.test', 'null (sandboxed frame)', 'null (data worker)'];
        const report = JSON.parse(readFileSync(files.json, 'utf8')) as CheckReport;
        expect(report.notTried).toEqual([
          { engine: 'chromium', origins: notTried, of: 4, reason: 'local-network-access' },
        ]);
        expect(report.findings).toEqual([]);
        expect(ran.code).toBe(3);
        expect(report.exitCode).toBe(3);
        // The terminal: the legend says what the dashes are, the verdict never says OK for Chromium.
        expect(ran.stdout).toMatch(/^ {2}– local network: not tried: Chromium's Local Network Access/m);
        const verdict = ran.stdout.trim().split('\n').at(-1)!;
        expect(verdict).not.toMatch(/^OK/);
        expect(verdict).toMatch(/chromium: 3 of 4 attacker origins not tried .*--local-network public.*\(exit 3\)$/);
        // JUnit: the requests never asked are skipped, not passed; the one CORS refused passed.
        const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
          readFileSync(files.junit, 'utf8'),
        );
        const cases = [junit.testsuites.testsuite.testcase].flat() as { name: string; skipped?: unknown }[];
        const skipped = cases.filter((testcase) => testcase.skipped !== undefined).map((testcase) => testcase.name);
        expect(skipped.sort()).toEqual(
          ['http://attacker.test', 'null (sandboxed-frame)', 'null (data-worker)']
            .flatMap((origin) => [`${origin} get`, `${origin} get-credentials`, `${origin} preflight-credentials`])
            .sort(),
        );
        // SARIF: the run did not do all it set out to, and says what it left out.
        const invocation = JSON.parse(readFileSync(files.sarif, 'utf8')).runs[0].invocations[0];
        expect(invocation).toMatchObject({ executionSuccessful: false, exitCode: 3 });
        expect(invocation.toolExecutionNotifications[0].message.text).toMatch(/^chromium: 3 of 4 attacker origins/);
        // Counted as public, every origin is asked and such a run is OK: the default run's test
        // (check-default-run.test.ts) shows it, on the same server's kind of allowlist.
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );
});
