/**
 * The report of a run in the formats other tools read: JSON (everything), JUnit XML (one test case
 * per engine, origin and request, plus one per expectation), SARIF 2.1.0 (one result per
 * finding, for code-scanning dashboards).
 */
import { SAFE_METHODS } from '@origin-lab/contract/fetch-metadata';
import type { Stack } from '@origin-lab/cors-rules/advice';
import type { BaselineDiff } from './baseline.js';
import type { Proof } from './proof.js';
import type { Cell } from './cells.js';
import type { ExpectationResult } from './expectations.js';
import type { Severity } from './check-options.js';
import { SEVERITY_ORDER, type Finding } from './findings.js';
import { notTriedText, originLabel, type NotTried } from './not-tried.js';
import type { TriedOrigin } from './origins.js';
import { stoppedBeforeSending, type CellRun, type EngineInfo, type ExchangeRecord } from './run-check.js';

export interface CheckReport {
  tool: 'origin-lab check';
  version: string;
  target: string;
  startedAt: string;
  durationMs: number;
  engines: EngineInfo[];
  origins: TriedOrigin[];
  cells: Cell[];
  results: CellRun[];
  exchanges: ExchangeRecord[];
  findings: Finding[];
  /** Per engine, the attacker origins it never asked CORS about (Local Network Access stopped them). */
  notTried: NotTried[];
  expectations: ExpectationResult[] | null;
  /** The stack the fixes are shown for, and how it was chosen. */
  stack: { name: Stack; label: string; chosenBy: 'option' | string } | null;
  /** Where the playground links point, and whether --lab said so or it is npm start's default. */
  lab: { url: string; chosenBy: 'option' | 'default' };
  requests: number;
  /** The requests that change state the engines sent (only methods you named, or --profile mcp's handshake), by method. */
  writes: WritesSent[];
  exitCode: number;
  /** This run beside an earlier report (--baseline): who gained or lost access. */
  baseline: BaselineDiff | null;
  /** The proof pages written (--proof), one per high or critical finding and attacker origin. */
  proofs: { dir: string; pages: Proof[] } | null;
  /** The signed-in session (--session): its cookies' names (never their values). */
  session: { cookies: string[] } | null;
}

export interface WritesSent {
  method: string;
  /** How many went out, from how many origins (yours and others), in which engines. */
  requests: number;
  origins: string[];
  engines: string[];
}

/** What the run sent that changes state: each method you named, as often as the engines sent it. */
export function writesOf(runs: readonly CellRun[]): WritesSent[] {
  const byMethod = new Map<string, CellRun[]>();
  for (const run of runs.filter((r) => !SAFE_METHODS.includes(r.cell.method) && r.sent?.value === true))
    byMethod.set(run.cell.method, [...(byMethod.get(run.cell.method) ?? []), run]);
  return [...byMethod].map(([method, sent]) => ({
    method,
    requests: sent.length,
    origins: [...new Set(sent.map(originLabel))],
    engines: [...new Set(sent.map((run) => run.engine))],
  }));
}

/** What a report writes for the value of a header you gave (--header): a key or a token may be one. */
export const GIVEN_HEADER_VALUE = '(given with --header, not shown)';

/** A cell as the reports and proof pages show it: the values of the headers you gave left out. */
export function shownCell(cell: Cell, given: readonly [string, string][]): Cell {
  const isGiven = ([name, value]: [string, string]) => given.some((pair) => pair[0] === name && pair[1] === value);
  if (!cell.headers.some(isGiven)) return cell;
  return { ...cell, headers: cell.headers.map((pair) => (isGiven(pair) ? [pair[0], GIVEN_HEADER_VALUE] : pair)) };
}

export function toJson(report: CheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const xml = (text: string) =>
  text
    .replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!)
    // XML 1.0 has no place for most control characters.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** Whether a finding at or above this severity is about this run. */
function findingsOf(report: CheckReport, run: CellRun): Finding[] {
  const origin = originLabel(run);
  return report.findings.filter(
    (finding) =>
      finding.kind !== 'engines-differ' &&
      finding.kind !== 'wildcard' &&
      finding.origins.includes(origin) &&
      finding.cells.includes(run.cell.id) &&
      (finding.engines.length === 0 || finding.engines.includes(run.engine)),
  );
}

/**
 * A request the engine stopped before CORS was asked (mixed content, Local Network Access): it
 * proves nothing about the server's CORS either way, so a dashboard skips it rather than blaming
 * the engine that would not send it. The findings still say what stopped it.
 */
const neverAsked = (run: CellRun) => stoppedBeforeSending(run.reason);

export function toJunit(report: CheckReport, failOn: (finding: Finding) => boolean): string {
  const suites = report.engines.map((engine) => {
    const runs = report.results.filter((run) => run.engine === engine.name);
    const cases = runs.map((run) => {
      const origin = run.origin.context === 'page' ? run.origin.origin : `null (${run.origin.context})`;
      const name = `${origin} ${run.cell.id}`;
      const failing = findingsOf(report, run).filter(failOn);
      const outcome = run.couldNot
        ? `could not run: ${run.couldNot}`
        : run.readable
          ? `read: status ${run.status}, headers ${run.visibleHeaders?.join(', ') || 'none'}`
          : `refused: ${run.reason?.text ?? run.rejection ?? ''}`;
      const notTried = neverAsked(run);
      const body = run.couldNot
        ? `<skipped message="${xml(run.couldNot)}"/>`
        : notTried
          ? `<skipped message="${xml(`not sent: ${run.reason!.text}`)}"/>`
          : failing.length > 0
            ? failing
                .map(
                  (finding) =>
                    `<failure type="${finding.kind}" message="${xml(finding.title)}">${xml(finding.detail)}</failure>`,
                )
                .join('')
            : '';
      return `    <testcase classname="${xml(`${engine.label}.${origin}`)}" name="${xml(name)}"><system-out>${xml(outcome)}</system-out>${body}</testcase>`;
    });
    const failures = runs.filter(
      (run) => !run.couldNot && !neverAsked(run) && findingsOf(report, run).some(failOn),
    ).length;
    const skipped = runs.filter((run) => run.couldNot || neverAsked(run)).length;
    return `  <testsuite name="${xml(`${engine.label} → ${report.target}`)}" tests="${runs.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  if (report.expectations) {
    const cases = report.expectations.map(
      (result) =>
        `    <testcase classname="expectations" name="${xml(result.description)}">${result.holds ? '' : `<failure message="${xml(result.failures[0] ?? 'does not hold')}">${xml(result.failures.join('\n'))}</failure>`}</testcase>`,
    );
    suites.push(
      `  <testsuite name="expectations" tests="${cases.length}" failures="${report.expectations.filter((r) => !r.holds).length}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="origin-lab check ${xml(report.target)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

const SARIF_LEVEL = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' } as const;
const SARIF_SCORE = { critical: '9.1', high: '8.1', medium: '5.3', low: '3.1', info: '0.0' } as const;

/**
 * SARIF for code-scanning dashboards: one result per finding at or above least (info findings,
 * such as engines that differ, are for people reading the report: --sarif-min info adds them).
 */
export function toSarif(report: CheckReport, least: Severity = 'low'): string {
  const findings = report.findings.filter((finding) => SEVERITY_ORDER[finding.severity] >= SEVERITY_ORDER[least]);
  const kinds = [...new Set(findings.map((finding) => finding.kind))];
  const stack = report.stack?.name;
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'origin-lab check',
            version: report.version,
            informationUri: 'https://github.com/origin-lab/origin-lab',
            rules: kinds.map((kind) => {
              const sample = findings.find((finding) => finding.kind === kind)!;
              return {
                id: kind,
                name: kind.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase()),
                shortDescription: { text: sample.title },
                defaultConfiguration: { level: SARIF_LEVEL[sample.severity] },
                properties: { 'security-severity': SARIF_SCORE[sample.severity], tags: ['security', 'cors'] },
              };
            }),
          },
        },
        // Not all tried: the run did not do all it set out to, and says which engine left what out.
        invocations: [
          {
            executionSuccessful: report.notTried.length === 0,
            exitCode: report.exitCode,
            toolExecutionNotifications: report.notTried.map((gap) => ({
              level: 'warning',
              message: { text: notTriedText(gap) },
            })),
          },
        ],
        results: findings.map((finding) => ({
          ruleId: finding.kind,
          level: SARIF_LEVEL[finding.severity],
          message: {
            text: `${finding.title}. ${finding.detail}${finding.fix ? ` Fix: ${stack ? finding.fix.byStack[stack] : finding.fix.summary}` : ''}${finding.playground ? ` See it happen: ${finding.playground}` : ''}`,
          },
          locations: [{ physicalLocation: { artifactLocation: { uri: finding.url ?? report.target } } }],
          partialFingerprints: { findingId: finding.id },
          properties: {
            severity: finding.severity,
            origins: finding.origins,
            engines: finding.engines,
            cells: finding.cells,
          },
        })),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
