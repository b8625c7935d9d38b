import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  expressExactAllowlist,
  expressPreflightUnauthorized,
  expressStarWithCredentials,
  originLabApi,
  YOURS,
} from './fixtures.js';
import { against, check, ENGINES, findingsOf, oneEngine, runProgram, sorted } from './run-check.js';

// Expectations written from the rules (Fetch's CORS check and the preflight's checks): what each
// configuration refuses the user's own origin, and why.

const CHECK_MS = 240_000;
const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-check-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(ENGINES.length === 0)(`check, against servers that refuse too much (${ENGINES.join(', ')})`, () => {
  it(
    "express cors({ origin: '*', credentials: true }): Allow-Credentials does not make * cover credentials",
    async () => {
      const { report } = await against(expressStarWithCredentials(), [
        '--hostile',
        'arbitrary',
        ...oneEngine('webkit'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          { kind: 'wildcard', severity: 'info' },
          { kind: 'refused', severity: 'low', cell: 'get-credentials', rule: 'wildcard-with-credentials' },
          { kind: 'refused', severity: 'low', cell: 'xhr-credentials', rule: 'wildcard-with-credentials' },
        ]),
      );
    },
    CHECK_MS,
  );

  it(
    'authentication before cors: the preflight carries no credentials and gets 401, the plain GET no CORS headers',
    async () => {
      const { report } = await against(expressPreflightUnauthorized(), [
        '--hostile',
        'arbitrary',
        ...oneEngine('chromium'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          { kind: 'refused', severity: 'low', cell: 'get', rule: 'no-allow-origin' },
          { kind: 'refused', severity: 'low', cell: 'get-credentials', rule: 'no-allow-origin' },
          { kind: 'refused', severity: 'low', cell: 'xhr-credentials', rule: 'no-allow-origin' },
          { kind: 'refused', severity: 'low', cell: 'custom-header', rule: 'preflight-status' },
          { kind: 'refused', severity: 'low', cell: 'authorization', rule: 'preflight-status' },
        ]),
      );
      const preflight = report.findings.find((finding) => finding.cells[0] === 'authorization')!;
      expect(preflight.fix?.topic).toBe('preflight-ok');
      expect(preflight.playground).toMatch(/playground\.html#allow-methods=PUT&method=PUT&preflight-status=401$/);
    },
    CHECK_MS,
  );

  it(
    "this project's api (/api/posts): its allowlist reads yours without credentials, and lists only its own headers",
    async () => {
      const { report } = await against(originLabApi('/api/posts'), [
        '--hostile',
        'arbitrary',
        ...oneEngine('chromium'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          { kind: 'refused', severity: 'low', cell: 'get-credentials', rule: 'credentials-not-allowed' },
          { kind: 'refused', severity: 'low', cell: 'xhr-credentials', rule: 'credentials-not-allowed' },
          { kind: 'refused', severity: 'low', cell: 'custom-header', rule: 'header-not-allowed' },
          { kind: 'refused', severity: 'low', cell: 'authorization', rule: 'header-not-allowed' },
        ]),
      );
    },
    CHECK_MS,
  );

  it(
    "this project's CORS lab set to reflect the origin with credentials: the check finds what the playground shows",
    async () => {
      const { report } = await against(originLabApi('/lab/cors?allow-origin=origin&allow-credentials=true'), [
        '--hostile',
        'arbitrary',
        ...oneEngine('webkit'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          { kind: 'hostile-read-credentials', severity: 'high', origins: ['http://attacker.test'] },
          { kind: 'refused', severity: 'low', cell: 'custom-header', rule: 'header-not-allowed' },
          { kind: 'refused', severity: 'low', cell: 'authorization', rule: 'header-not-allowed' },
        ]),
      );
      const high = report.findings.find((finding) => finding.severity === 'high')!;
      expect(high.playground).toBe(
        'http://localhost:8080/playground.html#allow-credentials=on&allow-origin=origin&credentials=include',
      );
    },
    CHECK_MS,
  );

  it(
    "this project's CORS lab behind Fetch-metadata protection: CORS reads yours, the server refuses its POST (not CORS)",
    async () => {
      // Go's http.CrossOriginProtection, as the lab runs it: a POST that is not same-origin gets 403,
      // with the CORS headers on it, so the page reads the 403; GETs pass.
      const { code, report } = await against(
        originLabApi(
          '/lab/cors?protect=fetch-metadata&allow-headers=X-Origin-Lab-Check,Authorization&allow-credentials=true',
        ),
        ['--hostile', 'none', '--methods', 'POST', '--body', 'text', ...oneEngine('chromium')],
      );
      expect(findingsOf(report)).toEqual(sorted([{ kind: 'fetch-metadata', severity: 'low', origins: [YOURS] }]));
      expect(code).toBe(0);
      const posts = report.results.filter((run) => run.cell.method === 'POST');
      expect(posts.length).toBeGreaterThan(0);
      for (const run of posts) expect([run.readable, run.status], run.engine).toEqual([true, 403]);
      const finding = report.findings.find((candidate) => candidate.kind === 'fetch-metadata')!;
      expect(finding.playground).toBe('http://localhost:8080/playground.html#body=string&method=POST&protect=on');
    },
    CHECK_MS,
  );

  it(
    'an expectations file holds (exit 0) when the server does what it says, and fails (exit 1) naming what does not',
    async () => {
      const server = await expressExactAllowlist();
      try {
        const holds = join(scratch, 'holds.json');
        writeFileSync(
          holds,
          JSON.stringify({
            allow: [{ origin: YOURS, headers: ['Authorization'], credentials: true }],
            othersDenied: true,
          }),
        );
        const good = await check(server.url, ['--expect', holds, '--hostile', 'arbitrary', '--engines', ENGINES[0]!]);
        expect(good.report.expectations?.map((result) => [result.description, result.holds])).toEqual([
          [`${YOURS} reads a GET with credentials`, true],
          [`${YOURS} sends Authorization`, true],
          ['no other origin reads (1 tried)', true],
        ]);
        expect(good.code).toBe(0);

        const fails = join(scratch, 'fails.json');
        writeFileSync(
          fails,
          JSON.stringify({ allow: [{ origin: YOURS }, { origin: 'http://admin.example.test', headers: ['X-Admin'] }] }),
        );
        const bad = await check(server.url, ['--expect', fails, '--hostile', 'arbitrary', '--engines', ENGINES[0]!]);
        const failing = bad.report.expectations!.filter((result) => !result.holds).map((result) => result.description);
        expect(failing).toEqual(['http://admin.example.test reads a GET', 'http://admin.example.test sends X-Admin']);
        expect(bad.code).toBe(1);
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );

  it('a bad expectations file is one line naming the field, exit 2', async () => {
    const file = join(scratch, 'bad.json');
    writeFileSync(file, JSON.stringify({ allow: [{ origin: 'https://app.example.com/path' }] }));
    const ran = await runProgram(['check', 'http://127.0.0.1:9/', '--expect', file]);
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim()).toBe(
      `origin-lab: --expect ${file}: allow[0].origin "https://app.example.com/path" has a path, query or fragment; an origin is scheme://host[:port] only`,
    );
  });
});
