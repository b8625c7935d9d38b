/**
 * What the run means, graded by what an attacker gets and what it costs them to be the origin
 * that gets it (origins.ts: any site, a position, your own host). A read with credentials is high
 * from any site, medium from a position (a subdomain taken over, the network path, a program on
 * the user's machine), low from your own host under another name; a read without them a step
 * lower, as is "null" trusted without credentials (medium: any site can be null). A missing
 * Vary: Origin, where the answer really depends on the Origin, is low: only a shared cache in
 * between hands it on. Low also for a request of the user's own origins that an engine refused
 * (with the rule that refused it), and for an error answer (--also-url) they cannot read though
 * they read the target; info for * on an API read without credentials, and for engines that
 * differ. Each finding names its origins and engines, the fix in the user's stack and the
 * playground case that shows it.
 */
import { SAFE_METHODS } from '@origin-lab/contract/fetch-metadata';
import { needsPreflight, variesByOrigin } from '@origin-lab/cors-rules';
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
import { costOf, type AttackerCost } from './origins.js';
import { carried } from './session-report.js';
import { NOT_CORS, type CellRun, type ExchangeRecord, type Reason } from './run-check.js';

export type FindingKind =
  | RiskKind
  | 'refused'
  | 'error-answer-unreadable'
  | 'engines-differ'
  | 'session-leak'
  | 'dns-rebinding'
  | 'mcp-session-hidden'
  | 'mcp-origin-not-validated';

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
  /** The URL it is about, when not the target: an error answer's (--also-url). */
  url?: string;
  reason?: Reason;
  fix: Fix | null;
  /** The playground case that shows the same thing against the lab. */
  playground: string | null;
}

export const SEVERITY_ORDER: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

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
  hostileWrites,
  dnsRebinding,
  mcpOriginNotValidated,
  mcpSessionHidden,
  hostileReadsWithCredentials,
  hostilePreflights,
  nullTrusted,
  namedHostileReads,
  missingVary,
  wildcard,
  errorAnswersUnreadable,
  refusedRequests,
  fetchMetadata,
  enginesDiffer,
];

export function findingsOf(
  runs: readonly CellRun[],
  exchanges: readonly ExchangeRecord[],
  context: FindingContext,
): Finding[] {
  // The rebinding page reads its own origin: dnsRebinding's, not a cross-origin read.
  const hostileReads = runs.filter(
    (run) => run.origin.kind !== 'yours' && run.origin.kind !== 'rebinding' && run.readable,
  );
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

/** The status of a run's answer: what the page read, else what the check's own request got. */
function statusOf(run: CellRun, exchanges: readonly ExchangeRecord[]): number | null {
  if (run.readable) return run.status;
  const record = exchanges.find((r) => r.origin === run.origin.origin && r.cell === run.cell.id);
  return record?.exchange.actual?.status ?? null;
}

/**
 * A read's detail, and the error answers (--also-url) among what was read, by URL and status:
 * said apart when they are all that was read (the target itself refused).
 */
function readDetail(detail: string, reads: readonly CellRun[]): string {
  const answers = new Map<string, Set<number | null>>();
  for (const run of reads)
    if (run.cell.url !== undefined) answers.set(run.cell.url, (answers.get(run.cell.url) ?? new Set()).add(run.status));
  if (answers.size === 0) return detail;
  const named = [...answers].map(([url, statuses]) => `${url} (${[...statuses].join(', ')})`);
  const only = reads.every((run) => run.cell.url !== undefined);
  return `${detail} ${only ? FINDING_TEXTS.errorAnswersOnly(named) : FINDING_TEXTS.errorAnswersToo(named)}`;
}

/** The severity of a read, by the cheapest attacker among its origins, with or without credentials. */
const SEVERITY_BY_COST: Record<'credentials' | 'plain', Record<AttackerCost, Severity>> = {
  credentials: { 'any-site': 'high', position: 'medium', 'own-host': 'low' },
  plain: { 'any-site': 'medium', position: 'low', 'own-host': 'low' },
};

/** The highest severity the runs reach by the table, and their origins by what being one costs. */
function gradeOf(reads: readonly CellRun[], table: Record<AttackerCost, Severity>) {
  const byCost = new Map<AttackerCost, string[]>();
  for (const run of reads) {
    const cost = costOf(run.origin.kind) ?? 'any-site';
    const origins = byCost.get(cost) ?? [];
    if (!origins.includes(originLabel(run))) byCost.set(cost, [...origins, originLabel(run)]);
  }
  const severities = [...byCost.keys()].map((cost) => table[cost]);
  const severity = severities.sort((a, b) => SEVERITY_ORDER[b] - SEVERITY_ORDER[a])[0] ?? 'info';
  return { severity, byCost: [...byCost].map(([cost, origins]) => ({ cost, origins })) };
}

/** Hostile origins that read with credentials: the attacker reads as the user. */
function hostileReadsWithCredentials({ withCredentials, context }: RunFacts): Finding[] {
  if (withCredentials.length === 0) return [];
  if (withCredentials.some((run) => run.session)) return signedInReads(withCredentials, context);
  return [credentialedRead(withCredentials, context, SEVERITY_BY_COST.credentials)];
}

/** The finding of reads made with credentials, graded by table, its detail followed by more words. */
function credentialedRead(
  reads: readonly CellRun[],
  context: FindingContext,
  table: Record<AttackerCost, Severity>,
  more = '',
): Finding {
  const { severity, byCost } = gradeOf(reads, table);
  const text = FINDING_TEXTS['hostile-read-credentials'];
  return finding({
    kind: 'hostile-read-credentials',
    about: 'credentials',
    severity,
    title: text.title,
    detail: `${readDetail(text.detail(byCost), reads)}${more}`,
    origins: unique(reads.map(originLabel)),
    engines: unique(reads.map((run) => run.engine)),
    cells: unique(reads.map((run) => run.cell.id)),
    fix: fixOf(context, 'exact-origins'),
    playground: playgroundLink(context.lab, 'hostile-read-credentials'),
  });
}

/** Per engine, what the session did: "chromium sent the cookies", "firefox held them back: why", or could not tell. */
function sessionOutcomes(reads: readonly CellRun[]): string[] {
  const engines = unique(reads.map((run) => run.engine));
  return engines.map((engine) => {
    const mine = reads.filter((run) => run.engine === engine);
    const sent = mine.filter(carried);
    const origins = unique(sent.map(originLabel));
    if (sent.length > 0)
      return `${engine} sent them from ${origins.length > 3 ? `${origins.slice(0, 3).join(', ')} and ${origins.length - 3} more` : origins.join(', ')}`;
    const withheld = mine.find((run) => run.session?.cookieSent === false);
    if (withheld && mine.every((run) => run.session?.cookieSent === false))
      return `${engine} held them back (${withheld.session!.withheld})`;
    return `${engine}: could not tell (the engine reports no cookies, and the signed-in and signed-out answers are alike or change from one request to the next)`;
  });
}

/**
 * With a session: a read that carried it is a leak of the signed-in answer, graded by what the
 * origin costs; where every engine held the cookies back, the read is graded as one without
 * credentials, and the finding says why each engine did.
 */
function signedInReads(reads: CellRun[], context: FindingContext): Finding[] {
  const leaks = reads.filter(carried);
  const outcomes = FINDING_TEXTS.sessionOutcomes(sessionOutcomes(reads));
  if (leaks.length > 0) {
    const { severity, byCost } = gradeOf(leaks, SEVERITY_BY_COST.credentials);
    const text = FINDING_TEXTS['session-leak'];
    const body = leaks.find((run) => run.session?.body)?.session?.body;
    const engines = unique(leaks.map((run) => run.engine));
    const bodyText = body
      ? `${body.length} bytes, SHA-256 ${body.sha256.slice(0, 16)}…`
      : 'its body was not given back';
    return [
      finding({
        kind: 'session-leak',
        about: 'session',
        severity,
        title: text.title,
        detail: `${readDetail(text.detail(engines.join(', '), byCost, bodyText), leaks)} ${outcomes}`,
        origins: unique(leaks.map(originLabel)),
        engines,
        cells: unique(leaks.map((run) => run.cell.id)),
        fix: fixOf(context, 'exact-origins'),
        playground: playgroundLink(context.lab, 'hostile-read-credentials'),
      }),
    ];
  }
  const allWithheld = reads.every((run) => run.session?.cookieSent === false);
  const table = allWithheld ? SEVERITY_BY_COST.plain : SEVERITY_BY_COST.credentials;
  return [
    credentialedRead(reads, context, table, ` ${outcomes}${allWithheld ? ` ${FINDING_TEXTS.sessionWithheld}` : ''}`),
  ];
}

/**
 * --profile local: the rebinding page read the target's path from its own origin and the server
 * answered it (below 400): any site can read it, whatever its CORS says. Engines that Local
 * Network Access stopped are said apart: that is not the server refusing.
 */
function dnsRebinding({ runs, context }: RunFacts): Finding[] {
  const rebound = runs.filter((run) => run.origin.kind === 'rebinding' && run.couldNot === null);
  const read = rebound.filter((run) => run.readable && run.status !== null && run.status < 400);
  if (read.length === 0) return [];
  const stopped = rebound.filter((run) => !run.readable && run.reason?.rule === 'local-network-access');
  const statuses = unique(read.map((run) => run.status)).join(', ');
  const text = FINDING_TEXTS['dns-rebinding'];
  return [
    finding({
      kind: 'dns-rebinding',
      about: 'host',
      severity: 'high',
      title: text.title,
      detail: text.detail(
        originLabel(read[0]!),
        unique(read.map((run) => run.engine)),
        `a ${statuses} answer`,
        unique(stopped.map((run) => run.engine)),
      ),
      origins: unique(read.map(originLabel)),
      engines: unique(read.map((run) => run.engine)),
      cells: unique(read.map((run) => run.cell.id)),
      fix: fixOf(context, 'host-check'),
      playground: null,
    }),
  ];
}

/**
 * --profile mcp: your page read the answer to initialize, the server gave a session
 * (Mcp-Session-Id in the check's own answer), but script could not read it: a browser client
 * cannot send it back, and every step after initialize fails.
 */
function mcpSessionHidden({ runs, exchanges, context }: RunFacts): Finding[] {
  const given = exchanges.some(
    (record) => record.cell === 'mcp-initialize' && record.exchange.actual?.headers['mcp-session-id'],
  );
  const hidden = runs.filter(
    (run) =>
      run.origin.kind === 'yours' &&
      run.cell.id === 'mcp-initialize' &&
      run.readable &&
      !(run.visibleHeaders ?? []).includes('mcp-session-id'),
  );
  if (!given || hidden.length === 0) return [];
  const text = FINDING_TEXTS['mcp-session-hidden'];
  return [
    finding({
      kind: 'mcp-session-hidden',
      about: 'mcp-session-id',
      severity: 'medium',
      title: text.title,
      detail: text.detail,
      origins: unique(hidden.map(originLabel)),
      engines: unique(hidden.map((run) => run.engine)),
      cells: ['mcp-initialize'],
      fix: fixOf(context, 'expose-headers', { header: 'Mcp-Session-Id' }),
      playground: null,
    }),
  ];
}

/**
 * --profile mcp: the check's own initialize from an origin you did not name got an answer below
 * 400; the MCP specification asks for 403 to an Origin the server does not trust (what keeps a
 * rebound page, whose POST carries its Origin, out).
 */
function mcpOriginNotValidated({ runs, exchanges, context }: RunFacts): Finding[] {
  const hostile = new Set(runs.filter((run) => run.origin.kind !== 'yours').map((run) => run.origin.origin));
  const answered = exchanges.filter(
    (record) =>
      /initialize$/.test(record.cell) &&
      hostile.has(record.origin) &&
      record.exchange.actual !== undefined &&
      record.exchange.actual.status < 400,
  );
  if (answered.length === 0) return [];
  const statuses = unique(answered.map((record) => record.exchange.actual!.status)).join(', ');
  const text = FINDING_TEXTS['mcp-origin-not-validated'];
  return [
    finding({
      kind: 'mcp-origin-not-validated',
      about: 'origin',
      severity: 'medium',
      title: text.title,
      detail: text.detail(unique(answered.map((record) => record.origin)), statuses),
      origins: unique(answered.map((record) => record.origin)),
      engines: [],
      cells: unique(answered.map((record) => record.cell)),
      fix: fixOf(context, 'host-check'),
      playground: null,
    }),
  ];
}

/** A preflighted request of this run that the engine sent: its preflight was approved. */
export const preflightApproved = (run: CellRun) =>
  run.couldNot === null &&
  needsPreflight(run.cell.method, run.cell.headers) &&
  (run.readable || run.sent?.value === true);

/** A request that changes state, sent with credentials after its preflight was approved. */
export const writesAsUser = (run: CellRun) =>
  run.cell.credentials && !SAFE_METHODS.includes(run.cell.method) && preflightApproved(run);

/** One step above a read with credentials: the attacker changes things as the user. */
const WRITE_SEVERITY: Record<AttackerCost, Severity> = {
  'any-site': 'critical',
  position: 'high',
  'own-host': 'medium',
};

/**
 * Hostile origins whose preflight approved a method you named (--methods) with credentials: the
 * engine sent it with the user's cookies, whether or not the page could then read the answer.
 */
function hostileWrites({ runs, context }: RunFacts): Finding[] {
  const writes = runs.filter((run) => run.origin.kind !== 'yours' && writesAsUser(run));
  if (writes.length === 0) return [];
  const { severity, byCost } = gradeOf(writes, WRITE_SEVERITY);
  const methods = unique(writes.map((run) => run.cell.method));
  const text = FINDING_TEXTS['hostile-write'];
  return [
    finding({
      kind: 'hostile-write',
      about: methods.join(','),
      severity,
      title: text.title(methods),
      detail: text.detail(
        methods,
        byCost,
        writes.some((run) => run.readable),
      ),
      origins: unique(writes.map(originLabel)),
      engines: unique(writes.map((run) => run.engine)),
      cells: unique(writes.map((run) => run.cell.id)),
      fix: fixOf(context, 'exact-origins', { method: methods[0], preflight: true }),
      playground: playgroundLink(context.lab, 'hostile-write', { method: methods[0], preflight: true }),
    }),
  ];
}

/**
 * Hostile origins whose credentialed preflight (Authorization, a custom header, a JSON type) was
 * approved though they could not read with credentials: they send such requests as the user,
 * which defeats a custom-header CSRF check. Those that read are the read's finding.
 */
function hostilePreflights({ runs, credentialed, context }: RunFacts): Finding[] {
  const approved = runs.filter(
    (run) =>
      run.origin.kind !== 'yours' &&
      run.cell.id === 'preflight-credentials' &&
      preflightApproved(run) &&
      !credentialed.has(originLabel(run)),
  );
  if (approved.length === 0) return [];
  const { severity, byCost } = gradeOf(approved, SEVERITY_BY_COST.credentials);
  const text = FINDING_TEXTS['hostile-preflight'];
  return [
    finding({
      kind: 'hostile-preflight',
      about: 'preflight',
      severity,
      title: text.title,
      detail: text.detail(byCost),
      origins: unique(approved.map(originLabel)),
      engines: unique(approved.map((run) => run.engine)),
      cells: ['preflight-credentials'],
      fix: fixOf(context, 'exact-origins', { header: 'Authorization', preflight: true }),
      playground: playgroundLink(context.lab, 'hostile-preflight'),
    }),
  ];
}

/**
 * Whether a read's answer was Access-Control-Allow-Origin: * (every origin reads those by design),
 * for its origin at the URL it asked.
 */
function starredAnswers(exchanges: readonly ExchangeRecord[]): (run: CellRun) => boolean {
  const starred = new Set(
    exchanges
      .filter((record) => record.exchange.actual?.headers['access-control-allow-origin'] === '*')
      .map((record) => `${record.origin} ${record.url ?? ''}`),
  );
  return (run) => starred.has(`${run.origin.origin} ${run.cell.url ?? ''}`);
}

/** "null" read without credentials (with them it is hostileReadsWithCredentials'); not where * let everyone in. */
function nullTrusted({ hostileReads, credentialed, exchanges, context }: RunFacts): Finding[] {
  const starred = starredAnswers(exchanges);
  const reads = hostileReads.filter(
    (run) => run.origin.kind === 'null' && !credentialed.has(originLabel(run)) && !starred(run),
  );
  if (reads.length === 0) return [];
  const text = FINDING_TEXTS['null-trusted'];
  return [
    finding({
      kind: 'null-trusted',
      about: 'null',
      severity: 'medium',
      title: text.title,
      detail: readDetail(text.detail, reads),
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
  const starred = starredAnswers(exchanges);
  const named = hostileReads.filter(
    (run) => run.origin.kind !== 'null' && !credentialed.has(originLabel(run)) && !starred(run),
  );
  if (named.length === 0) return [];
  const { severity, byCost } = gradeOf(named, SEVERITY_BY_COST.plain);
  const text = FINDING_TEXTS['hostile-read'];
  return [
    finding({
      kind: 'hostile-read',
      about: 'origins',
      severity,
      title: text.title,
      detail: readDetail(text.detail(byCost, unique(named.map((run) => run.origin.kind))), named),
      origins: unique(named.map(originLabel)),
      engines: unique(named.map((run) => run.engine)),
      cells: unique(named.map((run) => run.cell.id)),
      fix: fixOf(context, 'exact-origins'),
      playground: playgroundLink(context.lab, 'hostile-read'),
    }),
  ];
}

/**
 * An answer that depends on the Origin (different origins got different Allow-Origin values from
 * one URL) without saying so in Vary: low, since only a shared cache in between can hand one
 * origin's answer to another. One fixed Allow-Origin for every request depends on nothing.
 */
function missingVary({ answers, context }: RunFacts): Finding[] {
  const byUrl = new Map<string, ExchangeRecord[]>();
  for (const record of answers) byUrl.set(record.url ?? '', [...(byUrl.get(record.url ?? '') ?? []), record]);
  const unvaried = [...byUrl.values()]
    .filter((group) => new Set(group.map((record) => allowOriginOf(record) ?? '')).size > 1)
    .flatMap((group) => group.filter((record) => !variesByOrigin(record.exchange.actual!)));
  if (unvaried.length === 0) return [];
  const permission = unvaried.find((record) => allowOriginOf(record) !== undefined && allowOriginOf(record) !== '*');
  const text = FINDING_TEXTS['missing-vary'];
  return [
    finding({
      kind: 'missing-vary',
      about: 'vary',
      severity: 'low',
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
 * A read of your origin's at an error answer's URL (--also-url) that an engine refused by a CORS
 * rule, where it read the same request to the target: the CORS headers come on success only.
 */
function unreadableErrorAnswer(run: CellRun, runs: readonly CellRun[]): boolean {
  const { reason } = run;
  return (
    run.origin.kind === 'yours' &&
    run.cell.sameAs !== undefined &&
    run.couldNot === null &&
    !run.readable &&
    reason !== null &&
    !(NOT_CORS as readonly string[]).includes(reason.rule) &&
    runs.some(
      (other) =>
        other.engine === run.engine &&
        other.origin === run.origin &&
        other.cell.id === run.cell.sameAs &&
        other.readable,
    )
  );
}

/**
 * Error answers (--also-url) your origins cannot read though they read the target: one finding
 * per URL. The page gets a network error in place of the status; the fix is the order of the
 * server's middlewares, and the playground case the rule that refused it.
 */
function errorAnswersUnreadable({ runs, exchanges, context }: RunFacts): Finding[] {
  const byUrl = new Map<string, CellRun[]>();
  for (const run of runs.filter((r) => unreadableErrorAnswer(r, runs)))
    byUrl.set(run.cell.url!, [...(byUrl.get(run.cell.url!) ?? []), run]);
  const text = FINDING_TEXTS['error-answer-unreadable'];
  return [...byUrl].map(([url, group]) => {
    const reason = group[0]!.reason!;
    const statuses = unique(group.map((run) => statusOf(run, exchanges))).filter((s): s is number => s !== null);
    const origins = unique(group.map((run) => run.origin.origin));
    return finding({
      kind: 'error-answer-unreadable',
      about: url,
      severity: 'low',
      title: text.title(url, statuses),
      detail: text.detail(origins, statuses, reason.text),
      origins,
      engines: unique(group.map((run) => run.engine)),
      cells: unique(group.map((run) => run.cell.id)),
      url,
      reason,
      fix: fixOf(context, 'cors-on-errors'),
      playground:
        reason.rule in FIX_FOR_REFUSAL
          ? playgroundLink(context.lab, reason.rule as keyof typeof FIX_FOR_REFUSAL)
          : null,
    });
  });
}

/**
 * Your origins' requests that an engine refused: one finding per request and reason. A repeat
 * whose first request was refused adds nothing: it is left out, as is an error answer the
 * finding above says.
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
    (run) =>
      run.origin.kind === 'yours' &&
      !run.readable &&
      run.reason &&
      !refusedFirst(run) &&
      !unreadableErrorAnswer(run, runs),
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
  const forbidden = runs.filter(
    (run) => run.origin.kind === 'yours' && !SAFE_METHODS.includes(run.cell.method) && statusOf(run, exchanges) === 403,
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

/**
 * Requests read in one engine and refused in another, one finding per pattern (which engines read,
 * which refused and why): a run against an http:// target from https pages has dozens of requests
 * WebKit refuses as mixed content, one difference said once.
 */
function enginesDiffer({ runs }: RunFacts): Finding[] {
  const byCell = new Map<string, CellRun[]>();
  for (const run of runs.filter((r) => r.couldNot === null)) {
    const key = `${originLabel(run)} ${run.cell.id}`;
    byCell.set(key, [...(byCell.get(key) ?? []), run]);
  }
  const text = FINDING_TEXTS['engines-differ'];
  const patterns = new Map<
    string,
    { read: string[]; refused: { engine: string; why: string }[]; groups: CellRun[][] }
  >();
  for (const group of byCell.values()) {
    const read = group.filter((run) => run.readable).map((run) => run.engine);
    if (read.length === 0 || read.length === group.length) continue;
    const refused = group
      .filter((run) => !run.readable)
      .map((run) => ({ engine: run.engine, why: run.reason?.text ?? run.rejection ?? text.noReason }));
    const key = `${read.join(',')}|${refused.map(({ engine, why }) => `${engine}:${why}`).join('|')}`;
    const pattern = patterns.get(key) ?? { read, refused, groups: [] };
    pattern.groups.push(group);
    patterns.set(key, pattern);
  }
  return [...patterns.values()].map(({ read, refused, groups }) => {
    const requests = groups.map((group) => `${originLabel(group[0]!)}, ${group[0]!.cell.title}`);
    return finding({
      kind: 'engines-differ',
      about: `${read.join(',')}:${refused.map(({ engine }) => engine).join(',')}:${requests[0]}`,
      severity: 'info',
      title: requests.length === 1 ? text.title(requests[0]!) : text.titleMany(requests.length),
      detail: `${text.detail(read, refused)}${requests.length > 1 ? ` ${text.requests(requests)}` : ''}`,
      origins: unique(groups.map((group) => originLabel(group[0]!))),
      engines: unique(groups.flatMap((group) => group.map((run) => run.engine))),
      cells: unique(groups.map((group) => group[0]!.cell.id)),
      fix: null,
      playground: null,
    });
  });
}

/** Whether any finding is at or above the threshold. */
export function failsAt(findings: readonly Finding[], threshold: Severity | 'never'): boolean {
  return (
    threshold !== 'never' && findings.some((finding) => SEVERITY_ORDER[finding.severity] >= SEVERITY_ORDER[threshold])
  );
}
