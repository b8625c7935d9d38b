import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  changeLines,
  changeText,
  compareRuns,
  contextLines,
  readBaseline,
  type ComparedReport,
  type ComparedRun,
} from '../src/check/baseline.js';
import type { Expectations } from '../src/check/expectations.js';
import { CommandError } from '../src/terminal.js';

// --baseline without an engine: small reports written by hand, as files, read and compared. Each
// expectation is written from what the option promises: gained is readable now and not before
// (or not tried before), lost the other way; a request that could not run, or an attacker origin
// Local Network Access kept untried, is neither.

const scratch = mkdtempSync(join(tmpdir(), 'origin-lab-baseline-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const TARGET = 'http://127.0.0.1:4000/me';
const YOURS = 'http://app.example.test';
const EVIL = 'http://evil.example.test';
const ATTACKER = 'http://attacker.test';
const LABELS: Record<string, string> = {
  get: 'GET',
  'get-credentials': 'GET, credentials (fetch)',
  authorization: 'GET + Authorization',
};

/** One result: read, refused by CORS, or refused for another reason (a rule that is not CORS's). */
function run(
  engine: string,
  origin: string,
  cell: string,
  readable: boolean,
  { rule = 'origin-mismatch', couldNot = null as string | null } = {},
): ComparedRun {
  return {
    engine,
    origin: { origin, kind: origin === YOURS ? 'yours' : origin === EVIL ? 'subdomain' : 'arbitrary', context: 'page' },
    cell: { id: cell, label: LABELS[cell] ?? cell },
    readable,
    couldNot,
    reason: readable ? null : { rule },
  };
}

const CHROMIUM = { name: 'chromium', version: '140.0.7339.16' };
const FIREFOX = { name: 'firefox', version: '140.3.0' };

/** A report as check writes it (the fields the comparison reads, and some it does not). */
const report = (results: ComparedRun[], engines = [CHROMIUM, FIREFOX], target = TARGET) => ({
  tool: 'origin-lab check',
  version: '0.1.0',
  target,
  startedAt: '2025-06-01T10:00:00.000Z',
  engines,
  origins: [],
  results,
  findings: [],
});

let files = 0;
function written(content: unknown): string {
  const file = join(scratch, `report-${(files += 1)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** The earlier report through the file, beside this run. */
function diffOf(
  earlier: ReturnType<typeof report>,
  now: ReturnType<typeof report>,
  expectations: Expectations | null = null,
) {
  const read = readBaseline(written(earlier), new URL(now.target));
  return compareRuns(read, now as ComparedReport, expectations);
}

const lines = (diff: ReturnType<typeof compareRuns>) =>
  changeLines(diff).map((line) => `${line.direction}: ${changeText(line)}${line.fails ? ' [fails]' : ''}`);

describe('--baseline: the diff of two reports', () => {
  const refusedEverywhere = [CHROMIUM.name, FIREFOX.name].flatMap((engine) => [
    run(engine, YOURS, 'get', true),
    run(engine, YOURS, 'get-credentials', true),
    run(engine, EVIL, 'get', false),
    run(engine, EVIL, 'get-credentials', false),
  ]);

  it('an attacker origin that can now read: gained, grouped by origin, and it fails the run', () => {
    const now = refusedEverywhere.map((r) => (r.origin.origin === EVIL ? { ...r, readable: true, reason: null } : r));
    const diff = diffOf(report(refusedEverywhere), report(now));
    expect(lines(diff)).toEqual([
      `gained: ${EVIL} can now read GET and GET, credentials (fetch) in chromium, firefox [fails]`,
    ]);
    expect(diff.gained.map(({ engine, origin, cell, kind }) => [engine, origin, cell, kind])).toEqual([
      ['chromium', EVIL, 'get', 'subdomain'],
      ['chromium', EVIL, 'get-credentials', 'subdomain'],
      ['firefox', EVIL, 'get', 'subdomain'],
      ['firefox', EVIL, 'get-credentials', 'subdomain'],
    ]);
    expect(diff.lost).toEqual([]);
    expect(diff.notComparable).toBe(0);
    expect(contextLines(diff)).toEqual([]);
    expect(diff.file).toBe(`report-${files}.json`);
  });

  it('engines that differ in what they gained are said apart', () => {
    const now = refusedEverywhere.map((r) =>
      r.origin.origin === EVIL && (r.engine === 'chromium' || r.cell.id === 'get')
        ? { ...r, readable: true, reason: null }
        : r,
    );
    expect(lines(diffOf(report(refusedEverywhere), report(now)))).toEqual([
      `gained: ${EVIL} can now read GET in chromium, firefox; GET, credentials (fetch) in chromium [fails]`,
    ]);
  });

  it('your origin losing a request: lost; your origin gaining one: listed, never a failure', () => {
    const earlier = [run('firefox', YOURS, 'authorization', true), run('firefox', YOURS, 'get-credentials', false)];
    const now = [run('firefox', YOURS, 'authorization', false), run('firefox', YOURS, 'get-credentials', true)];
    const diff = diffOf(report(earlier, [FIREFOX]), report(now, [FIREFOX]));
    expect(lines(diff)).toEqual([
      `gained: ${YOURS} can now read GET, credentials (fetch) in firefox (your origin)`,
      `lost: ${YOURS} can no longer read GET + Authorization in firefox`,
    ]);
  });

  it('a result that could not run, or an attacker origin not tried, is not comparable, in either run', () => {
    const earlier = [
      run('chromium', ATTACKER, 'get', false, { couldNot: 'the engine cannot be this origin' }),
      run('chromium', EVIL, 'get', false),
      run('chromium', YOURS, 'get', true),
    ];
    const now = [
      run('chromium', ATTACKER, 'get', true),
      run('chromium', EVIL, 'get', false, { rule: 'local-network-access' }),
      // Your own request stopped by Local Network Access is a refusal you meet: compared.
      run('chromium', YOURS, 'get', false, { rule: 'local-network-access' }),
    ];
    const diff = diffOf(report(earlier, [CHROMIUM]), report(now, [CHROMIUM]));
    expect(diff.gained).toEqual([]);
    expect(lines(diff)).toEqual([`lost: ${YOURS} can no longer read GET in chromium`]);
    expect(diff.notComparable).toBe(2);
    expect(contextLines(diff)).toEqual([
      'not comparable: 2 results that could not run, or whose origin was not tried, in one of the runs',
    ]);
  });

  it('an engine of another version is compared and said; an engine of one run only is not compared', () => {
    const earlier = [run('chromium', EVIL, 'get', false), run('webkit', EVIL, 'get', false)];
    const now = [run('chromium', EVIL, 'get', true), run('firefox', EVIL, 'get', true)];
    const newer = { ...CHROMIUM, version: '141.0.7390.54' };
    const diff = diffOf(
      report(earlier, [CHROMIUM, { name: 'webkit', version: '2.48.3' }]),
      report(now, [newer, FIREFOX]),
    );
    expect(lines(diff)).toEqual([`gained: ${EVIL} can now read GET in chromium [fails]`]);
    expect(diff.differs.engines).toEqual([
      { name: 'chromium', earlier: '140.0.7339.16', now: '141.0.7390.54' },
      { name: 'webkit', earlier: '2.48.3', now: null },
      { name: 'firefox', earlier: null, now: '140.3.0' },
    ]);
    expect(contextLines(diff)).toEqual([
      'engines: chromium 140.0.7339.16 then, 141.0.7390.54 now; webkit only then (not compared); firefox only now (not compared)',
    ]);
  });

  it('an origin or request of one run only is said; one that reads now and was not tried then has gained', () => {
    const earlier = [run('chromium', YOURS, 'authorization', true), run('chromium', ATTACKER, 'get', false)];
    const now = [run('chromium', YOURS, 'get', true), run('chromium', EVIL, 'get', true)];
    const diff = diffOf(report(earlier, [CHROMIUM]), report(now, [CHROMIUM]));
    expect(lines(diff)).toEqual([
      `gained: ${EVIL} can now read GET in chromium [fails]`,
      `gained: ${YOURS} can now read GET in chromium (your origin)`,
    ]);
    // Not tried now is not lost: the run did not ask.
    expect(diff.lost).toEqual([]);
    expect(contextLines(diff)).toEqual([
      `origins tried only then: ${ATTACKER}; only now: ${EVIL}`,
      'requests sent only then: GET + Authorization',
    ]);
  });

  it('an expectations file that lets other origins read (othersDenied: false) keeps a gain from failing', () => {
    const earlier = [run('chromium', EVIL, 'get', false)];
    const now = [run('chromium', EVIL, 'get', true)];
    const expectations: Expectations = {
      file: 'origin-lab.check.json',
      allow: [{ origin: YOURS, methods: [], headers: [], credentials: true }],
      othersDenied: false,
      hostile: null,
      alsoHostile: [],
    };
    const diff = diffOf(report(earlier, [CHROMIUM]), report(now, [CHROMIUM]), expectations);
    expect(lines(diff)).toEqual([`gained: ${EVIL} can now read GET in chromium (the expectations allow it)`]);
    const denied = diffOf(report(earlier, [CHROMIUM]), report(now, [CHROMIUM]), {
      ...expectations,
      othersDenied: true,
    });
    expect(denied.gained.map((gain) => gain.fails)).toEqual([true]);
  });

  it('the same results: nothing gained or lost; the same path at another origin is compared, and said', () => {
    const at = 'http://127.0.0.1:5000/me';
    const diff = diffOf(report(refusedEverywhere), report(refusedEverywhere, [CHROMIUM, FIREFOX], at));
    expect(changeLines(diff)).toEqual([]);
    expect(contextLines(diff)).toEqual([`target: ${TARGET} then, ${at} now`]);
  });

  it('the repeat of a preflighted request is named after it', () => {
    const custom: ComparedRun = { ...run('chromium', YOURS, 'custom-header', true) };
    custom.cell = { id: 'custom-header', label: 'GET + X-Origin-Lab-Check' };
    const repeat: ComparedRun = { ...run('chromium', YOURS, 'preflight-cache', true) };
    repeat.cell = { id: 'preflight-cache', label: 'the same again', repeats: 'custom-header' };
    const diff = diffOf(
      report([custom, { ...repeat, readable: false, reason: { rule: 'preflight-status' } }], [CHROMIUM]),
      report([custom, repeat], [CHROMIUM]),
    );
    expect(lines(diff)).toEqual([
      `gained: ${YOURS} can now read GET + X-Origin-Lab-Check (again) in chromium (your origin)`,
    ]);
  });
});

describe('--baseline: a file that is not an earlier report of this URL', () => {
  const target = new URL(TARGET);
  const refusal = (file: string, maxBytes?: number) => {
    try {
      readBaseline(file, target, maxBytes);
    } catch (err) {
      expect(err).toBeInstanceOf(CommandError);
      expect((err as CommandError).exitCode).toBe(2);
      return (err as Error).message;
    }
    throw new Error(`${file} was read`);
  };

  it('missing, a folder, over the size limit', () => {
    const missing = join(scratch, 'no-such-report.json');
    expect(refusal(missing)).toBe(`--baseline ${missing}: no such file`);
    const folder = join(scratch, 'a-folder');
    mkdirSync(folder);
    expect(refusal(folder)).toBe(`--baseline ${folder}: not a file`);
    const big = written(report([]));
    expect(refusal(big, 10)).toBe(`--baseline ${big}: over 10 bytes, the most --baseline reads`);
  });

  it('not JSON, JSON of something else, a report with a field of the wrong kind', () => {
    const text = written('origin-lab check: FAIL');
    expect(refusal(text)).toMatch(new RegExp(`^--baseline ${text}: not JSON \\(`));
    const other = written({ name: 'origin-lab', version: '0.1.0' });
    expect(refusal(other)).toBe(
      `--baseline ${other}: not a JSON report of origin-lab check (it has no "tool": "origin-lab check"; --json writes one)`,
    );
    const wrong = written({ ...report([run('chromium', YOURS, 'get', true)]), results: [{ engine: 'chromium' }] });
    expect(refusal(wrong)).toBe(`--baseline ${wrong}: results[0].origin is not { origin, kind, context }`);
    const unread = written({ ...report([]), results: [{ ...run('chromium', YOURS, 'get', true), readable: 'yes' }] });
    expect(refusal(unread)).toBe(`--baseline ${unread}: results[0].readable is not true or false`);
  });

  it('a report of another endpoint', () => {
    const file = written(report([], [], 'http://127.0.0.1:4000/other'));
    expect(refusal(file)).toBe(
      `--baseline ${file}: a report of http://127.0.0.1:4000/other, another endpoint than ${TARGET}: compare two runs of one URL (at one origin or another)`,
    );
  });

  it('a report written with a byte-order mark is read', () => {
    const file = written(`\uFEFF${JSON.stringify(report([]))}`);
    expect(readBaseline(file, target).target).toBe(TARGET);
  });
});
