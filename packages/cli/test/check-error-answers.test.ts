import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MatrixOptions } from '../src/check/cells.js';
import { hostileOrigins, yourOrigins } from '../src/check/origins.js';
import { planRun, plannedRequests } from '../src/check/run-check.js';
import { expressAuthBeforeCors, expressNotFoundReflectsAll, YOURS, type Fixture } from './fixtures.js';
import { check, ENGINES, findingsOf, oneEngine, runProgram, sorted } from './run-check.js';

// CORS on error answers (--also-url): every origin's two reads (a GET without and with
// credentials) sent again to a URL that answers an error, against real middlewares that send the
// CORS headers on success only, or on errors only. Expectations written from the Fetch rules: an
// answer without Access-Control-Allow-Origin is a network error to script, whatever its status;
// one that names the page's origin, with Allow-Credentials: true, is read with credentials, a 404
// as a 200. What an attacker reads there is graded as any read (any site, with credentials: high).

const CHECK_MS = 240_000;
const ATTACKER = 'http://attacker.test';
const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-also-url-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A check of the fixture's /me, with --also-url its path (on the same server). */
async function against(fixture: Promise<Fixture>, path: string, args: string[]) {
  const server = await fixture;
  const errorUrl = new URL(path, server.url).href;
  try {
    return { errorUrl, ...(await check(server.url, ['--from', YOURS, '--also-url', errorUrl, ...args])) };
  } finally {
    await server.stop();
  }
}

describe('check --also-url: the plan', () => {
  it('each URL adds every origin’s two reads, sent there, and the requests they cost', () => {
    const target = new URL('http://127.0.0.1:8000/me');
    const errorUrl = new URL('http://127.0.0.1:8000/private');
    const origins = [...yourOrigins([YOURS]), ...hostileOrigins(YOURS, ['arbitrary'])];
    const matrix: MatrixOptions = {
      credentials: 'both',
      headers: [['X-Origin-Lab-Check', '1']],
      methods: [],
      body: 'json',
    };
    const without = planRun(target, origins, matrix);
    const plan = planRun(target, origins, { ...matrix, alsoUrls: [errorUrl] });
    for (const origin of origins) {
      const added = plan.cellsFor(origin).filter((cell) => cell.url !== undefined);
      expect(added.map((cell) => [cell.id, cell.url, cell.sameAs, cell.credentials])).toEqual([
        ['also-1-get', errorUrl.href, 'get', false],
        ['also-1-get-credentials', errorUrl.href, 'get-credentials', true],
      ]);
      expect(added.every((cell) => cell.title.endsWith(`, to ${errorUrl.href}`))).toBe(true);
    }
    // Two GETs per origin: each sent once by the one engine and once by the check itself.
    expect(plannedRequests(plan, 1) - plannedRequests(without, 1)).toBe(2 * 2 * 2);
  });
});

describe('check --also-url: usage', () => {
  it('a URL that is not http(s), or not a URL, is bad usage (exit 2) naming it', async () => {
    for (const [url, said] of [
      ['ftp://api.example.test/private', '--also-url "ftp://api.example.test/private" is not an http or https URL'],
      ['/private', '--also-url "/private" is not a URL'],
    ]) {
      const ran = await runProgram(['check', 'http://127.0.0.1:9/me', '--from', YOURS, '--also-url', url!]);
      expect(ran.code, url).toBe(2);
      expect(ran.stderr, url).toContain(said);
    }
  });

  it('more than five URLs is bad usage (exit 2)', async () => {
    const urls = [1, 2, 3, 4, 5, 6].flatMap((n) => ['--also-url', `http://127.0.0.1:9/error-${n}`]);
    const ran = await runProgram(['check', 'http://127.0.0.1:9/me', '--from', YOURS, ...urls]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--also-url names 6 URLs; at most 5');
  });
});

describe.skipIf(ENGINES.length === 0)(`check --also-url, CORS on error answers (${ENGINES.join(', ')})`, () => {
  it(
    'authentication answering 401 before cors: your origin reads /me but not the 401 (low), and no attacker reads anything',
    async () => {
      const { code, report, stderr, errorUrl } = await against(expressAuthBeforeCors(), '/private', [
        '--hostile',
        'arbitrary',
        ...oneEngine('chromium'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([{ kind: 'error-answer-unreadable', severity: 'low', origins: [YOURS] }]),
      );
      const finding = report.findings[0]!;
      // Both reads of yours at the 401: no Access-Control-Allow-Origin, so a network error to script.
      expect(finding.cells).toEqual(['also-1-get', 'also-1-get-credentials']);
      expect(finding.url).toBe(errorUrl);
      expect(finding.title).toContain(`401 answer of ${errorUrl}`);
      expect(finding.reason?.rule).toBe('no-allow-origin');
      expect(finding.fix?.topic).toBe('cors-on-errors');
      const yours = report.results.filter((run) => run.origin.kind === 'yours');
      expect(yours.filter((run) => run.cell.url === undefined).every((run) => run.readable)).toBe(true);
      expect(yours.filter((run) => run.cell.url !== undefined).map((run) => run.readable)).toEqual([false, false]);
      expect(report.results.filter((run) => run.origin.kind !== 'yours' && run.readable)).toEqual([]);
      // The check asked the error URL itself, as each origin: 401, without any CORS header.
      const asked = report.exchanges.filter((record) => record.url === errorUrl);
      expect(asked.map((record) => [record.origin, record.exchange.actual?.status])).toEqual([
        [YOURS, 401],
        [YOURS, 401],
        [ATTACKER, 401],
        [ATTACKER, 401],
      ]);
      expect(asked.some((record) => record.exchange.actual?.headers['access-control-allow-origin'])).toBe(false);
      // The terminal's table for your origin lists each read of the error URL (the table goes to
      // standard error when the JSON takes standard output); a simple GET reaches the server (⇢).
      expect(stderr).toMatch(/GET → \/private +✘ ⇢ no Allow-Origin/);
      expect(stderr).toMatch(/GET, credentials \(fetch\) → \/private +✘ ⇢ no Allow-Origin/);
      expect(code).toBe(0);
    },
    CHECK_MS,
  );

  it(
    'a 404 handler with cors({ origin: true, credentials: true }), /me behind an exact allowlist: any site reads the 404 with credentials (high)',
    async () => {
      const proofs = join(scratch, 'proofs');
      const { code, report, errorUrl } = await against(expressNotFoundReflectsAll(), '/no-such-page', [
        '--hostile',
        'arbitrary',
        '--proof',
        proofs,
        ...oneEngine('firefox'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([{ kind: 'hostile-read-credentials', severity: 'high', origins: [ATTACKER] }]),
      );
      const finding = report.findings[0]!;
      // Only the error answer is read: the target refuses the attacker.
      expect(finding.cells).toEqual(['also-1-get-credentials']);
      expect(finding.detail).toContain(`error answers only (--also-url): ${errorUrl} (404)`);
      const attacker = report.results.filter((run) => run.origin.kind === 'arbitrary');
      expect(attacker.filter((run) => run.readable).map((run) => [run.cell.id, run.status])).toEqual([
        ['also-1-get', 404],
        ['also-1-get-credentials', 404],
      ]);
      // The proof page sends the request that was read: to the error URL, not the target.
      expect(report.proofs?.pages.map((page) => page.origin)).toEqual([ATTACKER]);
      const page = readFileSync(join(proofs, report.proofs!.pages[0]!.file), 'utf8');
      expect(page).toContain(`<code>GET ${errorUrl}</code>`);
      // Your origin reads the 404 too: nothing of yours is refused.
      expect(report.results.filter((run) => run.origin.kind === 'yours').every((run) => run.readable)).toBe(true);
      expect(code).toBe(1);
    },
    CHECK_MS,
  );
});
