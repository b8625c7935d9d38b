import { describe, expect, it } from 'vitest';
import {
  expressPreflightForAll,
  expressHostOnlyCheck,
  expressTrustsDevServers,
  expressTrustsLocalhostPrefix,
  expressTrustsThirdPartyHosting,
  koaCorsDefaults,
  koaCorsTrustsHttpSubdomains,
  YOURS,
} from './fixtures.js';
import { against, check, ENGINES, findingsOf, oneEngine, sorted } from './run-check.js';

// The attacker's whole reach: the origin classes scanners try and the check did not, hostile
// preflights and writes, each against the real middleware configuration that causes it.
// Expectations are written from the rules and from what it takes to be each origin: any site
// (a name anyone registers, a page anyone publishes) reading with credentials is high; a position
// (a subdomain, the network path, a program on the user's machine, another port) medium; your
// own host under another name low. A write as the user is one step above the read.

const CHECK_MS = 240_000;

describe.skipIf(ENGINES.length === 0)(`check, the attacker's whole reach (${ENGINES.join(', ')})`, () => {
  it(
    'an allowlist that trusts *.github.io and codepen.io: anyone publishing there reads with credentials (high), where https may call http',
    async () => {
      // Firefox: that WebKit refuses an https page's call to http:// on loopback as mixed content
      // is the default run's, for every https origin.
      const { report } = await against(expressTrustsThirdPartyHosting(), [
        '--hostile',
        'third-party',
        ...oneEngine('firefox'),
      ]);
      const hosting = ['https://attacker.github.io', 'https://codepen.io'];
      expect(findingsOf(report)).toEqual(
        sorted([{ kind: 'hostile-read-credentials', severity: 'high', origins: hosting }]),
      );
    },
    CHECK_MS,
  );

  it(
    '/^http:\\/\\/localhost/ on the allowlist: a registered name that starts with localhost reads (high), and every dev server (medium)',
    async () => {
      const { report } = await against(expressTrustsLocalhostPrefix(), [
        '--hostile',
        'localhost-edge,dev-server',
        ...oneEngine('firefox'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          {
            kind: 'hostile-read-credentials',
            severity: 'high',
            origins: [
              'http://localhost.attacker.test',
              'http://localhost:3000',
              'http://localhost:5173',
              'http://localhost:8080',
            ],
          },
        ]),
      );
    },
    CHECK_MS,
  );

  it(
    'development servers left on the allowlist: any program on the user’s machine reads with credentials (medium)',
    async () => {
      const { report } = await against(expressTrustsDevServers(), ['--hostile', 'dev-server', ...oneEngine('firefox')]);
      expect(findingsOf(report)).toEqual(
        sorted([
          {
            kind: 'hostile-read-credentials',
            severity: 'medium',
            origins: ['http://127.0.0.1:5173', 'http://localhost:3000'],
          },
        ]),
      );
    },
    CHECK_MS,
  );

  it(
    '--also-hostile names an origin the allowlist should not hold: it reads with credentials, graded as any site (high)',
    async () => {
      const { report } = await against(expressTrustsDevServers(), [
        '--hostile',
        'none',
        '--also-hostile',
        'http://localhost:3000',
        ...oneEngine('chromium'),
      ]);
      expect(report.origins.filter((origin) => origin.kind !== 'yours').map((origin) => origin.kind)).toEqual([
        'listed',
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([{ kind: 'hostile-read-credentials', severity: 'high', origins: ['http://localhost:3000'] }]),
      );
    },
    CHECK_MS,
  );

  it(
    'a check of the host name alone: another port (medium), https and the trailing dot (your own host: low) read with credentials; a lookalike does not',
    async () => {
      // Firefox: that every engine can be these origins, and that WebKit refuses the https one's
      // call as mixed content, is the default run's (check-default-run.test.ts).
      const { report } = await against(expressHostOnlyCheck(), [
        '--hostile',
        'trailing-dot,other-port,other-scheme,lookalike,arbitrary',
        ...oneEngine('firefox'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          {
            kind: 'hostile-read-credentials',
            severity: 'medium',
            origins: ['http://app.example.test.', 'http://app.example.test:8080', 'https://app.example.test'],
          },
          // cors calls next() with no header at all when the function says no (attacker.test): the
          // refusal carries no Vary: Origin, so a shared cache may hand it to an origin it allows.
          { kind: 'missing-vary', severity: 'low' },
        ]),
      );
      for (const run of report.results) expect(run.couldNot, `${run.engine} ${run.origin.origin}`).toBeNull();
      // The lookalike (app.xn--xample-2of.test) is another host name: refused everywhere.
      const lookalike = report.results.filter((run) => run.origin.kind === 'lookalike');
      expect(lookalike.length).toBeGreaterThan(0);
      for (const run of lookalike) expect(run.readable, `${run.engine} ${run.cell.id}`).toBe(false);
    },
    CHECK_MS,
  );

  it(
    '@koa/cors trusting /^https?:\\/\\/(…\\.)*example\\.test$/ from https: the http twin, an http subdomain and any subdomain read (medium)',
    async () => {
      const server = await koaCorsTrustsHttpSubdomains();
      try {
        const { report } = await check(server.url, [
          '--from',
          'https://app.example.test',
          '--hostile',
          'arbitrary,subdomain,http-twin,http-subdomain',
          ...oneEngine('firefox'),
        ]);
        expect(findingsOf(report)).toEqual(
          sorted([
            {
              kind: 'hostile-read-credentials',
              severity: 'medium',
              origins: ['http://app.example.test', 'http://evil.example.test', 'https://evil.example.test'],
            },
          ]),
        );
      } finally {
        await server.stop();
      }
    },
    CHECK_MS,
  );

  it(
    'app.options(path, cors({ origin: true, credentials: true })): any site sends DELETE as the user (critical) and passes the preflight (high), though it reads nothing',
    async () => {
      const { code, report } = await against(expressPreflightForAll(), [
        '--hostile',
        'arbitrary',
        '--methods',
        'DELETE',
        ...oneEngine('chromium'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          { kind: 'hostile-write', severity: 'critical', origins: ['http://attacker.test'] },
          { kind: 'hostile-preflight', severity: 'high', origins: ['http://attacker.test'] },
        ]),
      );
      // The attacker's requests went out (the engine saw the preflight approved) and stayed unreadable.
      const attacker = report.results.filter((run) => run.origin.kind === 'arbitrary');
      expect(attacker.map((run) => run.readable)).toEqual(attacker.map(() => false));
      const write = attacker.find((run) => run.cell.method === 'DELETE')!;
      expect(write.sent?.value).toBe(true);
      // The preflight before it was approved: 204, with every method cors allows by default, which
      // Chromium keeps (its 5 s default without Max-Age), so the DELETE needs none of its own.
      const preflighted = attacker.find((run) => run.cell.id === 'preflight-credentials')!;
      expect(preflighted.preflight).toMatchObject({ sent: true, status: 204 });
      // What changed state was said: DELETE, from yours and the attacker, once each.
      expect(report.writes).toEqual([
        { method: 'DELETE', requests: 2, origins: [YOURS, 'http://attacker.test'], engines: [write.engine] },
      ]);
      expect(code).toBe(1);
    },
    CHECK_MS,
  );

  it(
    '@koa/cors defaults (*, no credentials): null reads as every origin does, the wildcard said once and "null" not called trusted; exit 0',
    async () => {
      const { code, report } = await against(koaCorsDefaults(), [
        '--hostile',
        'null,arbitrary',
        ...oneEngine('webkit'),
      ]);
      expect(findingsOf(report)).toEqual(
        sorted([
          { kind: 'wildcard', severity: 'info' },
          // * never goes with credentials: your own credentialed reads are refused (low).
          { kind: 'refused', severity: 'low', cell: 'get-credentials', rule: 'wildcard-with-credentials' },
          { kind: 'refused', severity: 'low', cell: 'xhr-credentials', rule: 'wildcard-with-credentials' },
        ]),
      );
      const nullReads = report.results.filter((run) => run.origin.kind === 'null' && run.readable);
      expect(nullReads.map((run) => run.cell.id)).toEqual(['get', 'get']);
      // No finding at or above --fail-on's default (medium), every origin tried: exit 0.
      expect(code).toBe(0);
    },
    CHECK_MS,
  );
});
