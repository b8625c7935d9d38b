/**
 * The report as Markdown, for a CI job's summary (GitHub's $GITHUB_STEP_SUMMARY, a GitLab or
 * Jenkins page, a pull request comment): the verdict, what changed since an earlier report
 * (--baseline), your origins' requests and the attacker
 * origins by engine (the terminal report's own cell texts), then each finding with where it was
 * seen, its fix and its playground case, and the expectations.
 */
import { STACK_NAMES } from '@origin-lab/cors-rules/advice';
import { seeItHappen } from '../lab-link.js';
import { painter } from '../terminal.js';
import type { Finding } from './findings.js';
import type { CheckReport } from './report.js';
import { triedOriginLabel } from './not-tried.js';
import { baselineHeading, changeLines, contextLines, NOTHING_CHANGED } from './baseline.js';
import { sessionHeading, sessionLines } from './session-report.js';
import { proofsText } from './proof.js';
import { cellText, countsText, HOSTILE_LEGEND, hostileText, verdict } from './terminal-report.js';

/** Text safe in a table cell: no pipe or line break ends the cell early; < and > shown as written. */
const cell = (text: string) =>
  text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, ' ');
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

const BADGE: Record<Finding['severity'], string> = {
  critical: '🟣 CRITICAL',
  high: '🔴 HIGH',
  medium: '🟠 MEDIUM',
  low: '🔵 LOW',
  info: '⚪ INFO',
};

function table(head: string[], rows: string[][]): string[] {
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/** What changed since the earlier report: one item per origin and direction, then the rest. */
function baselineSection(report: CheckReport): string[] {
  const diff = report.baseline;
  if (!diff) return [];
  const lines = ['', `### ${baselineHeading(diff).replace(diff.file, code(diff.file))}`, ''];
  const changes = changeLines(diff);
  if (changes.length === 0) lines.push(`- ${NOTHING_CHANGED}`);
  for (const line of changes) {
    const verb = line.direction === 'gained' ? 'can now read' : 'can no longer read';
    const mark = line.direction === 'lost' ? '' : line.fails ? '🔴 ' : '🟡 ';
    const note = line.note ? ` (${line.note})` : '';
    lines.push(`- ${mark}**${line.direction}:** ${code(line.origin)} ${verb} ${cell(line.what)}${note}`);
  }
  lines.push(...contextLines(diff).map((line) => `- ${cell(line)}`));
  return lines;
}

function yourTables(report: CheckReport): string[] {
  const lines: string[] = [];
  const head = ['Request', ...report.engines.map((engine) => engine.label)];
  const yours = [...new Set(report.origins.filter((origin) => origin.kind === 'yours').map((origin) => origin.origin))];
  for (const origin of yours) {
    const runs = report.results.filter((run) => run.origin.kind === 'yours' && run.origin.origin === origin);
    const cells = report.cells.filter((c) => runs.some((run) => run.cell.id === c.id));
    const rows = cells.map((c) => [
      cell(c.label),
      ...report.engines.map((engine) =>
        cell(cellText(runs.find((run) => run.engine === engine.name && run.cell.id === c.id))[0]),
      ),
    ]);
    lines.push('', `### From ${code(origin)}`, '', ...table(head, rows));
  }
  return lines;
}

function hostileTable(report: CheckReport): string[] {
  const hostile = report.origins.filter((origin) => origin.kind !== 'yours');
  if (hostile.length === 0) return [];
  const shown = new Set<string>();
  const rows = hostile.map((origin) => {
    const runs = report.results.filter(
      (run) => run.origin.origin === origin.origin && run.origin.context === origin.context,
    );
    const texts = report.engines.map((engine) => hostileText(runs.filter((run) => run.engine === engine.name))[0]);
    for (const text of texts) shown.add(text);
    return [code(triedOriginLabel(origin)), ...texts.map(cell)];
  });
  const legend = HOSTILE_LEGEND.filter(([text]) => shown.has(text)).map(
    ([text, meaning]) => `- ${cell(text)}: ${meaning}`,
  );
  return [
    '',
    '### From origins an attacker could own',
    '',
    ...table(['Origin', ...report.engines.map((e) => e.label)], rows),
    ...(legend.length > 0 ? ['', ...legend] : []),
  ];
}

function findingLines(finding: Finding, report: CheckReport): string[] {
  const lines = ['', `#### ${BADGE[finding.severity]}: ${finding.title}`, '', finding.detail];
  const facts: string[] = [];
  if (finding.engines.length > 0 && finding.kind !== 'engines-differ') facts.push(`In ${finding.engines.join(', ')}.`);
  if (finding.reason?.engineWords) facts.push(`The engine said: ${code(finding.reason.engineWords)}`);
  if (finding.fix) {
    facts.push(`**Fix:** ${finding.fix.summary}`);
    if (report.stack) facts.push(`**${STACK_NAMES[report.stack.name]}:** ${finding.fix.byStack[report.stack.name]}`);
  }
  if (finding.playground) facts.push(`[${seeItHappen(report.lab.chosenBy === 'option')}](${finding.playground})`);
  return facts.length > 0 ? [...lines, '', ...facts.map((fact) => `- ${fact}`)] : lines;
}

function expectationLines(report: CheckReport): string[] {
  if (!report.expectations) return [];
  const held = report.expectations.filter((result) => result.holds).length;
  const lines = ['', `### Expectations: ${held} of ${report.expectations.length} hold`, ''];
  for (const result of report.expectations) {
    lines.push(`- ${result.holds ? '✔' : '✘'} ${result.description}`);
    for (const failure of result.failures.slice(0, 5)) lines.push(`  - ${failure}`);
    if (result.failures.length > 5)
      lines.push(`  - … and ${result.failures.length - 5} more (the JSON report has all)`);
  }
  return lines;
}

/** What the session did, per engine and origin (--session). */
function sessionSection(report: CheckReport): string[] {
  if (!report.session) return [];
  const rows = sessionLines(report.results).map((line) => [line.engine, line.leak ? `**${line.said}**` : line.said]);
  return ['', `### ${sessionHeading(report.session.cookies)}`, '', ...table(['Engine', 'The cookies'], rows)];
}

export function toMarkdown(report: CheckReport): string {
  const plain = painter(false);
  const lines = [
    `## origin-lab check: ${code(report.target)}`,
    '',
    `**${verdict(report, countsText(report), plain)}**`,
    '',
    `${report.engines.map((engine) => engine.label).join(', ')} · ${report.requests} requests · ${(report.durationMs / 1000).toFixed(1)} s`,
    ...baselineSection(report),
    ...report.writes.map(
      (write) =>
        `\n> Sent for real (${write.method}: named by you or by --profile mcp): ${write.requests} ${write.method} requests, from ${write.origins.length} origins, in ${write.engines.join(', ')}`,
    ),
    ...yourTables(report),
    ...hostileTable(report),
    ...sessionSection(report),
    '',
    report.findings.length > 0 ? '### Findings' : '### Findings: none',
    ...report.findings.flatMap((finding) => findingLines(finding, report)),
    ...(report.proofs ? ['', proofsText(report.proofs)] : []),
    ...expectationLines(report),
  ];
  return `${lines.join('\n')}\n`;
}
