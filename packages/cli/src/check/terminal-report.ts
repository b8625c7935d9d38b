/**
 * The report as people read it in a terminal: what changed since an earlier report (--baseline),
 * your origins' requests by engine, the attacker origins by engine, then the findings with their fix and playground link, the expectations,
 * and the verdict. Colour only where the terminal takes it (terminal.ts).
 */
import { STACK_NAMES } from '@origin-lab/cors-rules/advice';
import { seeItHappen } from '../lab-link.js';
import { wrap } from '../options.js';
import { NOT_SERVED_HERE } from '../drivers/driver.js';
import type { Paint, Style } from '../terminal.js';
import { SEVERITIES } from './check-options.js';
import {
  baselineHeading,
  changeLines,
  changeText,
  contextLines,
  failingGainsText,
  NOTHING_CHANGED,
} from './baseline.js';
import { carried, sessionHeading, sessionLines } from './session-report.js';
import { preflightApproved, writesAsUser, type Finding } from './findings.js';
import { notTriedText, triedOriginLabel } from './not-tried.js';
import { proofsText } from './proof.js';
import type { CheckReport } from './report.js';
import type { CellRun } from './run-check.js';

const SHORT: Record<string, string> = {
  'no-allow-origin': 'no Allow-Origin',
  'origin-mismatch': 'other Allow-Origin',
  'allow-origin-list': 'Allow-Origin list',
  'wildcard-with-credentials': '* with credentials',
  'credentials-not-allowed': 'no Allow-Credentials',
  'method-not-allowed': 'method not allowed',
  'header-not-allowed': 'header not allowed',
  'authorization-not-covered': 'Authorization not in *',
  'preflight-status': 'preflight',
  'preflight-redirect': 'preflight redirected',
  'mixed-content': 'mixed content',
  'local-network-access': 'local network',
  timeout: 'timeout',
  network: 'network',
  'engine-only': 'refused',
};

const SEVERITY_STYLE: Record<Finding['severity'], Style> = {
  critical: 'red',
  high: 'red',
  medium: 'yellow',
  low: 'cyan',
  info: 'dim',
};

/** A cell of width characters, one space at least after its text: cut with … where it is longer. */
const pad = (text: string, width: number) =>
  text.length >= width ? `${text.slice(0, width - 2)}… ` : text.padEnd(width);

/** An engine's column heading: its product cut where it must be, never its version (the useful part). */
function engineHeading(label: string, width: number): string {
  const version = /\s(\S*\d\S*)$/.exec(label)?.[1];
  if (label.length < width || !version) return label;
  return `${label.slice(0, width - version.length - 3)}… ${version}`;
}

/** One request in one engine, in a few characters. */
export function cellText(run: CellRun | undefined): [string, Style | null] {
  if (!run) return ['', null];
  if (run.couldNot) return ['– not here', 'dim'];
  // A step of the MCP handshake that the server refused: readable, but the handshake stops there.
  if (run.readable && run.cell.mcp && run.status !== null && run.status >= 400)
    return [`✘ ${run.status}, read`, 'yellow'];
  if (run.readable) {
    const redirected = run.redirected ? ' ↪' : '';
    // pf: a preflight went out, and its status (? where only the rules say so).
    const preflight = run.preflight?.sent
      ? ` (pf ${run.preflight.status ?? ''}${run.preflight.source === 'rules' ? '?' : ''})`
      : '';
    const kept = run.preflightKept
      ? `${run.preflightKept.kept ? ' kept' : ' not kept'}${run.preflightKept.source === 'rules' ? '?' : ''}`
      : '';
    return [`✔ ${run.status}${preflight}${kept}${redirected}`, 'green'];
  }
  const rule = run.reason?.rule ?? 'engine-only';
  const detail = rule === 'preflight-status' ? ` ${run.preflight?.status ?? ''}` : '';
  // The surprise worth a glance: the request reached the server though the page may not read it.
  const sent = run.sent?.value ? '⇢ ' : '';
  return [`✘ ${sent}${SHORT[rule] ?? rule}${detail}`, 'red'];
}

/** What a hostile origin could do in one engine: nothing, read, or read with credentials. */
export function hostileText(runs: CellRun[]): [string, Style | null] {
  if (runs.length === 0) return ['', null];
  if (runs.every((run) => run.couldNot?.startsWith(NOT_SERVED_HERE))) return ['– driver cannot', 'dim'];
  if (runs.every((run) => run.couldNot)) return ['– not an origin here', 'dim'];
  // The rebinding page reads its own origin: what counts is whether the server answered that name.
  const rebound = runs.find((run) => run.origin.kind === 'rebinding' && run.readable);
  if (rebound) return rebound.status! < 400 ? ['✘ reads (rebound)', 'red'] : [`✔ refused ${rebound.status}`, 'green'];
  if (runs.some(writesAsUser)) return ['✘ writes with cookies', 'red'];
  const credentialed = runs.filter((run) => run.readable && run.cell.credentials);
  // Signed in (--session): whether the reads carried the user's cookies, as far as was seen.
  if (credentialed.some(carried)) return ['✘ reads signed in', 'red'];
  if (credentialed.length > 0 && credentialed.every((run) => run.session?.cookieSent === false))
    return ['✘ reads, no cookies', 'yellow'];
  if (credentialed.length > 0) return ['✘ reads with cookies', 'red'];
  if (runs.some((run) => run.cell.id === 'preflight-credentials' && preflightApproved(run)))
    return ['✘ passes preflight', 'red'];
  if (runs.some((run) => run.readable)) return ['✘ reads', 'yellow'];
  const notCors = runs.find(
    (run) => run.reason && ['mixed-content', 'local-network-access', 'timeout'].includes(run.reason.rule),
  );
  if (notCors) return [`– ${SHORT[notCors.reason!.rule]}`, 'dim'];
  return ['✔ refused', 'green'];
}

/** What the attacker table's marks that are neither refused nor read mean. */
export const HOSTILE_LEGEND: [string, string][] = [
  [
    '✘ reads (rebound)',
    'DNS rebinding: a page under an attacker’s name, pointed at your server, read it as its own origin; only a check of Host refuses that.',
  ],
  ['✘ reads signed in', 'with your session (--session), the cookies went out and the page read the answer.'],
  [
    '✘ reads, no cookies',
    'the server lets it read with credentials, but with your session the engine held the cookies back (its cookie policy): what it read was the signed-out answer.',
  ],
  [
    '✘ passes preflight',
    'the server approved its preflight with cookies, Authorization and a custom header: the request went out as the user, though the answer was not readable.',
  ],
  [
    '– local network',
    "not tried: Chromium's Local Network Access stopped the requests before CORS was asked (a page it counts as public reaching a loopback or private address; an http:// page even when the user allows it). --local-network public tries them, as once the server is on a public address.",
  ],
  ['– not an origin here', 'the engine cannot be this origin: its URL parser refuses the name.'],
  [
    '– driver cannot',
    'not tried: WebKit’s driver talks to the browser on 127.0.0.1, so the check cannot serve a page at a 127.0.0.1 origin in WebKit (a limit of the check, not the engine).',
  ],
  ['– mixed content', 'not tried: an https page may not fetch an http:// URL, so the request never left.'],
  ['– timeout', 'no answer in time: not tried.'],
];

/**
 * The last line: OK only when every engine tried every origin and nothing reaches --fail-on;
 * an engine that left attacker origins untried is named, with the engines that are all well.
 */
export function verdict(report: CheckReport, counts: string, paint: Paint): string {
  const exit = `(exit ${report.exitCode})`;
  const gaps = report.notTried.map(notTriedText).join('; ');
  if (report.exitCode === 1) return `${paint('red', 'FAIL')} ${counts}${gaps ? `; ${gaps}` : ''} ${exit}`;
  if (report.notTried.length === 0) return `${paint('green', 'OK')} ${counts} ${exit}`;
  const whole = report.engines.filter((engine) => !report.notTried.some((gap) => gap.engine === engine.name));
  const ok = whole.length > 0 ? `OK for ${whole.map((engine) => engine.name).join(', ')}; ` : '';
  return `${paint('yellow', 'NOT ALL TRIED')} ${counts}: ${ok}${gaps} ${exit}`;
}

/** One finding: its severity and title, what was seen, where, why, the fix and the playground case. */
function findingLines(finding: Finding, report: CheckReport, paint: Paint): string[] {
  const lines: string[] = [];
  const stack = report.stack;
  lines.push(`  ${paint(SEVERITY_STYLE[finding.severity], finding.severity.toUpperCase().padEnd(6))} ${finding.title}`);
  const indent = '         ';
  const origins =
    finding.origins.length > 6
      ? `${finding.origins.slice(0, 6).join(', ')} and ${finding.origins.length - 6} more (--json lists all)`
      : null;
  lines.push(
    `${indent}${origins && finding.kind !== 'missing-vary' ? finding.detail.replace(finding.origins.join(', '), origins) : finding.detail}`,
  );
  if (finding.engines.length > 0 && finding.kind !== 'engines-differ')
    lines.push(`${indent}${paint('dim', `in ${finding.engines.join(', ')}`)}`);
  if (finding.reason?.engineWords)
    lines.push(`${indent}${paint('dim', `the engine said: ${finding.reason.engineWords}`)}`);
  if (finding.reason && finding.reason.source === 'rules')
    lines.push(
      `${indent}${paint('dim', 'why: the rules reading the answer the check asked for itself (the engine gives no reason)')}`,
    );
  if (finding.fix) {
    lines.push(`${indent}Fix: ${finding.fix.summary}`);
    if (stack) lines.push(`${indent}     ${STACK_NAMES[stack.name]}: ${finding.fix.byStack[stack.name]}`);
  }
  if (finding.playground)
    lines.push(`${indent}${paint('dim', `${seeItHappen(report.lab.chosenBy === 'option')}: ${finding.playground}`)}`);
  return lines;
}

/** After the tables: the findings, which stack the fixes are for, the expectations, the verdict. */
function closingLines(report: CheckReport, paint: Paint): string[] {
  const lines: string[] = [];
  for (const write of report.writes)
    lines.push(
      '',
      paint(
        'yellow',
        `Sent for real (${write.method}: named by you or by --profile mcp): ${write.requests} ${write.method} requests, from ${write.origins.length} origins, in ${write.engines.join(', ')}`,
      ),
    );
  lines.push('', paint('bold', report.findings.length > 0 ? 'Findings' : 'Findings: none'));
  const stack = report.stack;
  for (const finding of report.findings) lines.push(...findingLines(finding, report, paint));
  if (report.proofs) lines.push('', `  ${proofsText(report.proofs)}`);
  if (!stack && report.findings.some((finding) => finding.fix))
    lines.push(
      '',
      paint(
        'dim',
        `  The fix for your framework: --stack ${Object.keys(STACK_NAMES).join('|')} (all of them are in --json)`,
      ),
    );
  else if (stack && stack.chosenBy !== 'option')
    lines.push(
      '',
      paint('dim', `  Fixes shown for ${stack.label}, guessed from ${stack.chosenBy}; --stack to choose another`),
    );

  if (report.expectations) {
    const held = report.expectations.filter((result) => result.holds).length;
    lines.push('', paint('bold', `Expectations: ${held} of ${report.expectations.length} hold`));
    for (const result of report.expectations) {
      lines.push(`  ${result.holds ? paint('green', '✔') : paint('red', '✘')} ${result.description}`);
      for (const failure of result.failures.slice(0, 5)) lines.push(`      ${failure}`);
      if (result.failures.length > 5) lines.push(`      … and ${result.failures.length - 5} more`);
    }
  }
  lines.push('', verdict(report, countsText(report), paint));
  return lines;
}

/** How many findings of each severity, or "no findings"; and the origins whose gain fails the run. */
export function countsText(report: CheckReport): string {
  const counts = SEVERITIES.map(
    (severity) => [severity, report.findings.filter((finding) => finding.severity === severity).length] as const,
  )
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`);
  const gains = failingGainsText(report.baseline);
  return `${counts.join(', ') || 'no findings'}${gains ? `; ${gains}` : ''}`;
}

/**
 * What changed since the earlier report (--baseline), one line per origin: the gains that fail
 * the run, the other gains, the losses; then what the runs could not compare, and where they differ.
 */
function baselineLines(report: CheckReport, paint: Paint): string[] {
  const diff = report.baseline;
  if (!diff) return [];
  const lines = ['', paint('bold', baselineHeading(diff))];
  const changes = changeLines(diff);
  if (changes.length === 0) lines.push(`  ${paint('green', NOTHING_CHANGED)}`);
  for (const line of changes) {
    const style: Style = line.direction === 'lost' ? 'cyan' : line.fails ? 'red' : 'yellow';
    lines.push(`  ${paint(style, `${line.direction}:`)} ${changeText(line)}`);
  }
  for (const line of contextLines(diff)) lines.push(`  ${paint('dim', line)}`);
  return lines;
}

export function renderReport(report: CheckReport, paint: Paint): string {
  const lines: string[] = [];
  const engines = report.engines;
  const columnWidth = 26;
  // The label column fits the longest label of its table (at most 40 characters).
  let labelWidth = 40;
  const row = (label: string, cells: [string, Style | null][]) =>
    `  ${pad(label, labelWidth)}${cells.map(([text, style]) => (style ? paint(style, pad(text, columnWidth)) : pad(text, columnWidth))).join('')}`;

  lines.push(`${paint('bold', 'origin-lab check')}  ${report.target}`);
  lines.push(
    paint(
      'dim',
      `${engines.map((engine) => engine.label).join(', ')} · ${report.requests} requests · ${(report.durationMs / 1000).toFixed(1)} s`,
    ),
  );
  lines.push(...baselineLines(report, paint));
  const header = () =>
    row(
      '',
      engines.map((engine) => [engineHeading(engine.label, columnWidth), 'bold']),
    );

  const yours = [...new Set(report.origins.filter((origin) => origin.kind === 'yours').map((origin) => origin.origin))];
  for (const origin of yours) {
    labelWidth = Math.min(40, Math.max(...report.cells.map((cell) => cell.label.length)) + 2);
    lines.push('', paint('bold', `From ${origin}`), header());
    const runs = report.results.filter((run) => run.origin.kind === 'yours' && run.origin.origin === origin);
    for (const cell of report.cells.filter((c) => runs.some((run) => run.cell.id === c.id)))
      lines.push(
        row(
          cell.label,
          engines.map((engine) => cellText(runs.find((run) => run.engine === engine.name && run.cell.id === cell.id))),
        ),
      );
  }

  const seen = report.results.filter((run) => run.origin.kind === 'yours' && run.readable && run.cell.id === 'get');
  const headerSets = new Map<string, string[]>();
  for (const run of seen) {
    const names = (run.visibleHeaders ?? []).join(', ') || 'none';
    headerSets.set(names, [...(headerSets.get(names) ?? []), run.engine]);
  }
  for (const [names, engineNames] of headerSets)
    lines.push(
      `  ${paint('dim', `headers script could read (the simple GET${headerSets.size > 1 ? `, ${engineNames.join(', ')}` : ''}): ${names}`)}`,
    );
  const redirects = [...new Set(report.exchanges.map((record) => record.redirectedTo).filter(Boolean))];
  for (const to of redirects)
    lines.push(`  ${paint('dim', `↪ the answer is a redirect, to ${to}: the engines followed it`)}`);
  if (yours.length > 0)
    lines.push(
      paint(
        'dim',
        '  pf: a preflight went out, with its status; kept: the repeat went without one; ⇢: refused, but the\n' +
          '  request reached the server; ?: what the rules say where the engine reports nothing (the status is\n' +
          '  then the answer to the check’s own preflight).',
      ),
    );
  const hostile = report.origins.filter((origin) => origin.kind !== 'yours');
  if (hostile.length > 0) {
    labelWidth = 40;
    lines.push('', paint('bold', 'From origins an attacker could own'), header());
    const shown = new Set<string>();
    for (const origin of hostile) {
      const runs = report.results.filter(
        (run) => run.origin.origin === origin.origin && run.origin.context === origin.context,
      );
      const cells = engines.map((engine) => hostileText(runs.filter((run) => run.engine === engine.name)));
      for (const [text] of cells) shown.add(text);
      lines.push(row(triedOriginLabel(origin), cells));
    }
    // What a dash in the table means, for the dashes it holds.
    for (const [text, meaning] of HOSTILE_LEGEND)
      if (shown.has(text))
        lines.push(
          ...wrap(`${text}: ${meaning}`, 98).map((line, n) => paint('dim', `${n === 0 ? '  ' : '    '}${line}`)),
        );
  }

  if (report.session) {
    lines.push('', paint('bold', sessionHeading(report.session.cookies)));
    for (const line of sessionLines(report.results))
      lines.push(
        ...wrap(`${line.engine}: ${line.said}`, 98).map((text, n) => {
          const indented = `${n === 0 ? '  ' : '    '}${text}`;
          return line.leak ? paint('red', indented) : indented;
        }),
      );
  }

  lines.push(...closingLines(report, paint));
  return `${lines.map((line) => line.trimEnd()).join('\n')}\n`;
}
