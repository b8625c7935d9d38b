import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { originLabApi, YOURS, type Fixture } from './fixtures.js';
import { PROGRAM, runProgram } from './run-check.js';

// `origin-lab explain` on what people paste: the engines' console lines (as recorded from the
// engines, packages/cors-rules/test/corpus), curl's real output against this project's lab, and
// every kind of bad input. Each expected rule is the one the lab's policy was set to break.

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-explain-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs explain with text on standard input. */
function explainStdin(text: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PROGRAM, 'explain', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.on('error', () => {}); // explain refusing its arguments ends before it reads: its code tells
    child.stdin.end(text);
  });
}

function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('curl', ['-s', '--max-time', '10', ...args], { maxBuffer: 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(error) : resolve(`${stderr}${stdout}`),
    ),
  );
}

const corpus = (engine: string) =>
  JSON.parse(readFileSync(new URL(`../../cors-rules/test/corpus/console-${engine}.json`, import.meta.url), 'utf8')) as {
    cases: Record<string, { messages: string[] }>;
  };

describe('origin-lab explain', () => {
  it('a console message from each engine: the rule, the header, the fix, a playground case', async () => {
    const lines = [
      ...corpus('chromium').cases['origin-star-credentials']!.messages,
      ...corpus('firefox').cases['headers-star-credentials']!.messages,
      // WebKit's two lines for one refusal, as Safari's console shows them.
      '[Error] Origin https://app.example.com is not allowed by Access-Control-Allow-Origin. Status code: 200',
      '[Error] Fetch API cannot load https://api.example.com/me due to access control checks.',
    ];
    const ran = await explainStdin(lines.join('\n'), ['--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const { kind, explanations } = JSON.parse(ran.stdout);
    expect(kind).toBe('console');
    const [chromium, firefox, webkit] = explanations;
    expect(chromium).toMatchObject({
      engine: 'chromium',
      rule: 'wildcard-with-credentials',
      header: 'access-control-allow-origin',
      reachedServer: true,
      playgroundLink: 'http://localhost:8080/playground.html#allow-credentials=on&allow-origin=*&credentials=include',
    });
    expect(chromium.fix.topic).toBe('credentials');
    expect(firefox).toMatchObject({ engine: 'firefox', rule: 'header-not-allowed', reachedServer: false });
    // WebKit does not say which of the Allow-Origin rules refused: explained as such, not guessed,
    // with each rule its words fit and the playground case of each.
    expect(webkit).toMatchObject({
      engine: 'webkit',
      verdict: 'refused',
      rule: null,
      url: 'https://api.example.com/me',
      candidates: [
        { rule: 'no-allow-origin', playgroundLink: 'http://localhost:8080/playground.html#allow-origin=none' },
        { rule: 'origin-mismatch', playgroundLink: 'http://localhost:8080/playground.html#allow-origin=other' },
      ],
    });
    expect(explanations).toHaveLength(3);
  });

  it('curl -v of a preflight and of a request to the lab: the preflight’s failure, read from real headers', async () => {
    const api: Fixture = await originLabApi('/lab/cors?allow-methods=GET&allow-origin=origin');
    try {
      const preflight = await curl([
        '-v',
        '-X',
        'OPTIONS',
        '-H',
        `Origin: ${YOURS}`,
        '-H',
        'Access-Control-Request-Method: PUT',
        api.url,
      ]);
      const ran = await explainStdin(preflight, ['--json']);
      expect(ran.code, ran.stderr).toBe(0);
      const [first] = JSON.parse(ran.stdout).explanations;
      expect(first).toMatchObject({
        source: 'curl',
        origin: YOURS,
        method: 'PUT',
        verdict: 'refused',
        rule: 'method-not-allowed',
        header: 'access-control-allow-methods',
        value: 'GET',
        reachedServer: false,
      });
    } finally {
      await api.stop();
    }
  });

  it('a preflight the api refuses for its origin (403, no Allow-Origin): allow that origin, and the case of it', async () => {
    // This project's api answers a preflight from an origin off its allowlist 403, without CORS
    // headers. Fetch: the preflight fails its CORS check (no Access-Control-Allow-Origin), so the
    // POST is never sent; what to change is the origin's place on the list, not the status.
    const elsewhere = 'http://localhost:18080';
    const api = await originLabApi('/api/posts');
    try {
      const preflight = await curl([
        '-v',
        '-X',
        'OPTIONS',
        '-H',
        `Origin: ${elsewhere}`,
        '-H',
        'Access-Control-Request-Method: POST',
        '-H',
        'Access-Control-Request-Headers: content-type',
        api.url,
      ]);
      expect(preflight).toMatch(/< HTTP\/1\.1 403/);
      const ran = await explainStdin(preflight, ['--json', '--lab', 'http://localhost:18080']);
      expect(ran.code, ran.stderr).toBe(0);
      const [first] = JSON.parse(ran.stdout).explanations;
      expect(first).toMatchObject({
        origin: elsewhere,
        method: 'POST',
        verdict: 'refused',
        rule: 'no-allow-origin',
        step: 'CORS-preflight fetch',
        header: 'access-control-allow-origin',
        reachedServer: false,
        // A preflighted request refused for its origin alone.
        playgroundLink: 'http://localhost:18080/playground.html#allow-methods=PUT&allow-origin=none&method=PUT',
      });
      const summary: string = first.fix.summary;
      // What to send comes first, the warning about loose matching after it; nothing of authentication.
      const send = summary.indexOf(`Access-Control-Allow-Origin: ${elsewhere}`);
      expect(send).toBeGreaterThanOrEqual(0);
      expect(summary.indexOf('Vary: Origin')).toBeGreaterThan(send);
      expect(summary.indexOf('never reflect the Origin')).toBeGreaterThan(summary.indexOf('Vary: Origin'));
      // The preflight's answer carries them, with an ok status (Fetch: "CORS-preflight fetch").
      expect(summary).toMatch(/preflight.*200 or 204/);
      expect(summary).not.toMatch(/authentication/i);
    } finally {
      await api.stop();
    }
  });

  it('an answer without Allow-Origin: the fix says first what to send, the page’s origin and Vary', async () => {
    const api = await originLabApi('/lab/cors?allow-origin=none');
    try {
      const ran = await explainStdin(await curl(['-v', '-H', `Origin: ${YOURS}`, api.url]), ['--json']);
      const [first] = JSON.parse(ran.stdout).explanations;
      // Fetch's CORS check of the answer: no Access-Control-Allow-Origin, the GET was answered.
      expect(first).toMatchObject({ rule: 'no-allow-origin', step: 'CORS check', reachedServer: true });
      expect(first.fix.summary).toMatch(
        new RegExp(
          `^Send Access-Control-Allow-Origin: ${YOURS.replace(/\./g, '\\.')} .*and Vary: Origin\\. .*never reflect`,
        ),
      );
      expect(first.playgroundLink).toBe('http://localhost:8080/playground.html#allow-origin=none');
    } finally {
      await api.stop();
    }
  });

  it('curl -i, which lacks the Origin: explained once the origin is given, with the risks of what works', async () => {
    const api = await originLabApi('/lab/cors?allow-origin=origin&allow-credentials=true&vary=off');
    try {
      const answer = await curl(['-i', '-H', `Origin: ${YOURS}`, api.url]);
      const unknown = JSON.parse((await explainStdin(answer, ['--json'])).stdout).explanations[0];
      expect(unknown.verdict).toBe('unknown');
      const ran = await explainStdin(answer, ['--json', '--origin', YOURS]);
      const [first] = JSON.parse(ran.stdout).explanations;
      expect(first.verdict).toBe('readable');
      expect(first.risks.map((risk: { kind: string }) => risk.kind).sort()).toEqual([
        'missing-vary',
        'reflected-with-credentials',
      ]);
    } finally {
      await api.stop();
    }
  });

  it('reads a file, and prints for people: the verdict, the sequence, the fix for a stack', async () => {
    const file = join(scratch, 'console.txt');
    writeFileSync(file, corpus('chromium').cases['preflight-401']!.messages.join('\n'));
    const ran = await runProgram(['explain', file, '--stack', 'express', '--color', 'never']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('REFUSED');
    expect(ran.stdout).toContain('[checks the preflight’s answer] ✘');
    expect(ran.stdout).toContain('Express (cors): app.use(cors(...)) before the authentication middleware');
    expect(ran.stdout).toContain('preflight-status=401');
  });

  it('playground links: at --lab when given; made from npm start’s address otherwise, saying how to set it', async () => {
    const file = join(scratch, 'no-allow-origin.txt');
    writeFileSync(
      file,
      "Access to fetch at 'https://api.example.com/me' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    );
    // npm start serves the lab on PORT, 8080 by default (launcher/src/settings.ts).
    const defaulted = await runProgram(['explain', file, '--color', 'never']);
    expect(defaulted.stdout).toMatch(
      /^ {2}See it happen \(--lab <url> if your lab does not run at http:\/\/localhost:8080\): http:\/\/localhost:8080\/playground\.html#/m,
    );
    const given = await runProgram(['explain', file, '--color', 'never', '--lab', 'http://127.0.0.1:18080']);
    expect(given.stdout).toMatch(/^ {2}See it happen: http:\/\/127\.0\.0\.1:18080\/playground\.html#/m);
    expect(given.stdout).not.toContain('localhost:8080');
  });

  it("a HAR that does not parse: the parser's excerpt of it, which may hold a cookie, is not shown", async () => {
    const ran = await explainStdin(
      '{"log": {"entries": [{"request": {"cookies": [{"name": "sid", "value": S3CRETCOOKIE}]}}]}}',
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim()).toBe(
      "origin-lab: not a HAR: the JSON does not parse (Unexpected token 'S'); a file cut short?",
    );
  });

  it.each([[[] as string[]], [['--json']]])(
    "a URL's password, query values and fragment are in no output, %j: its origin, path and names are",
    async (args) => {
      const har = JSON.stringify({
        log: {
          entries: [
            {
              request: {
                method: 'GET',
                url: 'https://user:PW-SECRET-1@api.example.com/me?access_token=QUERY-SECRET-2#FRAGMENT-SECRET-3',
                headers: [{ name: 'Origin', value: 'https://app.example.com' }],
              },
              response: { status: 200, headers: [] },
            },
          ],
        },
      });
      const lines = [
        // A line no engine prints for CORS (before the message: after it, it would be read as the
        // message wrapped), shown back as it was but for its URL's secrets.
        'GET https://cdn.example.com/app.js?sig=UNKNOWN-SECRET-5 404 (Not Found)',
        "Access to fetch at 'https://api.example.com/items?api_key=LINE-SECRET-4' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
      ].join('\n');
      const [fromHar, fromLines] = await Promise.all([explainStdin(har, args), explainStdin(lines, args)]);
      for (const ran of [fromHar, fromLines]) {
        expect(ran.code, ran.stderr).toBe(0);
        expect(`${ran.stdout}${ran.stderr}`).not.toMatch(/SECRET/);
      }
      expect(fromHar.stdout).toContain('https://…@api.example.com/me?access_token=…#…');
      expect(fromLines.stdout).toContain('https://api.example.com/items?api_key=…');
      expect(fromLines.stdout).toContain('https://cdn.example.com/app.js?sig=…');
    },
  );

  it.each([
    ['', 'nothing to explain: the input is empty'],
    ['{"log": {"entries": [', 'not a HAR: the JSON does not parse'],
    ['{"entries": []}', 'this JSON is not a HAR'],
    ['{"log": {"entries": []}}', 'the HAR holds no cross-origin request'],
    ['\u0000\u0001\u0002binary\u0003', 'this is not text'],
    ['GET / 200 everything is fine', 'no CORS message found'],
  ])('bad input %j: exit 2, saying %s', async (text, message) => {
    const ran = await explainStdin(text);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(message);
    expect(ran.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a file over 50 MB is refused before it is read', async () => {
    const file = join(scratch, 'big.har');
    writeFileSync(file, Buffer.alloc(51 * 1024 * 1024, 32));
    const ran = await runProgram(['explain', file]);
    expect(ran.code).toBe(2);
    expect(ran.stderr.trim()).toBe(`origin-lab: ${file}: over 50 MB, the most explain reads`);
  });

  it('a device that never ends is refused at the bound, not read until memory runs out', async () => {
    const ran = await runProgram(['explain', '/dev/zero']);
    expect([ran.code, ran.stderr.trim()]).toEqual([2, 'origin-lab: /dev/zero: over 50 MB, the most explain reads']);
  });

  it('a message padded with a megabyte of spaces is read at once, one with a location too', async () => {
    const file = join(scratch, 'padded.txt');
    const message =
      "Access to fetch at 'https://api.example.com/items' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.";
    writeFileSync(file, `${message}${' '.repeat(1024 * 1024)}!\n${message} app.js:12:5\n`);
    const ran = await runProgram(['explain', '--json', file], 20_000);
    expect(ran.code).toBe(0);
    const read = JSON.parse(ran.stdout) as { explanations: { rule: string; url: string }[]; unknownLines: string[] };
    expect(read.explanations.map(({ rule, url }) => [rule, url])).toEqual([
      ['no-allow-origin', 'https://api.example.com/items'],
      ['no-allow-origin', 'https://api.example.com/items'],
    ]);
    expect(read.unknownLines).toEqual([]);
  });

  /** Many refusals in console text: an answer of megabytes, more than a pipe holds. */
  const manyMessages = () => {
    const file = join(scratch, 'many.txt');
    const line = (n: number) =>
      `Access to fetch at 'https://api.example.com/items/${n}' from origin 'https://app.example.com' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.`;
    writeFileSync(file, Array.from({ length: 3_000 }, (_, n) => line(n)).join('\n'));
    return file;
  };

  it.each([[[] as string[]], [['--json']]])(
    'a reader that stops reading (| head), %j: ends quietly with 141, as SIGPIPE would',
    async (args) => {
      const child = spawn(process.execPath, [PROGRAM, 'explain', ...args, manyMessages()], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect([code, stderr]).toEqual([141, '']);
    },
  );

  it('output that cannot be written (a full disk): one line naming why, exit 2', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['explain', manyMessages()], ['--help']]) {
        const child = spawn(process.execPath, [PROGRAM, ...args], { stdio: ['ignore', full, 'pipe'] });
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        expect([code, stderr], args.join(' ')).toEqual([2, 'origin-lab: cannot write standard output (ENOSPC)\n']);
      }
    } finally {
      closeSync(full);
    }
  });

  it('a folder: exit 2, saying it is not a file', async () => {
    const ran = await runProgram(['explain', scratch]);
    expect([ran.code, ran.stderr.trim()]).toEqual([2, `origin-lab: ${scratch}: not a file`]);
  });
});
