import { describe, expect, it } from 'vitest';
import { expressCountingAllowlist } from './fixtures.js';
import { ENGINES, runProgram } from './run-check.js';
import type { CheckReport } from '../src/check/report.js';

// Local Network Access, as Chromium ships it (since 142): a public page must be granted permission
// before it reaches a loopback or private address, and a page that is not a secure context is
// refused outright. The check's pages are public names to Chromium; the fixture listens on
// 127.0.0.1. Written from Chromium's documented behaviour: not CORS, and the request never leaves.

const SECURE = 'https://app.example.test';
const PLAIN = 'http://app.example.test';
const CHECK_MS = 120_000;

/** A check in Chromium alone, from one origin, with this answer to the permission prompt. */
async function checkLocal(url: string, from: string, localNetwork: 'grant' | 'deny' | 'public') {
  const ran = await runProgram([
    'check',
    url,
    '--from',
    from,
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
  ]);
  if (ran.code !== 0 && ran.code !== 1) throw new Error(`check exited ${ran.code}: ${ran.stderr}`);
  return JSON.parse(ran.stdout) as CheckReport;
}

const rulesOf = (report: CheckReport) => [...new Set(report.results.map((run) => run.reason?.rule ?? 'read'))];

describe.skipIf(!ENGINES.includes('chromium'))("check and Chromium's Local Network Access (not CORS)", () => {
  it(
    'a public https page: denied, nothing leaves and nothing is read; granted, CORS alone decides',
    async () => {
      const server = await expressCountingAllowlist([SECURE, PLAIN]);
      try {
        // The check asks the target itself before the engines, the same requests in every run: what
        // the engine sent is what one run brings more than the other.
        const before = server.arrived();
        const denied = await checkLocal(server.url, SECURE, 'deny');
        const arrivedDenied = server.arrived() - before;
        expect(rulesOf(denied)).toEqual(['local-network-access']);
        for (const run of denied.results) expect(run.reason!.text).toMatch(/^Not CORS: Local Network Access/);
        expect(new Set(denied.findings.map((finding) => finding.reason?.rule))).toEqual(
          new Set(['local-network-access']),
        );

        const between = server.arrived();
        const granted = await checkLocal(server.url, SECURE, 'grant');
        const arrivedGranted = server.arrived() - between;
        expect(rulesOf(granted)).toEqual(['read']);
        // Denied, none of the engine's requests arrived: at least one a request fewer than granted.
        expect(arrivedGranted - arrivedDenied).toBeGreaterThanOrEqual(granted.results.length);
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );

  it(
    'a plain http page is refused even when the user would grant it; counted as public, the same page reads',
    async () => {
      const server = await expressCountingAllowlist([SECURE, PLAIN]);
      try {
        expect(rulesOf(await checkLocal(server.url, PLAIN, 'grant'))).toEqual(['local-network-access']);
        expect(rulesOf(await checkLocal(server.url, PLAIN, 'public'))).toEqual(['read']);
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );
});
