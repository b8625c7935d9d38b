/**
 * `check --profile local` against servers on this machine: the DNS rebinding attempt in each
 * engine. The rebinding page is at http://rebind.attacker.test:<port>, a name each engine is told
 * points to the server: its GET of the same path is same-origin (HTML's origin is scheme, host
 * and port; the address plays no part), so the Fetch standard asks no CORS question and sends no
 * Origin; only the server's check of Host can refuse.
 *
 * Expected, written from each engine's documented behaviour before the run: Firefox and WebKit
 * read it (no Local Network Access in Firefox ESR 153 or WebKitGTK 2.50); Chromium (Local Network
 * Access since 142) refuses a public http:// page reaching a loopback address outright, so there
 * the attempt is stopped before it leaves, which is not the server refusing.
 */
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../src/check/report.js';
import { expressDevServer, mcpSdkExpressApp, YOURS, type Fixture } from './fixtures.js';
import { ENGINES, oneEngineName, profiled, runProgram } from './run-check.js';

/** The check with --profile local (Chromium's Local Network Access as it ships: --local-network grant). */
const local = (fixture: Promise<Fixture>, engines: readonly string[] = ENGINES) => profiled(fixture, 'local', engines);

const rebound = (report: CheckReport, engine: string) =>
  report.results.find((run) => run.engine === engine && run.origin.kind === 'rebinding');

const READS = ['firefox', 'webkit'].filter((engine) => ENGINES.includes(engine as never));
/** One engine that reads (no Local Network Access), for what the server decides alike in all: the one preferred where there. */
const oneReader = (preferred: string) => {
  const engine = oneEngineName(preferred);
  return READS.includes(engine) ? [engine] : READS.slice(0, 1);
};

describe.skipIf(ENGINES.length === 0)(`check --profile local (${ENGINES.join(', ')})`, () => {
  it('a dev server that answers any Host: read through DNS rebinding (high), where Local Network Access does not stop it', async () => {
    const report = await local(expressDevServer());
    for (const engine of READS) expect(rebound(report, engine)).toMatchObject({ readable: true, status: 200 });
    if (ENGINES.includes('chromium'))
      expect(rebound(report, 'chromium')).toMatchObject({ readable: false, reason: { rule: 'local-network-access' } });
    const finding = report.findings.find((f) => f.kind === 'dns-rebinding');
    if (READS.length > 0) {
      expect(finding).toMatchObject({ severity: 'high', engines: READS });
      expect(finding?.fix?.topic).toBe('host-check');
    }
    // The server saw the attacker's name in Host, and no Origin: the check's own request says so.
    const own = report.exchanges.find((record) => record.cell === 'rebinding-get');
    expect(own?.exchange.actual?.status).toBe(200);
  }, 180_000);

  it('the MCP SDK’s createMcpExpressApp on its default host refuses the rebound name (403): no finding', async () => {
    const engines = oneReader('firefox');
    const report = await local(mcpSdkExpressApp('default'), engines);
    for (const engine of engines) expect(rebound(report, engine)).toMatchObject({ readable: true, status: 403 });
    expect(report.findings.map((f) => f.kind)).not.toContain('dns-rebinding');
  }, 180_000);

  it('the same app told host 0.0.0.0 validates no Host: read through DNS rebinding (high)', async () => {
    const engines = oneReader('webkit');
    const report = await local(mcpSdkExpressApp('none'), engines);
    for (const engine of engines) expect(rebound(report, engine)).toMatchObject({ readable: true, status: 200 });
    if (engines.length > 0) expect(report.findings.find((f) => f.kind === 'dns-rebinding')?.severity).toBe('high');
  }, 180_000);
});

describe('check --profile local: where it does not apply', () => {
  it('a server on a public address is refused with exit 2, naming the address', async () => {
    const ran = await runProgram(['check', 'http://203.0.113.7/me', '--from', YOURS, '--profile', 'local'], 30_000);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/--profile local is for a server on this machine or a private network: 203\.0\.113\.7/);
  }, 180_000);
});
