/**
 * `check --profile mcp` against the MCP TypeScript SDK's Streamable HTTP server, its CORS set as
 * people set it. Expected, written from the MCP specification (Streamable HTTP: the session id in
 * Mcp-Session-Id, sent back on every later request with Mcp-Protocol-Version; 403 to an Origin the
 * server does not trust) and the Fetch standard (a header script may read only when
 * Access-Control-Expose-Headers names it; a request header the preflight's answer does not allow
 * is refused before the request goes): the same in every engine.
 */
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../src/check/report.js';
import { mcpStreamableServer, type Fixture } from './fixtures.js';
import { ENGINES, oneEngineName, profiled } from './run-check.js';

/** The check with --profile mcp in these engines (every one unless a test names one: the rules are the same in each). */
const mcp = (fixture: Promise<Fixture>, engines: readonly string[] = ENGINES) =>
  profiled(fixture, 'mcp', engines, ['--local-network', 'public']);

/** Per engine of the run, each handshake step of your origin: its status when read, else "refused". */
function handshake(report: CheckReport) {
  const steps = ['mcp-initialize', 'mcp-initialized', 'mcp-tools-list', 'mcp-delete'];
  return Object.fromEntries(
    report.engines.map(({ name: engine }) => [
      engine,
      steps.map((step) => {
        const run = report.results.find((r) => r.engine === engine && r.origin.kind === 'yours' && r.cell.id === step);
        return run?.readable ? run.status : `refused`;
      }),
    ]),
  );
}

const every = <T>(value: T, engines: readonly string[] = ENGINES) =>
  Object.fromEntries(engines.map((engine) => [engine, value]));
/** One engine, for a behaviour the Fetch standard decides alike in all (each test prefers another, so every adapter runs). */
const one = (preferred: string) => [oneEngineName(preferred)];

describe.skipIf(ENGINES.length === 0)(`check --profile mcp (${ENGINES.join(', ')})`, () => {
  // One engine, as the other tests here: each engine's own preflight and exposed headers for an
  // MCP client are mcp.spec.ts's (e2e), in all three.
  it('CORS as the SDK needs it and the transport validating Origin: the whole handshake, no finding', async () => {
    const report = await mcp(mcpStreamableServer('complete', true), one('chromium'));
    expect(handshake(report)).toEqual(every([200, 202, 200, 200], one('chromium')));
    expect(report.findings.filter((f) => f.severity !== 'info').map((f) => f.kind)).toEqual([]);
  }, 180_000);

  it('Mcp-Session-Id not exposed: initialize reads, the session is lost, every later step gets 400 (medium)', async () => {
    const engines = one('firefox');
    const report = await mcp(mcpStreamableServer('session-not-exposed', true), engines);
    expect(handshake(report)).toEqual(every([200, 400, 400, 400], engines));
    const hidden = report.findings.find((f) => f.kind === 'mcp-session-hidden');
    expect(hidden).toMatchObject({ severity: 'medium', engines });
    expect(hidden?.fix?.topic).toBe('expose-headers');
  }, 180_000);

  it('Mcp-Protocol-Version not allowed: the steps after initialize are refused at their preflight, each named with the header', async () => {
    const engines = one('webkit');
    const report = await mcp(mcpStreamableServer('protocol-header-not-allowed', true), engines);
    expect(handshake(report)).toEqual(every([200, 'refused', 'refused', 'refused'], engines));
    const refused = report.findings.filter((f) => f.kind === 'refused' && f.cells[0] === 'mcp-initialized');
    expect(refused).toHaveLength(1);
    expect(`${refused[0]!.detail} ${refused[0]!.title}`.toLowerCase()).toContain('mcp-protocol-version');
  }, 180_000);

  it('no Origin validation: initialize from an attacker origin is answered (200), not 403 (medium)', async () => {
    const report = await mcp(mcpStreamableServer('complete', false), one('chromium'));
    expect(report.findings.find((f) => f.kind === 'mcp-origin-not-validated')).toMatchObject({
      severity: 'medium',
      origins: expect.arrayContaining(['http://attacker.test']),
    });
  }, 180_000);
});
