/**
 * `origin-lab check`: reads the options (and the expectations file), plans the run, runs it in
 * the engines, grades what happened and writes the report where it was asked for.
 */
import { lookup } from 'node:dns/promises';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { dirname } from 'node:path';
import { rootCertificates } from 'node:tls';
import { isLocalAddress } from '@origin-lab/cors-rules';
import { STACK_NAMES, type Stack } from '@origin-lab/cors-rules/advice';
import { helpText } from '../options.js';
import { chooseEngines, enginesToFind, programsOf } from '../drivers/launch.js';
import { discoverEngines } from '../engines/engines-command.js';
import type { EngineName } from '../drivers/driver.js';
import { colorEnabled, CommandError, EXIT, painter, Progress, type CommandIO, type Paint } from '../terminal.js';
import { fileErrorWords, makeFolder, readUserFile } from '../user-file.js';
import { compareRuns, readBaseline } from './baseline.js';
import { CHECK_COMMAND, readCheckOptions, type CheckOptions } from './check-options.js';
import { checkExpectations, expectedCells, readExpectations, type Expectations } from './expectations.js';
import { failsAt, findingsOf, SEVERITY_ORDER } from './findings.js';
import { notTriedOf } from './not-tried.js';
import { hostileOrigins, REBINDING_HOST, rebindingOrigin, yourOrigins, type TriedOrigin } from './origins.js';
import { proofCases, writeProofs } from './proof.js';
import { shownCell, toJson, toJunit, toSarif, writesOf, type CheckReport } from './report.js';
import { planRun, runCheck, type ExchangeRecord } from './run-check.js';
import type { Cell } from './cells.js';
import { cookieHeaderFor, readSession, SESSION_LIMITS, SessionError } from './session-file.js';
import { renderReport } from './terminal-report.js';
import { toMarkdown } from './markdown-report.js';

/** Runs the command; resolves with its exit code (a CommandError's own, for bad usage). */
export async function checkCommand(argv: readonly string[], io: CommandIO): Promise<number> {
  const options = readCheckOptions(argv);
  if (options.help) {
    io.stdout.write(`${helpText(CHECK_COMMAND)}\n`);
    return EXIT.ok;
  }
  prepareOutputs(options);
  const expectations = options.expectFile ? readExpectations(options.expectFile) : null;
  // Read before any engine starts: a bad earlier report stops the run at once.
  const earlier = options.baselineFile ? readBaseline(options.baselineFile, options.target) : null;
  const session = options.sessionFile ? loadSession(options.sessionFile, options.target) : null;
  const from = [...new Set([...options.from, ...(expectations?.allow.map((entry) => entry.origin) ?? [])])];
  if (from.length === 0)
    throw new CommandError(
      'check needs at least one --from origin (or an expectations file naming one): the origin of your pages',
    );
  // The first engine of each family is what check runs: the others are not asked their version,
  // nor is any family it will not start. Asking is a step like any other, bounded by --timeout.
  const connected = Object.keys(options.connect) as EngineName[];
  const discovery = await discoverEngines({
    named: options.browsers,
    others: false,
    versionTimeoutMs: options.timeoutMs,
    families: enginesToFind(options.engines, connected, options.browsers),
  });
  const engines = chooseEngines(options.engines, connected, discovery);
  const progress = new Progress(io.stderr, options.quiet);
  const paint = painter(colorEnabled(options.color, tableStream(options, io)));

  // Methods other than GET, the options' and the expectations': sent for real, from every origin.
  const methods = [
    ...new Set([...options.methods, ...(expectations?.allow.flatMap((entry) => entry.methods) ?? [])]),
  ].filter((method) => method !== 'GET');
  if (methods.length > 0)
    progress.note(
      paint(
        'yellow',
        `warning: ${methods.join(', ')} requests reach ${options.target.host} for real, from every engine and origin`,
      ),
    );
  const rebinding =
    options.profile === 'cors' ? null : await rebindingFor(options.target, options.profile, progress, paint);
  if (options.profile === 'mcp')
    progress.note(
      paint(
        'yellow',
        `warning: --profile mcp sends the MCP handshake (initialize, tools/list, DELETE of the session) to ${options.target.host} for real, from every engine`,
      ),
    );
  const tried = [...triedOrigins(from, options, expectations), ...(rebinding ? [rebindingOrigin(options.target)] : [])];
  const plan = planRun(
    options.target,
    tried,
    { ...options, methods },
    expectations ? expectedCells(expectations) : [],
    rebinding,
  );

  const startedAt = new Date();
  const result = await runCheck(plan, {
    engines,
    timeoutMs: options.timeoutMs,
    delayMs: options.delayMs,
    pagesAtOnce: options.pagesAtOnce,
    connect: options.connect,
    programs: programsOf(discovery),
    maxRequests: options.maxRequests,
    localNetwork: options.localNetwork,
    progress,
    session,
    trust: options.ca ? trustAuthorities(options.ca) : [],
  });
  const report = reportOf(result, {
    options,
    version: io.version,
    from,
    tried,
    plan,
    expectations,
    earlier,
    session,
    startedAt,
  });
  publish(report, options, io, paint);
  return report.exitCode;
}

/** What a run is graded against: the options and files read before it, and its plan. */
interface RunContext {
  options: CheckOptions;
  version: string;
  from: string[];
  tried: TriedOrigin[];
  plan: ReturnType<typeof planRun>;
  expectations: Expectations | null;
  earlier: ReturnType<typeof readBaseline> | null;
  session: ReturnType<typeof loadSession> | null;
  startedAt: Date;
}

/**
 * The report of a run: its findings, the expectations and the earlier run compared, the exit code
 * they make, the proof pages written; the headers you gave shown without their values.
 */
function reportOf(result: Awaited<ReturnType<typeof runCheck>>, run: RunContext): CheckReport {
  const { options, plan, tried, expectations, session, startedAt } = run;
  const findings = findingsOf(result.runs, result.exchanges, { yours: run.from, lab: options.lab });
  const expectationResults = expectations ? checkExpectations(expectations, result.runs) : null;
  const now = { target: options.target.href, startedAt: null, engines: result.engines, results: result.runs };
  const baseline = run.earlier ? compareRuns(run.earlier, now, expectations) : null;
  const failed =
    failsAt(findings, options.failOn) ||
    (expectationResults?.some((r) => !r.holds) ?? false) ||
    (baseline?.gained.some((gain) => gain.fails) ?? false);
  const notTried = notTriedOf(result.runs);
  const shown = (cell: Cell) => shownCell(cell, options.givenHeaders);
  const allCells = [
    ...new Map(tried.flatMap((origin) => plan.cellsFor(origin)).map((cell) => [cell.id, shown(cell)])).values(),
  ];
  const runs = result.runs.map((cellRun) => ({ ...cellRun, cell: shown(cellRun.cell) }));
  const meta = { version: run.version, target: options.target.href, startedAt: startedAt.toISOString() };
  return {
    tool: 'origin-lab check',
    ...meta,
    durationMs: Date.now() - startedAt.getTime(),
    engines: result.engines,
    origins: tried,
    cells: allCells,
    results: runs,
    exchanges: result.exchanges,
    findings,
    notTried,
    expectations: expectationResults,
    stack: chooseStack(options, result.exchanges),
    lab: { url: options.lab, chosenBy: options.labGiven ? 'option' : 'default' },
    requests: result.requests,
    writes: writesOf(result.runs),
    exitCode: failed ? EXIT.findings : notTried.length > 0 ? EXIT.incomplete : EXIT.ok,
    baseline,
    session: session && { cookies: [...new Set(session.cookies.map((cookie) => cookie.name))] },
    proofs: options.proof ? writeProofs(options.proof, proofCases(findings, runs, result.engines, meta)) : null,
  };
}

/**
 * --session: the file's cookies for the target and the Cookie header they make. The file is
 * measured before it is read; what is wrong with it is said without any of its values.
 */
function loadSession(file: string, target: URL) {
  const text = readUserFile(file, `--session ${file}`, '--session', SESSION_LIMITS.maxBytes);
  try {
    const { cookies } = readSession(text, target);
    return { cookies, header: cookieHeaderFor(cookies, target) ?? '' };
  } catch (err) {
    if (err instanceof SessionError) throw new CommandError(`--session ${file}: ${(err as Error).message}`);
    throw err;
  }
}

/**
 * --profile local (and mcp, where the server is local): the target must be on this machine or a private network; its address is where
 * the rebinding name will point. Over https a rebound name fails the certificate (it names your
 * host): said, and the rebinding attempt left out.
 */
async function rebindingFor(target: URL, profile: 'local' | 'mcp', progress: Progress, paint: Paint) {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const found = await lookup(host, { all: true }).catch(() => []);
  if (found.length === 0) throw new CommandError(`--profile local: ${target.hostname} does not resolve`);
  const public_ = found.find(({ address }) => !isLocalAddress(address));
  // An MCP endpoint on the web: no rebinding to try (its name is its own).
  if (public_ && profile === 'mcp') return null;
  if (public_)
    throw new CommandError(
      `--profile local is for a server on this machine or a private network: ${target.hostname} is at ${public_.address}`,
    );
  if (target.protocol === 'https:') {
    progress.note(
      paint(
        'dim',
        'an https target: DNS rebinding cannot reach it (its certificate names your host, not the attacker’s)',
      ),
    );
    return null;
  }
  const address = (found.find(({ family }) => family === 4) ?? found[0]!).address;
  return { host: REBINDING_HOST, address };
}

/**
 * --ca: a PEM file of certificate authorities to trust beside the system's, in the check's own
 * requests and in every engine (Chromium and Firefox take it into their NSS databases, which needs
 * certutil; WebKit is given each https host's certificate once Node has checked it).
 */
function trustAuthorities(file: string): string[] {
  const pems =
    readUserFile(file, `--ca ${file}`, '--ca', 1_048_576).match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    ) ?? [];
  if (pems.length === 0) throw new CommandError(`--ca ${file}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it`);
  if (pems.length > 1)
    throw new CommandError(
      `--ca ${file}: ${pems.length} certificates; give the one authority the engines are to trust`,
    );
  const certutil = spawnSync('certutil', ['-H'], { stdio: 'ignore', timeout: 10_000 });
  if (certutil.error)
    throw new CommandError(
      `--ca needs certutil to give the authority to Chromium and Firefox (Debian and Ubuntu: apt-get install libnss3-tools)`,
    );
  // The check's own requests (https.request and tls.connect use the global agent's options).
  https.globalAgent.options.ca = [...rootCertificates, ...pems];
  return [file];
}

/** Your origins, then the attacker origins of the classes asked for (the expectations' first), none of them yours. */
function triedOrigins(from: string[], options: CheckOptions, expectations: Expectations | null): TriedOrigin[] {
  const listed = [...options.alsoHostile, ...(expectations?.alsoHostile ?? [])];
  const hostile = hostileOrigins(from[0]!, expectations?.hostile ?? options.hostile, listed);
  return [...yourOrigins(from), ...hostile.filter((origin) => !from.includes(origin.origin))];
}

/** Writes the report in every format asked for; the table goes to standard error when a report takes standard output. */
function publish(report: CheckReport, options: CheckOptions, io: CommandIO, paint: Paint): void {
  const failOn = (finding: { severity: keyof typeof SEVERITY_ORDER }) =>
    options.failOn !== 'never' && SEVERITY_ORDER[finding.severity] >= SEVERITY_ORDER[options.failOn];
  write(options.json, toJson(report), io);
  write(options.junit, toJunit(report, failOn), io);
  write(options.sarif, toSarif(report, options.sarifMin), io);
  write(options.markdown, toMarkdown(report), io);
  tableStream(options, io).write(renderReport(report, paint));
}

/** Where the table goes: standard error when a report takes standard output. */
const tableStream = (options: CheckOptions, io: CommandIO) =>
  [options.json, options.junit, options.sarif, options.markdown].includes('-') ? io.stderr : io.stdout;

/**
 * The report files' folders (and --proof's), made where missing and found writable before any
 * engine starts: a run of a minute must not end in "cannot write".
 */
function prepareOutputs(options: CheckOptions): void {
  const files = [options.json, options.junit, options.sarif, options.markdown].filter(
    (file): file is string => file !== null && file !== '-',
  );
  const places = [
    ...files.map((file) => ({ folder: dirname(file), file, bad: `cannot write ${file}` })),
    ...(options.proof
      ? [{ folder: options.proof, file: null, bad: `--proof ${options.proof}: cannot write there` }]
      : []),
  ];
  for (const { folder, file, bad } of places) {
    try {
      makeFolder(folder);
      accessSync(folder, constants.W_OK);
    } catch (err) {
      throw new CommandError(`${bad} (${fileErrorWords(err)})`);
    }
    if (file && statSync(file, { throwIfNoEntry: false })?.isDirectory())
      throw new CommandError(`${bad}: a folder is there`);
  }
}

function write(file: string | null, text: string, io: CommandIO): void {
  if (file === null) return;
  if (file === '-') {
    io.stdout.write(text);
    return;
  }
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new CommandError(`cannot write ${file} (${fileErrorWords(err)})`);
  }
}

/** The stack to show fixes for: the one asked for, else one the answers name (Server, X-Powered-By). */
function chooseStack(options: CheckOptions, exchanges: readonly ExchangeRecord[]): CheckReport['stack'] {
  if (options.stack) return { name: options.stack, label: STACK_NAMES[options.stack], chosenBy: 'option' };
  const headers = exchanges.flatMap((record) => [record.exchange.actual?.headers, record.exchange.preflight?.headers]);
  const clues: [RegExp, string, Stack][] = [
    [/^express$/i, 'x-powered-by', 'express'],
    [/kestrel/i, 'server', 'aspnet'],
    [/^nginx/i, 'server', 'nginx'],
    [/^caddy/i, 'server', 'caddy'],
  ];
  for (const [pattern, header, name] of clues) {
    const seen = headers.find((h) => h?.[header] !== undefined && pattern.test(h[header]!));
    if (seen) return { name, label: STACK_NAMES[name], chosenBy: `${header}: ${seen[header]}` };
  }
  return null;
}

export type { Expectations };
