import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { selfSignedCertificates } from '../src/drivers/probe-proxy.js';
import { expressReflectingAll, YOURS } from './fixtures.js';
import { ENGINES, runProgram, STEP_TIMEOUT } from './run-check.js';

// What a user gets for each kind of bad input: one line naming the problem and exit 2, before
// any engine starts; and what the report files look like to the tools that read them.

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-check-usage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const closing = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('origin-lab check: usage', () => {
  it('--help lists every option with its default, examples and the exit codes', async () => {
    const ran = await runProgram(['check', '--help']);
    expect(ran.code).toBe(0);
    for (const option of [
      '--from',
      '--engines',
      '--credentials',
      '--header',
      '--methods',
      '--body',
      '--hostile',
      '--expect',
      '--baseline',
      '--fail-on',
      '--json',
      '--junit',
      '--sarif',
      '--stack',
      '--timeout',
      '--delay',
      '--pages',
      '--connect',
      '--max-requests',
      '--local-network',
    ])
      expect(ran.stdout).toContain(option);
    expect(ran.stdout).toMatch(/Examples:\n {2}origin-lab check https:\/\//);
    // Each number's bounds, and each file's, before a value breaks them.
    for (const bounds of ['from 100 to 600000', 'from 1 to 32', 'from 0 to 60000', 'from 1 to 100000', 'over 256 KB'])
      expect(ran.stdout.replace(/\s+/g, ' ')).toContain(bounds);
    expect(ran.stdout).toMatch(/Exit codes: 0 .*; 1 .*\n2 /);
  });

  it('--help names every environment variable the engines read', async () => {
    // The variables as the engines' own source reads them (packages/engines, bundled into the program).
    const folder = new URL('../../engines/src/', import.meta.url);
    const read = readdirSync(folder)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => [...readFileSync(new URL(file, folder), 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)])
      .map((match) => match[1]!);
    expect(read).toContain('MINIBROWSER_PATH');
    const ran = await runProgram(['check', '--help']);
    for (const name of new Set(read)) expect(ran.stdout).toContain(name);
  });

  it('the program without a command prints its commands on standard error and exits 2; --version prints the version', async () => {
    const bare = await runProgram([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('check <url> --from <origin>');
    const version = await runProgram(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  /** check of a URL from your origin, with more options. */
  const checkWith = (...more: string[]) => ['check', 'https://example.com/', '--from', YOURS, ...more];

  it.each([
    [['check'], 'check needs the URL to check'],
    [['check', 'not a url', '--from', YOURS], '"not a url" is not a URL'],
    [['check', 'ftp://example.com/', '--from', YOURS], 'is not an http or https URL'],
    [['check', 'https://user:pw@example.com/', '--from', YOURS], 'has credentials in it'],
    [['check', 'https://example.com/'], 'check needs at least one --from origin'],
    [['check', 'https://example.com/', '--from', 'https://app.example.com/login'], 'has a path, query or fragment'],
    [['check', 'https://example.com/', '--from', 'https://app.example.com#'], 'has a path, query or fragment'],
    [['check', 'https://example.com/', '--from', 'app.example.com'], 'is not an origin: write scheme://host[:port]'],
    [['check', 'https://example.com/', '--from', 'ws://app.example.com'], 'is not an http or https origin'],
    [checkWith('--engines', 'safari'), 'unknown engine "safari"'],
    [checkWith('--hostile', 'everyone'), '--hostile must be one of'],
    [checkWith('--header', 'no colon'), 'is not "Name: value"'],
    [checkWith('--header', 'Cookie: a=b'), 'browsers set this header themselves'],
    [checkWith('--methods', 'TRACE'), 'fetch refuses this method'],
    [checkWith('--timeout', '10s'), '--timeout must be a whole number from 100 to 600000'],
    [checkWith('--pages', '0'), '--pages must be a whole number from 1 to 32'],
    [checkWith('--connect', 'webkit=ws://127.0.0.1:9/'), '--connect takes chromium=<ws-url> or firefox=<ws-url>'],
    [checkWith('--connect', 'firefox=http://127.0.0.1:9/'), 'is not a ws:// or wss:// address'],
    [checkWith('--fail-on', 'severe'), '--fail-on must be one of'],
    [checkWith('--quick', '--hostile', 'null'), '--quick and --hostile both choose the attacker origins'],
    [checkWith('--also-hostile', 'evil.example'), '--also-hostile "evil.example"'],
    [checkWith('--sarif-min', 'none'), '--sarif-min must be one of'],
    [checkWith('--colour', 'never'), "Unknown option '--colour' (see origin-lab check --help)"],
    [checkWith('--delay', '-5'), '--delay -5: a value that starts with a dash is written --delay=-5'],
    // A device that never ends, and a folder: refused by the bound and by kind, before any engine.
    [checkWith('--expect', '/dev/zero'), 'over 256 KB, the most --expect reads'],
    [checkWith('--session', '/tmp'), '--session /tmp: not a file'],
    // A report that could not be written is said before the run, not after it.
    [
      checkWith('--sarif', '/dev/null/cors.sarif'),
      'cannot write /dev/null/cors.sarif (a file is where a folder would be',
    ],
    [checkWith('--json', '/tmp'), 'cannot write /tmp: a folder is there'],
    // A place no folder can be made (Node's own recursive mkdir would try it for ever).
    [checkWith('--json', '/proc/origin-lab/r.json'), 'cannot write /proc/origin-lab/r.json'],
    [checkWith('--proof', '/proc/origin-lab/proof'), '--proof /proc/origin-lab/proof: cannot write there'],
    [['explode'], 'unknown command "explode"'],
    // A path left empty (an unset variable in a script) is said, not read as no option.
    ...['expect', 'baseline', 'session', 'ca', 'proof', 'json', 'junit', 'sarif', 'markdown'].map(
      (name) => [checkWith(`--${name}`, ''), `--${name} was given an empty path`] as [string[], string],
    ),
  ])('%j: exit 2, saying %s', async (args, message) => {
    const ran = await runProgram(args);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(message);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
    expect(ran.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it.each([
    [['check', 'https://user:S3CRET@example.com/', '--from', YOURS], '"https://…@example.com/" has credentials'],
    [
      ['check', 'ftp://example.com/x?key=S3CRET#S3CRET', '--from', YOURS],
      '"ftp://example.com/x?key=…#…" is not an http',
    ],
    [
      ['check', 'https://example.com/', '--from', 'https://u:S3CRET@app.example.com'],
      '--from "https://…@app.example.com"',
    ],
    [checkWith('--also-url', 'https://u:S3CRET@example.com/401'), '--also-url "https://…@example.com/401"'],
    [checkWith('--header', 'Authorization Bearer S3CRET'), '--header "Authorization…" is not "Name: value"'],
    [checkWith('--session', 'Cookie: sid=S3CRET'), '--session names no file'],
    [checkWith('--session', '{"cookies":[{"name":"sid","value":"S3CRET"}]}'), '--session names no file'],
    [checkWith('--session', '-sid=S3CRET'), '--session: a value that starts with a dash is written --session=<value>'],
  ])('%j: a secret given by mistake is refused without being repeated', async (args, message) => {
    const ran = await runProgram(args);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(message);
    expect(`${ran.stdout}${ran.stderr}`).not.toContain('S3CRET');
  });

  it('an engine path that names no program: exit 2 naming the variable and the path', async () => {
    const ran = await runProgram(['check', 'http://127.0.0.1:9/', '--from', YOURS, '--engines', 'chromium'], 30_000, {
      CHROMIUM_PATH: join(scratch, 'no-chromium'),
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim()).toBe(`origin-lab: CHROMIUM_PATH is ${join(scratch, 'no-chromium')}: no program there`);
  });

  it('a run over --max-requests stops before it sends anything', async () => {
    const ran = await runProgram(['check', 'http://127.0.0.1:9/', '--from', YOURS, '--max-requests', '10']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/would send up to \d+ requests, over --max-requests 10/);
  });

  describe('a target that cannot be reached: exit 2 with the reason, no engine started', () => {
    it('nothing listens', async () => {
      const server = createServer();
      const port = await listen(server);
      await closing(server);
      const ran = await runProgram(['check', `http://127.0.0.1:${port}/`, '--from', YOURS]);
      expect(ran.code).toBe(2);
      // The last line of standard error (progress comes before it).
      expect(ran.stderr.trim().split('\n').at(-1)).toBe(
        `origin-lab: http://127.0.0.1:${port}/ cannot be reached: nothing listens there (connection refused)`,
      );
    });

    it('the name does not resolve', async () => {
      const ran = await runProgram(['check', 'http://no-such-host.invalid/', '--from', YOURS]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/cannot be reached: its name does not resolve \((ENOTFOUND|EAI_AGAIN)\)/);
    });

    it('its certificate is not trusted', async () => {
      const { key, cert } = (await selfSignedCertificates(['127.0.0.1'])).get('127.0.0.1')!;
      const server = createTlsServer({ key, cert }, (_req, res) => res.end('hi'));
      const port = await listen(server);
      try {
        const ran = await runProgram(['check', `https://127.0.0.1:${port}/`, '--from', YOURS]);
        expect(ran.code).toBe(2);
        expect(ran.stderr).toMatch(
          /cannot be reached: its TLS certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
        );
      } finally {
        await closing(server);
      }
    });

    it('it never answers: --timeout bounds the wait', async () => {
      const server = createServer(() => {
        // Never answers.
      });
      const port = await listen(server);
      try {
        const started = Date.now();
        const ran = await runProgram(['check', `http://127.0.0.1:${port}/`, '--from', YOURS, '--timeout', '300']);
        expect(ran.code).toBe(2);
        expect(ran.stderr).toContain('cannot be reached: no answer within 300 ms');
        expect(Date.now() - started).toBeLessThan(20_000);
      } finally {
        await closing(server);
      }
    });
  });
});

describe.skipIf(ENGINES.length === 0)('origin-lab check: the report, as other tools read it', () => {
  it('terminal, JSON, JUnit and SARIF agree on one run', async () => {
    const server = await expressReflectingAll();
    // The SARIF's folders do not exist yet: check makes them, as CI's upload step expects.
    const files = {
      json: join(scratch, 'r.json'),
      junit: join(scratch, 'r.xml'),
      sarif: join(scratch, 'reports', 'ci', 'r.sarif'),
    };
    try {
      const engine = ENGINES[0]!;
      const ran = await runProgram([
        'check',
        server.url,
        '--from',
        YOURS,
        '--hostile',
        'arbitrary',
        '--engines',
        engine,
        '--local-network',
        'public',
        '--stack',
        'express',
        '--json',
        files.json,
        '--junit',
        files.junit,
        '--sarif',
        files.sarif,
        ...STEP_TIMEOUT,
      ]);
      expect(ran.code).toBe(1);
      // Piped, not a terminal: no colour, and progress one line a step on standard error.
      expect(ran.stdout).not.toContain('\u001b[');
      expect(ran.stdout).toContain(`From ${YOURS}`);
      expect(ran.stdout).toMatch(/HIGH\s+Origins you did not name read your API with the user’s credentials/);
      expect(ran.stdout).toContain('Express (cors): cors({ origin: ["http://app.example.test"] })');
      expect(ran.stdout).toMatch(/FAIL 1 high \(exit 1\)/);
      // No --lab: the link is made from npm start's address (PORT 8080), and says how to set another.
      expect(ran.stdout).toContain(
        'See it happen (--lab <url> if your lab does not run at http://localhost:8080): http://localhost:8080/playground.html#',
      );
      expect(ran.stderr).toMatch(/^\[\d+\] asking 127\.0\.0\.1:\d+ itself, as each origin$/m);

      const report = JSON.parse(readFileSync(files.json, 'utf8'));
      expect(report.findings.map((finding: { kind: string }) => finding.kind)).toEqual(['hostile-read-credentials']);
      // Each engine's column is headed with its version, however long its product's name.
      const heading = ran.stdout.split('\n')[ran.stdout.split('\n').findIndex((line) => line === `From ${YOURS}`) + 1];
      for (const { label } of report.engines as { label: string }[])
        expect(heading).toContain(` ${label.split(' ').at(-1)}`);
      expect(report.lab).toEqual({ url: 'http://localhost:8080', chosenBy: 'default' });

      const xml = readFileSync(files.junit, 'utf8');
      expect(XMLValidator.validate(xml)).toBe(true);
      const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
      const suites = [junit.testsuites.testsuite].flat();
      expect(suites).toHaveLength(1);
      const cases = [suites[0].testcase].flat();
      expect(cases).toHaveLength(report.results.length);
      const failing = cases
        .filter((testcase: { failure?: unknown }) => testcase.failure)
        .map((t: { name: string }) => t.name);
      // The attacker's two requests with credentials read: the plain GET and the preflighted one.
      expect(failing.sort()).toEqual([
        'http://attacker.test get-credentials',
        'http://attacker.test preflight-credentials',
      ]);
      expect(Number(suites[0].failures)).toBe(2);

      const sarif = JSON.parse(readFileSync(files.sarif, 'utf8'));
      expect(sarif.version).toBe('2.1.0');
      const [run] = sarif.runs;
      expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(['hostile-read-credentials']);
      expect(run.results).toEqual([
        expect.objectContaining({
          ruleId: 'hostile-read-credentials',
          level: 'error',
          locations: [{ physicalLocation: { artifactLocation: { uri: server.url } } }],
        }),
      ]);
      expect(run.results[0].message.text).toContain('Fix: cors({ origin: ["http://app.example.test"] })');
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('--json - writes only JSON to standard output, the table to standard error; --color always colours it', async () => {
    const server = await expressReflectingAll();
    try {
      const ran = await runProgram([
        'check',
        server.url,
        '--from',
        YOURS,
        '--hostile',
        'none',
        '--engines',
        ENGINES[0]!,
        '--local-network',
        'public',
        '--json',
        '-',
        '--color',
        'always',
        '--quiet',
        // A key of yours, sent as given and written nowhere: each report shows the name alone.
        '--header',
        'X-Api-Key: S3CRET-KEY-VALUE',
        ...STEP_TIMEOUT,
      ]);
      expect(ran.code).toBe(0);
      expect(JSON.parse(ran.stdout).target).toBe(server.url);
      expect(JSON.parse(ran.stdout).cells).toContainEqual(
        expect.objectContaining({ id: 'custom-header', headers: [['X-Api-Key', '(given with --header, not shown)']] }),
      );
      expect(`${ran.stdout}${ran.stderr}`).not.toContain('S3CRET');
      expect(ran.stderr).toContain('\u001b[1morigin-lab check\u001b[22m');
      expect(ran.stderr).not.toMatch(/^\[\d+/m);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
