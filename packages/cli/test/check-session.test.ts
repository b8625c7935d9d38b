/**
 * `check --session`: the user's signed-in cookies set in every engine, each engine under its own
 * default cookie policy, against a real https API (express cors reflecting every origin with
 * credentials) whose certificate comes from an authority of this test (--ca).
 *
 * What each engine should do with a cross-site credentialed fetch, written from its documented
 * default before the run:
 * - Chromium, set as Google Chrome ships (third-party cookies allowed; Chrome kept them on by
 *   default, 2025): sends SameSite=None; Secure, holds back SameSite=Lax (RFC 6265bis: Lax goes
 *   only with same-site requests and top-level navigations) and the Partitioned cookie (CHIPS:
 *   partitioned under the target's own site, not the attacker's top-level site).
 * - Firefox: Total Cookie Protection (the default since Firefox 103): a third-party request
 *   carries only cookies partitioned under the top-level site, so none of the target's own.
 * - WebKit: blocks third-party cookies (Safari's default since 13.1; WebKitGTK's default cookie
 *   policy accepts none from third parties).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../src/check/report.js';
import { YOURS } from './fixtures.js';
import { ENGINES, oneEngineName, runProgram, STEP_TIMEOUT } from './run-check.js';
import { sessionServer, type SessionServer } from './session-fixture.js';

const ATTACKER = 'http://attacker.test';

/** A Playwright storage state holding the session cookie (with sameSite) and two more. */
function storageState(server: SessionServer, sidSameSite: 'None' | 'Lax'): string {
  const file = join(server.dir, `state-${sidSameSite}.json`);
  const base = { domain: 'localhost', path: '/', expires: -1, httpOnly: true, secure: true };
  const cookies = [
    { ...base, name: server.sid.name, value: server.sid.value, sameSite: sidSameSite },
    { ...base, name: 'prefs', value: 'lax-secret-prefs', sameSite: 'Lax' },
    ...(sidSameSite === 'None'
      ? [{ ...base, name: 'chip', value: 'partitioned-secret', sameSite: 'None', partitionKey: 'https://localhost' }]
      : []),
  ];
  writeFileSync(file, JSON.stringify({ cookies, origins: [] }));
  return file;
}

/** Runs the check signed in, in these engines, every report format written into the server's folder. */
async function signedInCheck(server: SessionServer, state: string, engines: readonly string[] = ENGINES) {
  const out = (name: string) => join(server.dir, name);
  const ran = await runProgram(
    [
      'check',
      server.url,
      '--from',
      YOURS,
      '--hostile',
      'arbitrary',
      '--session',
      state,
      '--engines',
      engines.join(','),
      '--local-network',
      'public',
      '--color',
      'never',
      '--json',
      out('report.json'),
      '--sarif',
      out('report.sarif'),
      '--junit',
      out('report.xml'),
      '--markdown',
      out('report.md'),
      '--proof',
      out('proof'),
      '--ca',
      server.caFile,
      ...STEP_TIMEOUT,
    ],
    240_000,
  );
  if (ran.code !== 0 && ran.code !== 1) throw new Error(`check exited ${ran.code}: ${ran.stderr}`);
  const report = JSON.parse(readFileSync(out('report.json'), 'utf8')) as CheckReport;
  const written = ['report.json', 'report.sarif', 'report.xml', 'report.md']
    .map((name) => readFileSync(out(name), 'utf8'))
    .concat(readdirSync(out('proof')).map((name) => readFileSync(join(out('proof'), name), 'utf8')));
  return { ran, report, everything: [ran.stdout, ran.stderr, ...written].join('\n') };
}

const attackerRead = (report: CheckReport, engine: string) =>
  report.results.find(
    (run) => run.engine === engine && run.origin.origin === ATTACKER && run.cell.id === 'get-credentials',
  );

describe.skipIf(ENGINES.length === 0)(`check --session (${ENGINES.join(', ')})`, () => {
  it('a SameSite=None session leaks where the engine sends third-party cookies (Chromium), and no output holds a value', async () => {
    const server = await sessionServer();
    try {
      const { report, everything } = await signedInCheck(server, storageState(server, 'None'));
      const expected: Record<string, { cookieSent: boolean; signedInRead: boolean; why?: RegExp }> = {
        chromium: { cookieSent: true, signedInRead: true },
        firefox: { cookieSent: false, signedInRead: false, why: /Total Cookie Protection/ },
        webkit: { cookieSent: false, signedInRead: false, why: /third-party cookies/ },
      };
      for (const engine of ENGINES) {
        const session = attackerRead(report, engine)?.session;
        expect({ engine, cookieSent: session?.cookieSent, signedInRead: session?.signedInRead }).toEqual({
          engine,
          cookieSent: expected[engine]!.cookieSent,
          signedInRead: expected[engine]!.signedInRead,
        });
        if (expected[engine]!.why) expect(session?.withheld).toMatch(expected[engine]!.why!);
      }
      const leak = report.findings.find((finding) => finding.kind === 'session-leak');
      if (ENGINES.includes('chromium')) {
        expect(leak).toMatchObject({ severity: 'high', origins: [ATTACKER], engines: ['chromium'] });
        expect(report.proofs?.pages.length).toBeGreaterThan(0);
      } else expect(leak).toBeUndefined();
      expect(report.session).toEqual({ cookies: ['sid', 'prefs', 'chip'] });
      for (const value of [server.sid.value, 'lax-secret-prefs', 'partitioned-secret'])
        expect(everything.includes(value), `a report holds the value ${value}`).toBe(false);
    } finally {
      await server.stop();
    }
  }, 300_000);

  // Chromium alone: it is the one engine that sends third-party cookies (above), so the one where
  // SameSite decides; Firefox and WebKit hold back every third-party cookie, whatever its SameSite.
  it('a SameSite=Lax session is held back where third-party cookies go (Chromium): the read is graded as one without credentials, and the finding says why', async () => {
    const engines = [oneEngineName('chromium')];
    const server = await sessionServer();
    try {
      const { report, everything } = await signedInCheck(server, storageState(server, 'Lax'), engines);
      for (const engine of engines) expect(attackerRead(report, engine)?.session?.cookieSent).toBe(false);
      expect(report.findings.find((finding) => finding.kind === 'session-leak')).toBeUndefined();
      const read = report.findings.find((finding) => finding.kind === 'hostile-read-credentials');
      expect(read?.severity).toBe('medium');
      expect(read?.detail).toMatch(/SameSite/);
      expect(everything.includes(server.sid.value)).toBe(false);
    } finally {
      await server.stop();
    }
  }, 300_000);
});

describe('check --session: a file the check cannot use', () => {
  const bad = async (file: string, text: string | null, extra: string[] = []) => {
    if (text !== null) writeFileSync(file, text);
    return runProgram(['check', 'https://api.example.test/me', '--from', YOURS, '--session', file, ...extra], 30_000);
  };

  it('a missing file, a broken line and --credentials omit exit 2 with a message that holds no value', async () => {
    const server = await sessionServer();
    try {
      const missing = await bad(join(server.dir, 'nope.json'), null);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/--session names no file: give the path of a file/);
      const broken = await bad(join(server.dir, 'jar.txt'), `api.example.test\tFALSE\t/\tTRUE\t0\tsid\n`);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(/line 1/);
      const noneHere = await bad(join(server.dir, 'other.txt'), `Cookie: sid=${server.sid.value}\n`, [
        '--credentials',
        'omit',
      ]);
      expect(noneHere.code).toBe(2);
      expect(noneHere.stderr).toMatch(/--credentials omit/);
      for (const ran of [missing, broken, noneHere])
        expect(`${ran.stdout}${ran.stderr}`.includes(server.sid.value)).toBe(false);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('--ca: a missing file, or one without a PEM certificate, exits 2 naming it', async () => {
    const server = await sessionServer();
    try {
      const ca = async (file: string) =>
        runProgram(['check', 'https://api.example.test/me', '--from', YOURS, '--ca', file], 30_000);
      const missing = await ca(join(server.dir, 'nope.pem'));
      expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/--ca .*nope\.pem: no such file/)]);
      const notPem = join(server.dir, 'not.pem');
      writeFileSync(notPem, 'not a certificate\n');
      const wrong = await ca(notPem);
      expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringMatching(/no PEM certificate/)]);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
