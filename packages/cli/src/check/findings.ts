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

export function findingsOf(
  runs: readonly CellRun[],
  exchanges: readonly ExchangeRecord[],
  context: FindingContext,
): Finding[] {
  const findings: Finding[] = [];
  const fix = (
    topic: FixTopic,
    extra: { origins?: string[]; method?: string; header?: string; preflight?: boolean } = {},
  ) => fixFor(topic, { origins: context.yours, ...extra });
  const add = (finding: Omit<Finding, 'id'> & { about: string }) => {
    const { about, ...rest } = finding;
    findings.push({ id: `${finding.kind}:${about}`, ...rest });
  };
  const hostileReads = runs.filter((run) => run.origin.kind !== 'yours' && run.readable);
  const star = (origin: string) =>
    exchanges.some(
      (record) => record.origin === origin && record.exchange.actual?.headers['access-control-allow-origin'] === '*',
    );

  // Hostile origins that read with credentials: the attacker reads as the user.
  const withCredentials = hostileReads.filter((run) => run.cell.credentials);
  if (withCredentials.length > 0)
    add({
      kind: 'hostile-read-credentials',
      about: 'credentials',
      severity: 'high',
      title: 'Origins you did not name read your API with the user’s credentials',
      detail: `${unique(withCredentials.map(originLabel)).join(', ')} read the answer to a request carrying cookies: any page there can act as a signed-in user and read what they see.`,
      origins: unique(withCredentials.map(originLabel)),
      engines: unique(withCredentials.map((run) => run.engine)),
      cells: unique(withCredentials.map((run) => run.cell.id)),
      fix: fix('exact-origins'),
      playground: playgroundLink(context.lab, 'hostile-read-credentials'),
    });
  const credentialed = new Set(withCredentials.map(originLabel));

  // "null" read without credentials (with them it is above).
  const nullReads = hostileReads.filter((run) => run.origin.kind === 'null' && !credentialed.has(originLabel(run)));
  if (nullReads.length > 0)
    add({
      kind: 'null-trusted',
      about: 'null',
      severity: 'medium',
      title: 'The origin "null" may read',
      detail:
        'A sandboxed frame or a data: URL worker is "null", and any site can make one: trusting null trusts every site.',
      origins: unique(nullReads.map(originLabel)),
      engines: unique(nullReads.map((run) => run.engine)),
      cells: unique(nullReads.map((run) => run.cell.id)),
      fix: fix('exact-origins'),
      playground: playgroundLink(context.lab, 'null-trusted'),
    });

  // Other hostile origins that read without credentials, where the answer names them (not *).
  const named = hostileReads.filter(
    (run) => run.origin.kind !== 'null' && !credentialed.has(originLabel(run)) && !star(run.origin.origin),
  );
  if (named.length > 0)
    add({
      kind: 'hostile-read',
      about: 'origins',
      severity: 'medium',
      title: 'Origins you did not name may read your API',
      detail: `${unique(named.map(originLabel)).join(', ')} read the answer: the server's origin check lets them through (${unique(named.map((run) => run.origin.kind)).join(', ')}).`,
      origins: unique(named.map(originLabel)),
      engines: unique(named.map((run) => run.engine)),
      cells: unique(named.map((run) => run.cell.id)),
      fix: fix('exact-origins'),
      playground: playgroundLink(context.lab, 'hostile-read'),
    });

  // An answer that depends on the Origin without saying so in Vary: medium when a permission may
  // be served to another origin, low when only a refusal may (the allowed origin is then refused).
  const answers = exchanges.filter((record) => record.exchange.actual);
  const allowOf = (record: ExchangeRecord) => record.exchange.actual!.headers['access-control-allow-origin'];
  const differs = new Set(answers.map((record) => allowOf(record) ?? '')).size > 1;
  const unvaried = answers.filter((record) => !variesByOrigin(record.exchange.actual!));
  const unvariedPermissions = unvaried.filter((record) => allowOf(record) !== undefined && allowOf(record) !== '*');
  if (unvariedPermissions.length > 0 || (differs && unvaried.length > 0)) {
    const permission = unvariedPermissions[0];
    add({
      kind: 'missing-vary',
      about: 'vary',
      severity: permission ? 'medium' : 'low',
      title: 'An answer that depends on the Origin lacks Vary: Origin',
      detail: permission
        ? `Access-Control-Allow-Origin follows the request's Origin (${allowOf(permission)} for ${permission.origin}) with no Vary: Origin: a shared cache may hand that permission to another origin.`
        : `Some origins get Access-Control-Allow-Origin and others none, and the answers without it say nothing in Vary: a shared cache may hand such a refusal to an origin you allow.`,
      origins: unique(unvaried.map((record) => record.origin)),
      engines: [],
      cells: unique(unvaried.map((record) => record.cell)),
      fix: fix('vary-origin'),
      playground: playgroundLink(context.lab, 'missing-vary'),
    });
  }

  // * without credentials: fine for a public API, said once.
  const starred = answers.filter((record) => record.exchange.actual!.headers['access-control-allow-origin'] === '*');
  if (starred.length > 0 && withCredentials.length === 0)
    add({
      kind: 'wildcard',
      about: 'star',
      severity: 'info',
      title: 'Any origin may read without credentials (Access-Control-Allow-Origin: *)',
      detail:
        'Right for a public API whose answers are the same for everyone; never for one that answers by cookie, by client address or by network (an intranet API). No page can read it with credentials.',
      origins: ['*'],
      engines: [],
      cells: unique(starred.map((record) => record.cell)),
      fix: null,
      playground: playgroundLink(context.lab, 'wildcard'),
    });

  // Your origins' requests that an engine refused: one finding per request and reason.
  // A repeat whose first request was refused adds nothing: it is left out.
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
  for (const [key, group] of groups) {
    const { origin, cell, reason } = group[0]!;
    const rule = reason!.rule;
    const topic = rule in FIX_FOR_REFUSAL ? FIX_FOR_REFUSAL[rule as keyof typeof FIX_FOR_REFUSAL] : null;
    const header = cell.headers.map(([name]) => name).find((name) => !/^content-type$/i.test(name));
    const preflight = reason!.stage === 'preflight';
    add({
      kind: 'refused',
      about: key.replace(/ /g, ':'),
      severity: 'low',
      title: `${origin.origin} cannot read ${cell.title}`,
      detail: reason!.text,
      origins: [origin.origin],
      engines: unique(group.map((run) => run.engine)),
      cells: [cell.id],
      reason: reason!,
      fix: topic
        ? fix(topic, { origins: [origin.origin], method: cell.method, ...(header && { header }), preflight })
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

  // Your origins' requests that change something, answered 403 by the server itself (read, or
  // refused for want of CORS headers on the 403): what Fetch-metadata protection does. Not CORS.
  const statusOf = (run: CellRun) =>
    run.status ??
    exchanges.find((record) => record.origin === run.origin.origin && record.cell === run.cell.id)?.exchange.actual
      ?.status ??
    null;
  const forbidden = runs.filter(
    (run) => run.origin.kind === 'yours' && !SAFE_METHODS.includes(run.cell.method) && statusOf(run) === 403,
  );
  if (forbidden.length > 0) {
    const methods = unique(forbidden.map((run) => run.cell.method));
    add({
      kind: 'fetch-metadata',
      about: 'forbidden',
      severity: 'low',
      title: `Your origins' ${methods.join(', ')} requests are refused by the server itself (403): not CORS`,
      detail: `${unique(forbidden.map((run) => run.origin.origin)).join(', ')} sent ${methods.join(', ')} and the server answered 403${forbidden.some((run) => run.readable) ? ', which CORS let the page read' : ''}. A request that changes something and is not same-origin is what Fetch-metadata protection refuses (Go's http.CrossOriginProtection, and the CSRF guards of frameworks that read Sec-Fetch-Site): no CORS header changes it. Let these origins through the protection (trusted origins), or check the server's log for what refused it.`,
      origins: unique(forbidden.map((run) => run.origin.origin)),
      engines: unique(forbidden.map((run) => run.engine)),
      cells: unique(forbidden.map((run) => run.cell.id)),
      fix: null,
      playground: playgroundLink(context.lab, 'fetch-metadata'),
    });
  }

  // The same request, read in one engine and refused in another.
  const byCell = new Map<string, CellRun[]>();
  for (const run of runs.filter((r) => r.couldNot === null))
    byCell.set(`${originLabel(run)} ${run.cell.id}`, [
      ...(byCell.get(`${originLabel(run)} ${run.cell.id}`) ?? []),
      run,
    ]);
  for (const [key, group] of byCell) {
    const read = group.filter((run) => run.readable);
    if (read.length === 0 || read.length === group.length) continue;
    const refusedBy = group.filter((run) => !run.readable);
    add({
      kind: 'engines-differ',
      about: key.replace(/ /g, ':'),
      severity: 'info',
      title: `Engines differ: ${originLabel(group[0]!)}, ${group[0]!.cell.title}`,
      detail: `Read in ${read.map((run) => run.engine).join(', ')}; refused in ${refusedBy.map((run) => `${run.engine} (${run.reason?.text ?? run.rejection ?? 'no reason given'})`).join('; ')}.`,
      origins: [originLabel(group[0]!)],
      engines: group.map((run) => run.engine),
      cells: [group[0]!.cell.id],
      fix: null,
      playground: null,
    });
  }

  return findings.sort((a, b) => SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity]);
}

/** Whether any finding is at or above the threshold. */
export function failsAt(findings: readonly Finding[], threshold: Severity | 'never'): boolean {
  return (
    threshold !== 'never' && findings.some((finding) => SEVERITY_ORDER[finding.severity] >= SEVERITY_ORDER[threshold])
  );
}
