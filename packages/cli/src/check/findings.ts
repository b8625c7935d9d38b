/**
 * What the run means, graded by what an attacker gets: high when an origin the user did not name
 * reads with credentials; medium when it reads without them, when "null" is trusted, or when an
 * answer carrying a permission that depends on the Origin does not say Vary: Origin; low for a
 * request of the user's own origins that an engine refused (with the rule that refused it), and
 * for refusals without Vary: Origin where other origins are allowed; info for * on an API read
 * without credentials, and for engines that differ. Each finding names its origins and engines,
 * the fix in the user's stack and the playground case that shows it.
 */
import { SAFE_METHODS } from '@origin-lab/contract/fetch-metadata';
import { variesByOrigin } from '@origin-lab/cors-rules';
import {
  FIX_FOR_REFUSAL,
  fixFor,
  playgroundLink,
  type Fix,
  type FixTopic,
  type RiskKind,
} from '@origin-lab/cors-rules/advice';
import type { Severity } from './check-options.js';
import { FINDING_TEXTS } from './finding-texts.js';
import { originLabel } from './not-tried.js';
import type { CellRun, ExchangeRecord, Reason } from './run-check.js';

export type FindingKind = RiskKind | 'refused' | 'engines-differ';

export interface Finding {
  /** Stable across runs: the kind, and what it is about. */
  id: string;
  kind: FindingKind;
  severity: Severity;
  title: string;
  /** What was seen, in a sentence or two. */
  detail: string;
  origins: string[];
  engines: string[];
  /** The cells (requests) it is about. */
  cells: string[];
  reason?: Reason;
  fix: Fix | null;
  /** The playground case that shows the same thing against the lab. */
  playground: string | null;
}

export const SEVERITY_ORDER: Record<Severity, number> = { high: 3, medium: 2, low: 1, info: 0 };

export interface FindingContext {
  yours: string[];
  lab: string;
}

const unique = <T>(items: readonly T[]) => [...new Set(items)];

/** What every finding kind reads: the run, and what several kinds share. */
interface RunFacts {
  runs: readonly CellRun[];
  exchanges: readonly ExchangeRecord[];
  context: FindingContext;
  /** Reads by origins you did not name. */
  hostileReads: CellRun[];
  /** Those made with credentials, and their origins (labelled). */
  withCredentials: CellRun[];
  credentialed: ReadonlySet<string>;
  /** The check's own exchanges that got an answer. */
  answers: ExchangeRecord[];
}

/** One kind of finding: those the run shows (none, one, or one per request). */
type FindingKindOf = (facts: RunFacts) => Finding[];

/**
 * The kinds, in the order the report lists findings of one severity. A finding of one kind may
 * leave out what another already said (a "null" or other hostile read made with credentials).
 */
const FINDING_KINDS: readonly FindingKindOf[] = [
  hostileReadsWithCredentials,
  nullTrusted,
  namedHostileReads,
  missingVary,
  wildcard,
  refusedRequests,
  fetchMetadata,
  enginesDiffer,
];

export function findingsOf(
  runs: readonly CellRun[],
  exchanges: readonly ExchangeRecord[],
  context: FindingContext,
): Finding[] {
  const hostileReads = runs.filter((run) => run.origin.kind !== 'yours' && run.readable);
  const withCredentials = hostileReads.filter((run) => run.cell.credentials);
  const facts: RunFacts = {
    runs,
    exchanges,
    context,
    hostileReads,
    withCredentials,
    credentialed: new Set(withCredentials.map(originLabel)),
    answers: exchanges.filter((record) => record.exchange.actual),
  };
  return FINDING_KINDS.flatMap((kind) => kind(facts)).sort(
    (a, b) => SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity],
  );
}

/** A finding, its id made of its kind and what it is about. */
function finding({ about, ...rest }: Omit<Finding, 'id'> & { about: string }): Finding {
  return { id: `${rest.kind}:${about}`, ...rest };
}

/** The fix for a topic, for your origins unless others are named. */
function fixOf(
  context: FindingContext,
  topic: FixTopic,
  extra: { origins?: string[]; method?: string; header?: string; preflight?: boolean } = {},
): Fix {
  return fixFor(topic, { origins: context.yours, ...extra });
}

const allowOriginOf = (record: ExchangeRecord) => record.exchange.actual!.headers['access-control-allow-origin'];

/** Hostile origins that read with credentials: the attacker reads as the user. */
function hostileReadsWithCredentials({ withCredentials, context }: RunFacts): Finding[] {
  if (withCredentials.length === 0) return [];
  const origins = unique(withCredentials.map(originLabel));
  const text = FINDING_TEXTS['hostile-read-credentials'];
  return [
    finding({
      kind: 'hostile-read-credentials',
      about: 'credentials',
      severity: 'high',
      title: text.title,
      detail: text.detail(origins),
      origins,
      engines: unique(withCredentials.map((run) => run.engine)),
      cells: unique(withCredentials.map((run) => run.cell.id)),
      fix: fixOf(context, 'exact-origins'),
      playground: playgroundLink(context.lab, 'hostile-read-credentials'),
    }),
  ];
}

/** "null" read without credentials (with them it is hostileReadsWithCredentials'). */
function nullTrusted({ hostileReads, credentialed, context }: RunFacts): Finding[] {
  const reads = hostileReads.filter((run) => run.origin.kind === 'null' && !credentialed.has(originLabel(run)));
  if (reads.length === 0) return [];
  const text = FINDING_TEXTS['null-trusted'];
  return [
    finding({
      kind: 'null-trusted',
      about: 'null',
      severity: 'medium',
      title: text.title,
      detail: text.detail,
      origins: unique(reads.map(originLabel)),
      engines: unique(reads.map((run) => run.engine)),
      cells: unique(reads.map((run) => run.cell.id)),
      fix: fixOf(context, 'exact-origins'),
      playground: playgroundLink(context.lab, 'null-trusted'),
    }),
  ];
}

/** Other hostile origins that read without credentials, where the answer names them (not *). */
function namedHostileReads({ hostileReads, credentialed, exchanges, context }: RunFacts): Finding[] {
  const star = (origin: string) =>
    exchanges.some(
      (record) => record.origin === origin && record.exchange.actual?.headers['access-control-allow-origin'] === '*',
    );
  const named = hostileReads.filter(
    (run) => run.origin.kind !== 'null' && !credentialed.has(originLabel(run)) && !star(run.origin.origin),
  );
  if (named.length === 0) return [];
  const origins = unique(named.map(originLabel));
  const text = FINDING_TEXTS['hostile-read'];
  return [
    finding({
      kind: 'hostile-read',
      about: 'origins',
      severity: 'medium',
      title: text.title,
      detail: text.detail(origins, unique(named.map((run) => run.origin.kind))),
      origins,
      engines: unique(named.map((run) => run.engine)),
      cells: unique(named.map((run) => run.cell.id)),
      fix: fixOf(context, 'exact-origins'),
      playground: playgroundLink(context.lab, 'hostile-read'),
    }),
  ];
}

/**
 * An answer that depends on the Origin without saying so in Vary: medium when a permission may
 * be served to another origin, low when only a refusal may (the allowed origin is then refused).
 */
function missingVary({ answers, context }: RunFacts): Finding[] {
  const differs = new Set(answers.map((record) => allowOriginOf(record) ?? '')).size > 1;
  const unvaried = answers.filter((record) => !variesByOrigin(record.exchange.actual!));
  const permissions = unvaried.filter((record) => allowOriginOf(record) !== undefined && allowOriginOf(record) !== '*');
  if (permissions.length === 0 && !(differs && unvaried.length > 0)) return [];
  const permission = permissions[0];
  const text = FINDING_TEXTS['missing-vary'];
  return [
    finding({
      kind: 'missing-vary',
      about: 'vary',
      severity: permission ? 'medium' : 'low',
      title: text.title,
      detail: permission ? text.detailPermission(allowOriginOf(permission), permission.origin) : text.detailRefusal,
      origins: unique(unvaried.map((record) => record.origin)),
      engines: [],
      cells: unique(unvaried.map((record) => record.cell)),
      fix: fixOf(context, 'vary-origin'),
      playground: playgroundLink(context.lab, 'missing-vary'),
    }),
  ];
}

/** * without credentials: fine for a public API, said once (and not beside a read with credentials). */
function wildcard({ answers, withCredentials, context }: RunFacts): Finding[] {
  const starred = answers.filter((record) => allowOriginOf(record) === '*');
  if (starred.length === 0 || withCredentials.length > 0) return [];
  const text = FINDING_TEXTS.wildcard;
  return [
    finding({
      kind: 'wildcard',
      about: 'star',
      severity: 'info',
      title: text.title,
      detail: text.detail,
      origins: ['*'],
      engines: [],
      cells: unique(starred.map((record) => record.cell)),
      fix: null,
      playground: playgroundLink(context.lab, 'wildcard'),
    }),
  ];
}

/**
 * Your origins' requests that an engine refused: one finding per request and reason. A repeat
 * whose first request was refused adds nothing: it is left out.
 */
function refusedRequests({ runs, context }: RunFacts): Finding[] {
  const refusedFirst = (run: CellRun) =>
    run.cell.repeats !== undefined &&
    runs.some(
      (first) =>
        first.engine === run.engine &&
        first.origin === run.origin &&
        first.cell.id === run.cell.repeats &&
        !first.readable,
    );
  const refused = runs.filter(
    (run) => run.origin.kind === 'yours' && !run.readable && run.reason && !refusedFirst(run),
  );
  const groups = new Map<string, CellRun[]>();
  for (const run of refused) {
    const key = `${run.origin.origin} ${run.cell.id} ${run.reason!.rule}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups].map(([key, group]) => refusedRequest(key, group, context));
}

/** One refused request of yours, in the engines that refused it for the same reason. */
function refusedRequest(key: string, group: readonly CellRun[], context: FindingContext): Finding {
  const { origin, cell, reason } = group[0]!;
  const rule = reason!.rule;
  const topic = rule in FIX_FOR_REFUSAL ? FIX_FOR_REFUSAL[rule as keyof typeof FIX_FOR_REFUSAL] : null;
  const header = cell.headers.map(([name]) => name).find((name) => !/^content-type$/i.test(name));
  const preflight = reason!.stage === 'preflight';
  return finding({
    kind: 'refused',
    about: key.replace(/ /g, ':'),
    severity: 'low',
    title: FINDING_TEXTS.refused.title(origin.origin, cell.title),
    detail: reason!.text,
    origins: [origin.origin],
    engines: unique(group.map((run) => run.engine)),
    cells: [cell.id],
    reason: reason!,
    fix: topic
      ? fixOf(context, topic, { origins: [origin.origin], method: cell.method, ...(header && { header }), preflight })
      : null,
    playground:
      rule in FIX_FOR_REFUSAL
        ? playgroundLink(context.lab, rule as keyof typeof FIX_FOR_REFUSAL, {
            method: cell.method,
            ...(header && { header }),
            preflight,
            ...(cell.repeats === undefined &&
              group[0]!.preflight?.status != null && { status: group[0]!.preflight.status }),
          })
        : null,
  });
}

/**
 * Your origins' requests that change something, answered 403 by the server itself (read, or
 * refused for want of CORS headers on the 403): what Fetch-metadata protection does. Not CORS.
 */
function fetchMetadata({ runs, exchanges, context }: RunFacts): Finding[] {
  const statusOf = (run: CellRun) =>
    run.status ??
    exchanges.find((record) => record.origin === run.origin.origin && record.cell === run.cell.id)?.exchange.actual
      ?.status ??
    null;
  const forbidden = runs.filter(
    (run) => run.origin.kind === 'yours' && !SAFE_METHODS.includes(run.cell.method) && statusOf(run) === 403,
  );
  if (forbidden.length === 0) return [];
  const methods = unique(forbidden.map((run) => run.cell.method));
  const origins = unique(forbidden.map((run) => run.origin.origin));
  const text = FINDING_TEXTS['fetch-metadata'];
  return [
    finding({
      kind: 'fetch-metadata',
      about: 'forbidden',
      severity: 'low',
      title: text.title(methods),
      detail: text.detail(
        origins,
        methods,
        forbidden.some((run) => run.readable),
      ),
      origins,
      engines: unique(forbidden.map((run) => run.engine)),
      cells: unique(forbidden.map((run) => run.cell.id)),
      fix: null,
      playground: playgroundLink(context.lab, 'fetch-metadata'),
    }),
  ];
}

/** The same request, read in one engine and refused in another. */
function enginesDiffer({ runs }: RunFacts): Finding[] {
  const byCell = new Map<string, CellRun[]>();
  for (const run of runs.filter((r) => r.couldNot === null)) {
    const key = `${originLabel(run)} ${run.cell.id}`;
    byCell.set(key, [...(byCell.get(key) ?? []), run]);
  }
  const text = FINDING_TEXTS['engines-differ'];
  return [...byCell].flatMap(([key, group]) => {
    const read = group.filter((run) => run.readable);
    if (read.length === 0 || read.length === group.length) return [];
    const refusedBy = group.filter((run) => !run.readable);
    return [
      finding({
        kind: 'engines-differ',
        about: key.replace(/ /g, ':'),
        severity: 'info',
        title: text.title(originLabel(group[0]!), group[0]!.cell.title),
        detail: text.detail(
          read.map((run) => run.engine),
          refusedBy.map((run) => ({ engine: run.engine, why: run.reason?.text ?? run.rejection ?? text.noReason })),
        ),
        origins: [originLabel(group[0]!)],
        engines: group.map((run) => run.engine),
        cells: [group[0]!.cell.id],
        fix: null,
        playground: null,
      }),
    ];
  });
}

/** Whether any finding is at or above the threshold. */
export function failsAt(findings: readonly Finding[], threshold: Severity | 'never'): boolean {
  return (
    threshold !== 'never' && findings.some((finding) => SEVERITY_ORDER[finding.severity] >= SEVERITY_ORDER[threshold])
  );
}
