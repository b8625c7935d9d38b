/**
 * Runs `origin-lab check` as a user runs it (the built program, bin/origin-lab.js, in a child
 * process) and reads its JSON report. The engines are those this test run has (E2E_BROWSERS, as
 * `npm test` set it up), else every one installed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { CheckReport } from '../src/check/report.js';
import { YOURS, type Fixture } from './fixtures.js';
import { ENGINES } from './test-engines.js';

export { ENGINES };

export const PROGRAM = fileURLToPath(new URL('../bin/origin-lab.js', import.meta.url));

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * One engine, for a check whose outcome the Fetch standard decides alike in every engine (each
 * test names the one it prefers, so that every engine's adapter is exercised by some of them):
 * three engines there would prove the same thing three times. The tests about what engines do
 * differently, and the default run, keep every engine (ENGINES).
 */
export function oneEngine(preferred: string): string[] {
  return ['--engines', oneEngineName(preferred)];
}

/** The engine oneEngine(preferred) names: preferred when this run has it, else the run's first. */
export function oneEngineName(preferred: string): string {
  return ENGINES.includes(preferred as (typeof ENGINES)[number]) ? preferred : ENGINES[0]!;
}

/** Runs the program with args; bounded by timeoutMs. */
export function runProgram(args: readonly string[], timeoutMs = 180_000, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  if (!existsSync(PROGRAM)) throw new Error(`${PROGRAM} is missing: npm run build makes it`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PROGRAM, ...args],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The shared Firefox of this run (shared-engines.ts), as check's --connect takes it; none when
 * the run has no Firefox, or for a run that starts its own engines as a user's does.
 */
function sharedEngines(startOwn: boolean): string[] {
  const firefox = inject('firefoxServer');
  return !startOwn && firefox ? ['--connect', `firefox=${firefox}`] : [];
}

/**
 * How long one step of a check may take in these tests (--timeout; the command's default is 10 s).
 * Three test files at once on two cores, beside the compose images' build, one Firefox shared by
 * all: a page load there once took more than the default 10 s (a clean-clone run). The bound on
 * each step is the test run's, not what is tested; a test may set its own after it.
 */
export const STEP_TIMEOUT_MS = 30_000;
export const STEP_TIMEOUT = ['--timeout', String(STEP_TIMEOUT_MS)] as const;

/**
 * One page per engine (--pages 1) for the checks of these tests, where the command's default is
 * four: three checks run at once on two cores, so origins tried side by side within a check only
 * add pages, processes and switches between them. The engine group alone took 11 % less time and
 * 12 % less CPU so (docs/decisions.md, issue 46); each origin's verdict is its page's alone either
 * way. The default run, the packed package, the GitHub Action and the MCP server's check keep
 * the default, as users run them, and so test the pages side by side.
 */
const ONE_PAGE = ['--pages', '1'] as const;

/**
 * A check of url with --json - (and the test defaults: these engines, quiet, the target counted
 * as public, the run's shared Firefox and one page unless startOwn).
 */
export async function check(
  url: string,
  args: readonly string[] = [],
  { startOwn = false } = {},
): Promise<{ code: number; report: CheckReport; stderr: string }> {
  const ran = await runProgram([
    'check',
    url,
    '--json',
    '-',
    '--quiet',
    '--color',
    'never',
    // The fixtures listen on 127.0.0.1, the probe pages are public names: without this Chromium's
    // Local Network Access would refuse every request before CORS is even asked.
    '--local-network',
    'public',
    '--engines',
    ENGINES.join(','),
    ...STEP_TIMEOUT,
    ...sharedEngines(startOwn),
    ...(startOwn ? [] : ONE_PAGE),
    ...args,
  ]);
  if (ran.code !== 0 && ran.code !== 1) throw new Error(`check exited ${ran.code}: ${ran.stderr}`);
  return { code: ran.code, report: JSON.parse(ran.stdout) as CheckReport, stderr: ran.stderr };
}

/** A finding as the tests write them: its kind and severity, and what it is about. */
export interface Expected {
  kind: string;
  severity: string;
  /** For risks: the origins (as the report names them), sorted. */
  origins?: string[];
  /** For a refusal of your origin: the request and the rule. */
  cell?: string;
  rule?: string;
}

/** The report's findings in the shape the tests write, sorted. */
export function findingsOf(report: CheckReport): Expected[] {
  return report.findings
    .map((finding): Expected => {
      if (finding.kind === 'refused')
        return { kind: finding.kind, severity: finding.severity, cell: finding.cells[0]!, rule: finding.reason!.rule };
      if (finding.kind === 'missing-vary' || finding.kind === 'wildcard')
        return { kind: finding.kind, severity: finding.severity };
      return { kind: finding.kind, severity: finding.severity, origins: [...finding.origins].sort() };
    })
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

export const sorted = (expected: Expected[]) =>
  expected
    .map((finding) => (finding.origins ? { ...finding, origins: [...finding.origins].sort() } : finding))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** The engines in which a finding holds: every one of this run, unless an engine difference says otherwise. */
export function enginesOf(report: CheckReport, kind: string): string[] {
  return [...(report.findings.find((finding) => finding.kind === kind)?.engines ?? [])].sort();
}

/** A check of a fixture from YOURS with args, the fixture stopped after it (also on failure). */
export async function against(fixture: Promise<Fixture>, args: readonly string[]) {
  const server = await fixture;
  try {
    return await check(server.url, ['--from', YOURS, ...args]);
  } finally {
    await server.stop();
  }
}

/**
 * A check of a fixture from YOURS under a --profile, in these engines, every one started by the
 * check (a connected engine cannot be told where the rebinding name points), attacker origins of
 * the arbitrary class only, one page per engine; exit 3 (some origin not tried) is a result, not
 * a failure.
 */
export async function profiled(
  fixture: Promise<Fixture>,
  profile: 'local' | 'mcp',
  engines: readonly string[],
  args: readonly string[] = [],
): Promise<CheckReport> {
  const server = await fixture;
  try {
    const ran = await runProgram([
      'check',
      server.url,
      '--from',
      YOURS,
      '--profile',
      profile,
      '--hostile',
      'arbitrary',
      '--engines',
      engines.join(','),
      '--json',
      '-',
      '--quiet',
      ...STEP_TIMEOUT,
      ...ONE_PAGE,
      ...args,
    ]);
    if (![0, 1, 3].includes(ran.code)) throw new Error(`check exited ${ran.code}: ${ran.stderr}`);
    return JSON.parse(ran.stdout) as CheckReport;
  } finally {
    await server.stop();
  }
}
