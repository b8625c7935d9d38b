/**
 * One run of `check`: the check's own exchanges first (they also tell whether the target can be
 * reached at all), then every engine in parallel, each loading the probe page at the tried
 * origins (a few at once, --pages) and sending each origin's cells one after the other. Every wait is bounded;
 * every engine started is closed, also when the run fails.
 */
import {
  blocksAsLocalNetwork,
  blocksAsMixedContent,
  isLocalAddress,
  needsPreflight,
  normalizeMethod,
  preflightCacheCapSeconds,
  preflightCacheDefaultSeconds,
  refusalOf,
  unsafeHeaderNames,
  type Exchange,
  type Refusal,
} from '@origin-lab/cors-rules';
import { readConsoleMessage } from '@origin-lab/cors-rules/explain';
import { lookup } from 'node:dns/promises';
import pLimit from 'p-limit';
import { startDriver } from '../drivers/launch.js';
import type {
  DriverLaunch,
  EngineName,
  EngineReport,
  OriginPage,
  ProbeDriver,
  SessionCookieSpec,
} from '../drivers/driver.js';
import type { ProbeResult } from '../drivers/probe-page.js';
import { CommandError, type Progress } from '../terminal.js';
import type { Cell } from './cells.js';
import {
  alsoUrlCells,
  hostileCells,
  MCP_INITIALIZE,
  mcpCells,
  REBINDING_CELL,
  yourCells,
  type MatrixOptions,
} from './cells.js';
import { ATTACKER_SITE, type TriedOrigin } from './origins.js';
import { isUnreachable, replay, type Replayed } from './replay.js';
import { sessionAnswers, sessionRead, type SessionAnswers, type SessionRead } from './session-outcome.js';

/** Where a fact came from: the engine itself, what the page's script saw, or the rules reading the check's own exchange. */
export type Source = 'engine' | 'page' | 'rules';

/** Refusals that are not CORS: the engine stopped the request for another reason. */
export const NOT_CORS = ['mixed-content', 'local-network-access', 'timeout', 'network'] as const;
export type NotCors = (typeof NOT_CORS)[number];

/** Mixed content and Local Network Access stop a request before it leaves, preflight and all: CORS is never asked. */
export const stoppedBeforeSending = (reason: Pick<Reason, 'rule'> | null) =>
  reason !== null && (reason.rule === 'mixed-content' || reason.rule === 'local-network-access');

export interface Reason {
  /** The Fetch rule (refusal.ts) or the kind of refusal that is not CORS. */
  rule: Refusal['rule'] | NotCors | 'engine-only';
  text: string;
  source: Source;
  /** The engine's own words, when it gave them. */
  engineWords: string | null;
  /** For a Fetch rule: which answer failed it, the preflight's or the request's own. */
  stage?: Refusal['stage'];
}

export interface CellRun {
  engine: EngineName;
  origin: TriedOrigin;
  cell: Cell;
  /** The origin the engine's page was at (location.origin; "null" in a frame or worker). */
  ranAt: string | null;
  /** Why the engine could not be this origin, or could not make the frame or worker. */
  couldNot: string | null;
  readable: boolean;
  status: number | null;
  visibleHeaders: string[] | null;
  /** What script got instead of an answer (the rejection or XHR error). */
  rejection: string | null;
  redirected: boolean;
  finalUrl: string | null;
  preflight: { sent: boolean; status: number | null; source: Source } | null;
  sent: { value: boolean; source: Source } | null;
  /** For the repeat of a preflighted request: whether the engine kept the preflight's answer. */
  preflightKept: { kept: boolean; seconds: number | null; source: Source } | null;
  reason: Reason | null;
  /** With a session (--session), for a credentialed GET: whether its cookies went out and the signed-in answer was read. */
  session?: SessionRead;
}

export interface ExchangeRecord {
  origin: string;
  cell: string;
  /** The URL asked, when not the target: an error answer's (--also-url). */
  url?: string;
  exchange: Exchange;
  redirectedTo: string | null;
}

/** What a run sends, fixed once planRun has made it. */
export interface RunPlan {
  readonly target: URL;
  readonly origins: TriedOrigin[];
  readonly cellsFor: (origin: TriedOrigin) => Cell[];
  /** --profile local: the rebinding name and the address it stands for (the target's). */
  readonly rebinding: { host: string; address: string } | null;
}

export interface EngineInfo {
  name: EngineName;
  label: string;
  version: string;
  /** The program that ran (as found: origin-lab engines), or the browser server it connected to. */
  program: string;
}

export interface RunResult {
  engines: EngineInfo[];
  runs: CellRun[];
  exchanges: ExchangeRecord[];
  requests: number;
}

export interface RunOptions {
  engines: EngineName[];
  timeoutMs: number;
  delayMs: number;
  maxRequests: number;
  localNetwork: 'grant' | 'deny' | 'public';
  /** Engines already running as Playwright browser servers (--connect). */
  connect: DriverLaunch['connect'];
  /** The program each engine runs, where it was found. */
  programs: DriverLaunch['programs'];
  /** How many origins one engine may have open at once (each engine caps it: ProbeDriver.pagesAtOnce). */
  pagesAtOnce: number;
  progress: Progress;
  /** The user's signed-in session (--session): its cookies for the target, and their Cookie header. */
  session: { cookies: readonly SessionCookieSpec[]; header: string } | null;
  /** Certificate authorities the engines trust beside the system's (--ca). */
  trust: readonly string[];
}

/** A credentialed GET: the read a session's cookies ride on. */
const readsAsUser = (cell: Cell) => cell.credentials && cell.method === 'GET';

/**
 * The cells of each origin: yours get the whole matrix and then the expectation file's own
 * requests (expected), a hostile one its reads, preflight and methods; then each origin's reads
 * again, to every URL of an error answer (--also-url).
 */
export function planRun(
  target: URL,
  origins: TriedOrigin[],
  matrix: MatrixOptions,
  expected: readonly Cell[] = [],
  rebinding: RunPlan['rebinding'] = null,
): RunPlan {
  const withErrorAnswers = (cells: Cell[]) => [...cells, ...alsoUrlCells(matrix.alsoUrls ?? [], cells, target)];
  // An MCP endpoint (--profile mcp): your origins make the handshake, an attacker's and the
  // rebinding page its first step.
  const mcp = matrix.profile === 'mcp';
  const yours = mcp ? [...mcpCells(), ...expected] : withErrorAnswers([...yourCells(matrix), ...expected]);
  const hostile = mcp ? [MCP_INITIALIZE] : withErrorAnswers(hostileCells(matrix));
  const rebound = mcp ? { ...MCP_INITIALIZE, id: 'rebinding-initialize', sameOrigin: true as const } : REBINDING_CELL;
  const cellsFor = (origin: TriedOrigin) =>
    origin.kind === 'yours' ? yours : origin.kind === 'rebinding' ? [rebound] : hostile;
  return { target, origins, cellsFor, rebinding };
}

/** Where a cell's request goes: its own URL (--also-url), the page's own origin (rebinding), else the run's target. */
const urlOf = (cell: Cell, target: URL, origin: TriedOrigin): URL =>
  cell.sameOrigin
    ? new URL(`${target.pathname}${target.search}`, origin.origin)
    : cell.url === undefined
      ? target
      : new URL(cell.url);

/** Every URL a plan sends to: the target first, then the error answers' (--also-url); not the rebinding name. */
function urlsOf(plan: RunPlan): URL[] {
  const urls = new Map([[plan.target.href, plan.target]]);
  for (const origin of plan.origins)
    for (const cell of plan.cellsFor(origin)) if (cell.url !== undefined) urls.set(cell.url, new URL(cell.url));
  return [...urls.values()];
}

/** The requests a plan sends at most: one per cell and engine, two where a preflight goes out, and the check's own. */
export function plannedRequests(plan: RunPlan, engines: number): number {
  let total = 0;
  for (const origin of plan.origins)
    for (const cell of plan.cellsFor(origin)) {
      const preflight = needsPreflight(cell.method, cell.headers) ? 1 : 0;
      total += engines * (1 + preflight) + preflight + (cell.method === 'GET' || cell.mcp ? 1 : 0);
    }
  return total;
}

/** A URL's addresses as ip:port (Chromium's address-space switch takes them so). */
async function addressesOf(url: URL): Promise<string[]> {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const found = await lookup(url.hostname.replace(/^\[|\]$/g, ''), { all: true }).catch(() => []);
  return found.map(({ address, family }) => `${family === 6 ? `[${address}]` : address}:${port}`);
}

/**
 * Where the run's requests go, and the addresses of each URL: Local Network Access applies to a
 * URL on this machine or a private network, unless Chromium was told it is public
 * (--local-network public).
 */
async function sceneOf(plan: RunPlan, localNetwork: RunOptions['localNetwork']) {
  const byUrl = await Promise.all(urlsOf(plan).map(async (url) => ({ url, addresses: await addressesOf(url) })));
  const isLocal = (addresses: string[]) =>
    localNetwork !== 'public' &&
    addresses.some((address) => isLocalAddress(address.slice(0, address.lastIndexOf(':'))));
  const scene: Scene = {
    target: plan.target,
    localHosts: new Set(byUrl.filter(({ addresses }) => isLocal(addresses)).map(({ url }) => url.host)),
    userAllows: localNetwork === 'grant',
  };
  return { scene, addresses: [...new Set(byUrl.flatMap(({ addresses }) => addresses))] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A --connect address as a report names it: its scheme, host and port. The path of a browser
 * server's address is what lets anyone drive that browser, so it is never written out.
 */
function connectedTo(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const url = new URL(address);
  return `${url.protocol}//${url.host}/…`;
}

/** The page that hosts an opaque origin's frame or worker: an arbitrary site of the same scheme. */
function hostPage(origin: TriedOrigin, target: URL): string {
  if (origin.context === 'page') return origin.origin;
  return `${target.protocol === 'https:' ? 'https' : 'http'}://${ATTACKER_SITE}`;
}

export async function runCheck(plan: RunPlan, options: RunOptions): Promise<RunResult> {
  const budget = plannedRequests(plan, options.engines.length);
  if (budget > options.maxRequests)
    throw new CommandError(
      `this run would send up to ${budget} requests, over --max-requests ${options.maxRequests}: raise it, or try fewer origins (--hostile), methods or engines`,
    );
  const own = await askItself(plan, options);
  const { scene, addresses } = await sceneOf(plan, options.localNetwork);
  const progress = {
    done: 0,
    total: options.engines.length * plan.origins.reduce((sum, o) => sum + plan.cellsFor(o).length, 0),
  };
  const launch: DriverLaunch = {
    origins: [...new Set(plan.origins.map((origin) => hostPage(origin, plan.target)))],
    timeoutMs: options.timeoutMs,
    localNetwork: options.localNetwork,
    targetAddresses: addresses,
    connect: options.connect,
    programs: options.programs,
    session: options.session && { url: plan.target.href, cookies: options.session.cookies },
    trust: options.trust,
    urls: urlsOf(plan).map((url) => url.href),
    resolve: plan.rebinding ? { [plan.rebinding.host]: plan.rebinding.address } : {},
  };
  const started: ProbeDriver[] = [];
  const runs: CellRun[] = [];
  let requests = own.requests;
  const runEngine = async (name: EngineName): Promise<CellRun[]> => {
    options.progress.update(
      progress.done,
      progress.total,
      `${options.connect[name] ? 'connecting to' : 'starting'} ${name}`,
    );
    const engine = await startDriver(name, launch);
    started.push(engine);
    const run = new EngineRun(engine, plan, own, options, progress, scene);
    // A few origins at once; the results keep the origins' order, whichever page loaded first.
    const limit = pLimit(Math.min(options.pagesAtOnce, engine.pagesAtOnce));
    const perOrigin = await Promise.all(plan.origins.map((origin) => limit(() => run.origin(origin))));
    requests += run.requests;
    return perOrigin.flat();
  };
  try {
    // Every engine runs to its end (or its failure) before any is closed.
    const settled = await Promise.allSettled(options.engines.map(runEngine));
    const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    for (const outcome of settled) if (outcome.status === 'fulfilled') runs.push(...outcome.value);
  } finally {
    await Promise.all(started.map((engine) => engine.close()));
    options.progress.done();
  }
  return {
    engines: started
      .map((engine) => ({
        name: engine.name,
        label: engine.label,
        version: engine.version,
        program: connectedTo(options.connect[engine.name]) ?? options.programs[engine.name]?.path ?? '',
      }))
      .sort((a, b) => options.engines.indexOf(a.name) - options.engines.indexOf(b.name)),
    runs,
    exchanges: own.exchanges,
    requests,
  };
}

/**
 * The check's own exchanges: each origin's cells, one after the other, each to its URL (the first
 * also tells whether the target answers at all). The engines' runs are judged against these.
 */
async function askItself(plan: RunPlan, options: RunOptions) {
  const exchanges: ExchangeRecord[] = [];
  const seen = new Map<string, Replayed>();
  let requests = 0;
  for (const origin of plan.origins) {
    const from = origin.context === 'page' ? origin.origin : 'null';
    const state = {};
    for (const cell of plan.cellsFor(origin)) {
      const key = `${from} ${cell.id}`;
      if (seen.has(key)) continue;
      options.progress.update(
        exchanges.length,
        0,
        `asking ${plan.target.host} itself, as each origin`,
        `${from}: ${cell.title}`,
      );
      const url = urlOf(cell, plan.target, origin);
      const address = cell.sameOrigin && plan.rebinding?.address;
      const replayed = await replay(url, from, cell, options.timeoutMs, address || undefined, state);
      if (isUnreachable(replayed))
        throw new CommandError(`${cell.url ? '--also-url ' : ''}${url.href} cannot be reached: ${replayed.message}`);
      requests += replayed.requests;
      seen.set(key, replayed);
      exchanges.push({
        origin: from,
        cell: cell.id,
        ...(cell.url !== undefined && { url: cell.url }),
        exchange: replayed.exchange,
        redirectedTo: replayed.redirectedTo,
      });
      if (options.delayMs > 0) await sleep(options.delayMs);
    }
  }
  const signedIn = new Map<string, SessionAnswers>();
  if (options.session)
    for (const url of urlsOf(plan)) {
      options.progress.update(exchanges.length, 0, `asking ${url.host} itself, signed in and signed out`);
      const answers = await sessionAnswers(url, options.session.header, options.timeoutMs);
      if (isUnreachable(answers)) throw new CommandError(`${url.href} cannot be reached: ${answers.message}`);
      requests += 2;
      signedIn.set(url.href, answers);
    }
  return { exchanges, seen, requests, signedIn };
}

/** One engine's part of the run: each origin's page, and its cells sent one after the other. */
class EngineRun {
  requests = 0;

  constructor(
    private readonly engine: ProbeDriver,
    private readonly plan: RunPlan,
    private readonly own: { seen: ReadonlyMap<string, Replayed>; signedIn: ReadonlyMap<string, SessionAnswers> },
    private readonly options: RunOptions,
    private readonly progress: { done: number; total: number },
    private readonly scene: Scene,
  ) {}

  async origin(origin: TriedOrigin): Promise<CellRun[]> {
    const { engine, plan, options, progress } = this;
    const cells = plan.cellsFor(origin);
    const where = `${engine.label}: ${origin.context === 'page' ? origin.origin : `null (${origin.context})`}`;
    options.progress.update(progress.done, progress.total, where);
    const page = await engine.openOrigin(hostPage(origin, plan.target)).catch((err: unknown) => ({
      refused: `the engine failed to load it: ${firstLine(err)}`,
    }));
    if ('refused' in page) {
      progress.done += cells.length;
      return cells.map((cell) => couldNotRun(engine.name, origin, cell, page.refused));
    }
    const runs: CellRun[] = [];
    try {
      for (const cell of cells) {
        runs.push(await this.send(page, origin, cell, runs));
        progress.done += 1;
        options.progress.update(progress.done, progress.total, where, cell.title);
        if (options.delayMs > 0) await sleep(options.delayMs);
      }
    } finally {
      await page.close();
    }
    return runs;
  }

  private async send(page: OriginPage, origin: TriedOrigin, cell: Cell, earlier: readonly CellRun[]): Promise<CellRun> {
    const from = origin.context === 'page' ? origin.origin : 'null';
    const replayed = this.own.seen.get(`${from} ${cell.id}`)!;
    const url = urlOf(cell, this.plan.target, origin);
    const session = this.options.session && readsAsUser(cell) ? this.options.session : null;
    try {
      const { result, engine: report } = await page.send(origin.context, {
        url: url.href,
        api: cell.api,
        method: cell.method,
        headers: cell.headers,
        credentials: cell.credentials,
        body: cell.body,
        timeoutMs: this.options.timeoutMs,
        readBody: session !== null,
      });
      this.requests += 1 + ((report.preflight?.sent ?? needsPreflight(cell.method, cell.headers)) ? 1 : 0);
      const run = cellRun(this.engine.name, origin, cell, result, report, replayed, earlier, this.scene);
      if (!session || run.couldNot !== null) return run;
      const at = result.ranAt === 'null' ? 'null' : hostPage(origin, this.plan.target);
      const answers = this.own.signedIn.get(url.href)!;
      return { ...run, session: sessionRead(this.engine.name, at, url, result, report, session.cookies, answers) };
    } catch (err) {
      return couldNotRun(this.engine.name, origin, cell, `the engine failed to send it: ${firstLine(err)}`);
    }
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}

function couldNotRun(engine: EngineName, origin: TriedOrigin, cell: Cell, why: string): CellRun {
  return {
    engine,
    origin,
    cell,
    ranAt: null,
    couldNot: why,
    readable: false,
    status: null,
    visibleHeaders: null,
    rejection: null,
    redirected: false,
    finalUrl: null,
    preflight: null,
    sent: null,
    preflightKept: null,
    reason: null,
  };
}

/** Where a run's requests go: the target, and the URLs' hosts where Local Network Access stands between them and a public page. */
interface Scene {
  target: URL;
  /** host:port of each URL of the run on this machine or a private network. */
  localHosts: ReadonlySet<string>;
  /** --local-network grant: the user allows a secure page through. */
  userAllows: boolean;
}

/** One cell in one engine: what the page saw, what the engine said, and why, from the sources that have it. */
function cellRun(
  engine: EngineName,
  origin: TriedOrigin,
  cell: Cell,
  result: ProbeResult,
  report: EngineReport,
  replayed: Replayed,
  earlier: readonly CellRun[],
  scene: Scene,
): CellRun {
  if (result.unsupported) return couldNotRun(engine, origin, cell, result.unsupported);
  const request = {
    origin: result.ranAt,
    method: normalizeMethod(cell.method),
    unsafeHeaders: unsafeHeaderNames(cell.headers),
    credentials: cell.credentials,
  };
  // A same-origin request (the rebinding page's) is no CORS request: no preflight, no refusal by the rules.
  const refusal = cell.sameOrigin ? null : refusalOf(request, replayed.exchange);
  const reason = result.readable
    ? null
    : reasonFor(engine, result, report, refusal, scene, {
        page: hostPage(origin, scene.target),
        url: urlOf(cell, scene.target, origin),
      });
  const blockedBeforeCors = stoppedBeforeSending(reason);
  const kept = cell.repeats ? preflightKept(engine, cell, report, replayed, earlier) : null;
  const preflight: CellRun['preflight'] = report.preflight
    ? { ...report.preflight, source: 'engine' }
    : !cell.sameOrigin && needsPreflight(cell.method, cell.headers) && !blockedBeforeCors && !kept?.kept
      ? { sent: true, status: replayed.exchange.preflight?.status ?? null, source: 'rules' }
      : { sent: false, status: null, source: 'rules' };
  const sent: CellRun['sent'] = result.readable
    ? { value: true, source: 'page' }
    : report.answered !== null
      ? { value: report.answered, source: 'engine' }
      : { value: !blockedBeforeCors && (refusal?.requestSent ?? true), source: 'rules' };
  return {
    engine,
    origin,
    cell,
    ranAt: result.ranAt,
    couldNot: null,
    readable: result.readable,
    status: result.status,
    visibleHeaders: result.headers,
    rejection: result.rejection,
    redirected: result.redirected,
    finalUrl: result.finalUrl,
    preflight,
    sent,
    preflightKept: kept,
    reason,
  };
}

/** Whether the repeat went without a preflight: seen by an engine that reports its network, else the rules over Max-Age and the engine's cap. */
function preflightKept(
  engine: EngineName,
  cell: Cell,
  report: EngineReport,
  replayed: Replayed,
  earlier: readonly CellRun[],
): CellRun['preflightKept'] {
  const first = earlier.find((run) => run.cell.id === cell.repeats);
  if (!first?.readable) return null;
  if (report.preflight) return { kept: !report.preflight.sent, seconds: null, source: 'engine' };
  const maxAge = replayed.exchange.preflight?.headers['access-control-max-age'];
  const asked = maxAge !== undefined && /^\d+$/.test(maxAge) ? Number(maxAge) : preflightCacheDefaultSeconds(engine);
  const cap = preflightCacheCapSeconds(engine);
  const seconds = asked === null ? null : cap === null ? asked : Math.min(asked, cap);
  return { kept: seconds !== null && seconds > 0, seconds, source: 'rules' };
}

/**
 * Why the page could not read: not CORS when the engine said so (or the rules see nothing wrong),
 * else the Fetch rule. Mixed content and Local Network Access are judged for the page that sent
 * and the URL it asked.
 */
function reasonFor(
  engine: EngineName,
  result: ProbeResult,
  report: EngineReport,
  refusal: Refusal | null,
  scene: Scene,
  { page, url }: { page: string; url: URL },
): Reason {
  const words = report.words;
  if (result.timedOut)
    return {
      rule: 'timeout',
      text: 'No answer in time: the request was given up.',
      source: 'page',
      engineWords: words,
    };
  if (report.blockedReason === 'mixed-content' || blocksAsMixedContent(engine, result.ranAt, url))
    return {
      rule: 'mixed-content',
      text: `Not CORS: an https page may not fetch an http:// URL that is not loopback (mixed content${engine === 'webkit' ? '; WebKit counts loopback too' : ''}): the request never left.`,
      source: report.blockedReason ? 'engine' : 'rules',
      engineWords: words,
    };
  // Chromium says so in its network log or its console; a frame's or a worker's requests it
  // reports in neither at times, and then the rules say what it does.
  const saidLocalNetwork =
    (report.corsError !== null && /LocalNetwork|PrivateNetwork/i.test(report.corsError)) ||
    (words !== null && readConsoleMessage(words)?.rule === 'local-network-access');
  if (saidLocalNetwork || blocksAsLocalNetwork(engine, page, scene.localHosts.has(url.host), scene.userAllows))
    return {
      rule: 'local-network-access',
      text: 'Not CORS: Local Network Access. Chromium asks the user before a public page reaches a loopback or private address, and refuses an http:// page outright (--local-network public checks CORS alone, as for a server on a public address).',
      source: saidLocalNetwork ? 'engine' : 'rules',
      engineWords: words,
    };
  if (refusal)
    return {
      rule: refusal.rule,
      text: refusal.text,
      source: words ? 'engine' : 'rules',
      engineWords: words,
      stage: refusal.stage,
    };
  return {
    rule: 'engine-only',
    text: "The engine refused, though the server's answer passes the CORS rules when the check asks for it itself.",
    source: 'engine',
    engineWords: words ?? result.rejection,
  };
}
