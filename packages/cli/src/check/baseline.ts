/**
 * --baseline: this run beside an earlier JSON report of check, per engine, origin and request.
 * Which origins can now read what they could not (gained), which no longer can (lost), and what
 * the two runs cannot tell (a request that could not run, an attacker origin Local Network Access
 * kept untried): the question a reviewer of a CORS change asks, "which origins did it open?".
 *
 * The earlier report is read and checked whole before any engine starts: a missing file, one that
 * is not JSON, not a report of check or about another endpoint is one line and exit 2. Only the
 * fields the comparison reads are checked; the rest of the report is not looked at.
 */
import { basename } from 'node:path';
import type { Context } from '../drivers/probe-page.js';
import { CommandError } from '../terminal.js';
import { readUserFile } from '../user-file.js';
import type { Cell } from './cells.js';
import type { Expectations } from './expectations.js';
import { triedOriginLabel } from './not-tried.js';
import type { TriedOrigin } from './origins.js';

/** The largest earlier report read (a run of three engines and every attacker origin is a few MB). */
export const MAX_BASELINE_BYTES = 50 * 1024 * 1024;

const CONTEXTS: readonly Context[] = ['page', 'sandboxed-frame', 'data-worker'];

/** One result as the comparison reads it, in either run. */
export interface ComparedRun {
  engine: string;
  origin: Pick<TriedOrigin, 'origin' | 'kind' | 'context'>;
  cell: Pick<Cell, 'id' | 'label' | 'repeats'>;
  readable: boolean;
  couldNot: string | null;
  reason: { rule: string } | null;
}

/** What the comparison needs of a run: its target, its engines and their versions, its results. */
export interface ComparedReport {
  target: string;
  startedAt: string | null;
  engines: { name: string; version: string }[];
  results: ComparedRun[];
}

/** The earlier report, read and checked. */
export interface EarlierReport extends ComparedReport {
  /** The file as it was named on the command line. */
  file: string;
}

/** One origin's access to one request in one engine that is not what it was. */
export interface Change {
  engine: string;
  /** The origin as the report names it ("null (sandboxed frame)" for an opaque one). */
  origin: string;
  /** Yours, or the attack the origin stands for, as this run has it. */
  kind: TriedOrigin['kind'];
  /** The request's id, and its label in the report's tables. */
  cell: string;
  label: string;
}

export interface Gain extends Change {
  /** Whether it fails the run: an origin not yours, which the expectations file does not allow to read. */
  fails: boolean;
}

/** One engine whose version differs between the runs; null: not in that run. */
export interface EngineChange {
  name: string;
  earlier: string | null;
  now: string | null;
}

/** The report's `baseline` field. */
export interface BaselineDiff {
  /** The earlier report's file name (without its folder). */
  file: string;
  /** The earlier run's target and start. */
  target: string;
  startedAt: string | null;
  gained: Gain[];
  lost: Change[];
  /** Results of this run that could not run, or were not tried, in either run: neither gained nor lost. */
  notComparable: number;
  /** Where the two runs were not alike. */
  differs: {
    /** This run's target, when it is another origin's (the same path and query). */
    target: string | null;
    /** Engines of only one run are not compared; an engine of another version is. */
    engines: EngineChange[];
    /** Origins (as the report names them) tried in one run only. */
    origins: { onlyEarlier: string[]; onlyNow: string[] };
    /** Requests (their labels) sent in one run only. */
    requests: { onlyEarlier: string[]; onlyNow: string[] };
  };
}

/** Reads the earlier report and checks it is a report of check about this endpoint. */
export function readBaseline(file: string, target: URL, maxBytes = MAX_BASELINE_BYTES): EarlierReport {
  const bad = (what: string) => new CommandError(`--baseline ${file}: ${what}`);
  let json: unknown;
  try {
    json = JSON.parse(readUserFile(file, `--baseline ${file}`, '--baseline', maxBytes).replace(/^\uFEFF/, ''));
  } catch (err) {
    if (err instanceof CommandError) throw err;
    throw bad(`not JSON (${(err as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || (json as { tool?: unknown }).tool !== 'origin-lab check')
    throw bad('not a JSON report of origin-lab check (it has no "tool": "origin-lab check"; --json writes one)');
  const report = checkReport(json as Record<string, unknown>, bad);
  const earlier = new URL(report.target);
  if (earlier.pathname + earlier.search !== target.pathname + target.search)
    throw bad(
      `a report of ${report.target}, another endpoint than ${target.href}: compare two runs of one URL (at one origin or another)`,
    );
  return { file, ...report };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields the comparison reads, each checked; a wrong one is named. */
function checkReport(json: Record<string, unknown>, bad: (what: string) => CommandError): ComparedReport {
  if (typeof json.target !== 'string' || !URL.canParse(json.target)) throw bad('its "target" is not a URL');
  if (!Array.isArray(json.engines)) throw bad('its "engines" is not a list');
  const engines = json.engines.map((engine: unknown, index) => {
    if (!isObject(engine) || typeof engine.name !== 'string' || typeof engine.version !== 'string')
      throw bad(`engines[${index}] is not { name, version }`);
    return { name: engine.name, version: engine.version };
  });
  if (!Array.isArray(json.results)) throw bad('its "results" is not a list');
  return {
    target: json.target,
    startedAt: typeof json.startedAt === 'string' ? json.startedAt : null,
    engines,
    results: json.results.map((run: unknown, index) => checkRun(run, `results[${index}]`, bad)),
  };
}

function checkRun(run: unknown, where: string, bad: (what: string) => CommandError): ComparedRun {
  if (!isObject(run) || typeof run.engine !== 'string') throw bad(`${where}.engine is not an engine's name`);
  const { origin, cell, reason } = run;
  if (
    !isObject(origin) ||
    typeof origin.origin !== 'string' ||
    typeof origin.kind !== 'string' ||
    !CONTEXTS.includes(origin.context as Context)
  )
    throw bad(`${where}.origin is not { origin, kind, context }`);
  if (!isObject(cell) || typeof cell.id !== 'string') throw bad(`${where}.cell has no id`);
  if (typeof run.readable !== 'boolean') throw bad(`${where}.readable is not true or false`);
  if (run.couldNot !== null && typeof run.couldNot !== 'string') throw bad(`${where}.couldNot is not text or null`);
  if (reason !== null && (!isObject(reason) || typeof reason.rule !== 'string'))
    throw bad(`${where}.reason is not null or { rule, ... }`);
  return {
    engine: run.engine,
    origin: { origin: origin.origin, kind: origin.kind as TriedOrigin['kind'], context: origin.context as Context },
    cell: { id: cell.id, label: typeof cell.label === 'string' ? cell.label : cell.id },
    readable: run.readable,
    couldNot: run.couldNot,
    reason: reason === null ? null : { rule: reason.rule as string },
  };
}

/** One result's place in either run: engine, origin as the report names it, request. */
const keyOf = (run: ComparedRun) => JSON.stringify([run.engine, triedOriginLabel(run.origin), run.cell.id]);

/** A result that tells nothing of access: it could not run, or Local Network Access stopped an attacker origin. */
const uncomparable = (run: ComparedRun) =>
  run.couldNot !== null || (run.origin.kind !== 'yours' && run.reason?.rule === 'local-network-access');

/**
 * Whether an origin may gain access: yours always (listed, never a failure), another one when the
 * expectations file names it or lets every other origin read (othersDenied: false).
 */
function allowed(change: Change, expectations: Expectations | null): boolean {
  if (change.kind === 'yours') return true;
  if (!expectations) return false;
  return !expectations.othersDenied || expectations.allow.some((entry) => entry.origin === change.origin);
}

/** The request's words in a diff line: the repeat of a preflighted request says whose repeat it is. */
function labelOf(run: ComparedRun, runs: readonly ComparedRun[]): string {
  if (!run.cell.repeats) return run.cell.label;
  const repeated = runs.find((other) => other.cell.id === run.cell.repeats);
  return `${repeated?.cell.label ?? run.cell.repeats} (again)`;
}

/**
 * This run beside the earlier one. Gained: readable now, and not readable (or not tried) before;
 * lost: readable before, and not now. Engines of one run only are not compared.
 */
export function compareRuns(
  earlier: EarlierReport,
  now: ComparedReport,
  expectations: Expectations | null,
): BaselineDiff {
  const before = new Map(earlier.results.map((run) => [keyOf(run), run]));
  const shared = new Set(
    now.engines.filter((engine) => earlier.engines.some((e) => e.name === engine.name)).map((e) => e.name),
  );
  const gained: Gain[] = [];
  const lost: Change[] = [];
  let notComparable = 0;
  for (const run of now.results.filter((r) => shared.has(r.engine))) {
    const was = before.get(keyOf(run));
    if (uncomparable(run) || (was && uncomparable(was))) {
      notComparable += 1;
      continue;
    }
    const change: Change = {
      engine: run.engine,
      origin: triedOriginLabel(run.origin),
      kind: run.origin.kind,
      cell: run.cell.id,
      label: labelOf(run, now.results),
    };
    if (run.readable && !was?.readable) gained.push({ ...change, fails: !allowed(change, expectations) });
    else if (!run.readable && was?.readable) lost.push(change);
  }
  return {
    file: basename(earlier.file),
    target: earlier.target,
    startedAt: earlier.startedAt,
    gained,
    lost,
    notComparable,
    differs: differences(earlier, now),
  };
}

/** What is in one list and not the other, each once, in order. */
function onlyIn(these: readonly string[], those: readonly string[]): string[] {
  return [...new Set(these.filter((item) => !those.includes(item)))];
}

/** Where the runs differ apart from access: target, engines, origins tried, requests sent. */
function differences(earlier: ComparedReport, now: ComparedReport): BaselineDiff['differs'] {
  const names = [...new Set([...earlier.engines, ...now.engines].map((engine) => engine.name))];
  const engines = names
    .map((name) => ({
      name,
      earlier: earlier.engines.find((engine) => engine.name === name)?.version ?? null,
      now: now.engines.find((engine) => engine.name === name)?.version ?? null,
    }))
    .filter((engine) => engine.earlier !== engine.now);
  const origins = (report: ComparedReport) => report.results.map((run) => triedOriginLabel(run.origin));
  // Requests are told apart by id, and named by label.
  const requests = (report: ComparedReport) => new Map(report.results.map((run) => [run.cell.id, run.cell.label]));
  const [requestsThen, requestsNow] = [requests(earlier), requests(now)];
  const labels = (these: Map<string, string>, those: Map<string, string>) =>
    onlyIn([...these.keys()], [...those.keys()]).map((id) => these.get(id)!);
  return {
    target: earlier.target === now.target ? null : now.target,
    engines,
    origins: { onlyEarlier: onlyIn(origins(earlier), origins(now)), onlyNow: onlyIn(origins(now), origins(earlier)) },
    requests: { onlyEarlier: labels(requestsThen, requestsNow), onlyNow: labels(requestsNow, requestsThen) },
  };
}

/** One origin's changes in one direction, as a line of the reports says them. */
export interface ChangeLine {
  direction: 'gained' | 'lost';
  origin: string;
  /** The requests and engines: "GET and GET, credentials (fetch) in chromium, firefox". */
  what: string;
  /** Why a gain does not fail the run (yours, or the expectations allow it); empty otherwise. */
  note: string;
  fails: boolean;
}

/** The requests of one origin's changes, grouped by the engines they hold in. */
function whatText(changes: readonly Change[]): string {
  const enginesOf = new Map<string, string[]>();
  for (const change of changes) enginesOf.set(change.label, [...(enginesOf.get(change.label) ?? []), change.engine]);
  const labelsOf = new Map<string, string[]>();
  for (const [label, engines] of enginesOf) {
    const key = engines.join(', ');
    labelsOf.set(key, [...(labelsOf.get(key) ?? []), label]);
  }
  return [...labelsOf].map(([engines, labels]) => `${labels.join(' and ')} in ${engines}`).join('; ');
}

/** The changes, one line per origin and direction: the gains that fail first, then the others, then the losses. */
export function changeLines(diff: BaselineDiff): ChangeLine[] {
  const byOrigin = <T extends Change>(changes: readonly T[]) => {
    const groups = new Map<string, T[]>();
    for (const change of changes) groups.set(change.origin, [...(groups.get(change.origin) ?? []), change]);
    return [...groups.values()];
  };
  const gained = byOrigin(diff.gained).map((changes): ChangeLine => {
    const fails = changes.some((change) => change.fails);
    const note = fails ? '' : changes[0]!.kind === 'yours' ? 'your origin' : 'the expectations allow it';
    return { direction: 'gained', origin: changes[0]!.origin, what: whatText(changes), note, fails };
  });
  const lost = byOrigin(diff.lost).map((changes): ChangeLine => ({
    direction: 'lost',
    origin: changes[0]!.origin,
    what: whatText(changes),
    note: '',
    fails: false,
  }));
  return [...gained.filter((line) => line.fails), ...gained.filter((line) => !line.fails), ...lost];
}

/** A change line in words, without style: "gained: <origin> can now read <what>". */
export function changeText(line: ChangeLine): string {
  const verb = line.direction === 'gained' ? 'can now read' : 'can no longer read';
  return `${line.origin} ${verb} ${line.what}${line.note ? ` (${line.note})` : ''}`;
}

/** The lines after the changes: what could not be compared, and where the runs were not alike. */
export function contextLines(diff: BaselineDiff): string[] {
  const lines: string[] = [];
  if (diff.notComparable > 0)
    lines.push(
      `not comparable: ${diff.notComparable} result${diff.notComparable === 1 ? '' : 's'} that could not run, or whose origin was not tried, in one of the runs`,
    );
  if (diff.differs.target) lines.push(`target: ${diff.target} then, ${diff.differs.target} now`);
  if (diff.differs.engines.length > 0)
    lines.push(
      `engines: ${diff.differs.engines
        .map((engine) =>
          engine.earlier === null
            ? `${engine.name} only now (not compared)`
            : engine.now === null
              ? `${engine.name} only then (not compared)`
              : `${engine.name} ${engine.earlier} then, ${engine.now} now`,
        )
        .join('; ')}`,
    );
  const { origins, requests } = diff.differs;
  if (origins.onlyEarlier.length > 0 || origins.onlyNow.length > 0)
    lines.push(`origins tried ${onlyText(origins.onlyEarlier, origins.onlyNow)}`);
  if (requests.onlyEarlier.length > 0 || requests.onlyNow.length > 0)
    lines.push(`requests sent ${onlyText(requests.onlyEarlier, requests.onlyNow)}`);
  return lines;
}

function onlyText(onlyEarlier: readonly string[], onlyNow: readonly string[]): string {
  return [
    onlyEarlier.length > 0 ? `only then: ${onlyEarlier.join(', ')}` : '',
    onlyNow.length > 0 ? `only now: ${onlyNow.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** The heading of the diff: the earlier report and when it ran. */
export function baselineHeading(diff: BaselineDiff): string {
  return `Since ${diff.file}${diff.startedAt ? ` (${diff.startedAt})` : ''}`;
}

/** The one line said when no origin gained or lost anything. */
export const NOTHING_CHANGED = 'no origin gained or lost access, in any engine';

/** For the verdict: how many origins not yours gained access the expectations do not allow. */
export function failingGainsText(diff: BaselineDiff | null): string {
  if (!diff) return '';
  const origins = new Set(diff.gained.filter((gain) => gain.fails).map((gain) => gain.origin)).size;
  return origins === 0 ? '' : `${origins} origin${origins === 1 ? '' : 's'} not yours gained access since ${diff.file}`;
}
