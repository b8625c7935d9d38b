import { isLoopbackHost } from '@origin-lab/cors-rules/engine-facts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunch, firefoxLaunch, isPlaywrightBuild, withTimeout, type FoundEngine } from '@origin-lab/engines';
import type { Browser, BrowserContext, CDPSession, LaunchOptions, Page, Request } from 'playwright-core';
import type * as PlaywrightCore from 'playwright-core';
import { NetworkLog } from './chromium-network.js';
import { PROBE_PATH, PROBE_SCRIPT, probeDocument, runInPage, type Context, type ProbeRequest } from './probe-page.js';
import {
  baseDomain,
  NOT_SERVED_HERE,
  SILENT,
  type DriverLaunch,
  type EngineName,
  type EngineReport,
  type NotThisOrigin,
  type OriginPage,
  type ProbeDriver,
  type SessionCookieSpec,
} from './driver.js';

/**
 * After a request, what the engine says of it may still be on its way (a console line, a page
 * error, DevTools events that travel apart from the answer the page got): each send waits until
 * the engine has been quiet this long, at most SETTLE_MAX_MS, so that nothing of one request is
 * read as the next one's.
 */
const QUIET_MS = 100;
const SETTLE_MAX_MS = 2_000;

/**
 * playwright-core, loaded when an engine starts: loading it takes about half a second, which
 * --help, a usage error and explain should not pay. Loaded with require: import() of a CommonJS
 * package first reads all of it for the names it exports, and for playwright-core's bundle that
 * is a quarter of a second of CPU more at every check (measured: 770-820 ms against 560-580 ms).
 */
const playwright = () => createRequire(import.meta.url)('playwright-core') as typeof PlaywrightCore;

/**
 * Chromium or Firefox ESR through Playwright (Debian's browsers: @origin-lab/engines).
 *
 * The probe page is put at the origin by the engine's own interception of that one document
 * (page.route), which is removed before any request goes out: while a route is set, Playwright
 * answers every CORS preflight itself with a permissive 204 (measured in both engines), so a
 * route left in place would fake exactly what the check looks at. Every request to the target
 * then goes to the real network. A page done with one origin loads the next (a new page costs
 * each engine about half a second of its main thread), never one of a site it has held while
 * that site's answers may be in its context's HTTP cache: Chromium's own contexts have it
 * emptied first (DevTools' Network.clearBrowserCache, that context's alone). Firefox gives a
 * driver no such call: a Firefox the check starts keeps no HTTP cache (CHECK_FIREFOX_PREFS), so
 * any of its pages loads any origin; one started elsewhere (--connect) gets a new page for
 * another origin of a site it has held.
 *
 * What the engine says of a request: Chromium through its DevTools protocol (the preflight and
 * its status, whether the answer arrived, the CORS error's kind and parameter) and its console
 * line; Firefox through the page error Playwright reports for a CORS refusal ("Cross-Origin
 * Request Blocked", with its reason). Firefox reports no preflight to a driver.
 *
 * With a session (--session) each context gets the user's cookies after its own are cleared.
 * Chromium then runs in one profile of its own (a persistent context) set as Google Chrome ships:
 * third-party cookies allowed (this Chromium's own profiles block them, measured; Chrome's users
 * mostly have them on). Firefox keeps its default, Total Cookie Protection.
 */
export class PlaywrightProbeDriver implements ProbeDriver {
  /** A browser context each: as many as the run asks for. */
  readonly pagesAtOnce = Number.POSITIVE_INFINITY;

  private constructor(
    readonly name: EngineName,
    readonly label: string,
    readonly version: string,
    private readonly browser: Browser | null,
    private readonly launch: DriverLaunch,
    /** The one context every page shares: Chromium's profile with a session. */
    private readonly shared: { context: BrowserContext; dir: string } | null = null,
  ) {}

  static async start(name: EngineName, launch: DriverLaunch): Promise<PlaywrightProbeDriver> {
    const { chromium, firefox, webkit } = playwright();
    const server = name === 'webkit' ? undefined : launch.connect[name];
    const program = launch.programs[name];
    const timeout = launch.timeoutMs * 3;
    let browser: Browser;
    if (name === 'chromium' && !server && launch.session) return PlaywrightProbeDriver.signedIn(launch);
    if (server) {
      if (name === 'chromium' && launch.localNetwork === 'public')
        throw new Error(
          '--local-network public starts Chromium with a switch of its own, which a running Chromium cannot take: use --local-network grant or deny with --connect chromium',
        );
      browser = await (name === 'chromium' ? chromium : firefox).connect(server, { timeout });
    } else if (name === 'chromium') {
      browser = await chromium.launch({ ...chromiumOptions(launch), timeout });
    } else if (program && isPlaywrightBuild(program)) {
      browser = await (name === 'webkit' ? webkit : firefox).launch({
        ...playwrightBuildOptions(program, launch),
        timeout,
      });
    } else
      browser = await firefox.launch({
        ...firefoxLaunch(launch.trust, loopbackNames(launch), CHECK_FIREFOX_PREFS),
        ...(program && { executablePath: program.path }),
        timeout,
      });
    const version = browser.version();
    return new PlaywrightProbeDriver(
      name,
      labelOf(name, version, server ? undefined : program?.product),
      version,
      browser,
      launch,
    );
  }

  /** Chromium with the user's session: one profile, Chrome's cookie settings, the cookies set once. */
  private static async signedIn(launch: DriverLaunch): Promise<PlaywrightProbeDriver> {
    const { chromium } = playwright();
    const dir = mkdtempSync(join(tmpdir(), 'origin-lab-profile-'));
    try {
      // Google Chrome's default: third-party cookies allowed (0); this Chromium starts at "block".
      mkdirSync(join(dir, 'Default'));
      writeFileSync(join(dir, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
      const context = await chromium.launchPersistentContext(dir, {
        ...chromiumOptions(launch),
        timeout: launch.timeoutMs * 3,
      });
      if (launch.localNetwork === 'grant')
        await context.grantPermissions(['local-network-access']).catch(() => undefined);
      await context.addCookies(playwrightCookies(launch.session?.cookies ?? []));
      const version = context.browser()?.version() ?? (await versionOf(context));
      const label = labelOf('chromium', version, launch.programs.chromium?.product);
      return new PlaywrightProbeDriver('chromium', label, version, null, launch, { context, dir });
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Pages whose origin is done, kept to load the next one (a new page costs the engine more than a navigation). */
  private readonly idle: ProbePage[] = [];

  async openOrigin(origin: string): Promise<OriginPage | NotThisOrigin> {
    const unresolvable = this.cannotResolve(origin);
    if (unresolvable) return { refused: `${NOT_SERVED_HERE}: ${unresolvable}` };
    const page = (await this.idlePageFor(siteOf(origin))) ?? (await this.newProbePage());
    try {
      const refused = await page.load(origin, this.launch.timeoutMs);
      if (refused === null) return page;
      // A name the engine refused left the page as it was: it takes the next origin.
      await (page.reusable ? page.close() : page.discard());
      return { refused };
    } catch (err) {
      await page.discard();
      throw err;
    }
  }

  /** A Firefox started here, without an HTTP cache (CHECK_FIREFOX_PREFS): any of its pages may load any origin. */
  private get cacheless(): boolean {
    return this.name === 'firefox' && !this.launch.connect.firefox;
  }

  /** An idle page that may be at site: one that has not held it, else one whose cache is emptied. */
  private async idlePageFor(site: string): Promise<ProbePage | null> {
    const unheld = this.idle.findIndex((page) => this.cacheless || !page.hosted.has(site));
    if (unheld >= 0) return this.idle.splice(unheld, 1)[0]!;
    const emptiable = this.idle.findIndex((page) => page.canEmptyCache);
    if (emptiable < 0) return null;
    const page = this.idle.splice(emptiable, 1)[0]!;
    if (await page.emptyCache()) return page;
    await page.discard();
    return null;
  }

  /**
   * Why this engine cannot be told where the origin's name points (launch.resolve), or null: a
   * running engine took its switches before the check, and Firefox resolves names itself only to
   * loopback (network.dns.localDomains).
   */
  private cannotResolve(origin: string): string | null {
    const host = URL.canParse(origin) ? new URL(origin).hostname : '';
    const address = this.launch.resolve[host];
    if (address === undefined) return null;
    if (this.launch.connect[this.name])
      return `a ${this.name} started elsewhere (--connect) cannot be told that ${host} points to ${address}`;
    if (this.name === 'firefox' && !isLoopbackHost(address))
      return `Firefox can be told only that a name is loopback, and ${host} would have to point to ${address}`;
    if (this.name === 'webkit') return `WebKit through Playwright cannot be told that ${host} points to ${address}`;
    return null;
  }

  /** A page in a context of its own (or in the shared one), with the engine's reports of it attached once. */
  private async newProbePage(): Promise<ProbePage> {
    const shared = this.shared?.context ?? null;
    const context = shared ?? (await this.browser!.newContext());
    const page = await context.newPage().catch(async (err: unknown) => {
      if (!shared) await context.close().catch(() => undefined);
      throw err;
    });
    try {
      if (!shared && this.name === 'chromium' && this.launch.localNetwork === 'grant')
        await context.grantPermissions(['local-network-access']).catch(() => undefined);
      const cdp = this.name === 'chromium' ? await context.newCDPSession(page) : null;
      const session = shared
        ? { cookies: null, shared: true }
        : { cookies: this.launch.session?.cookies ?? null, shared: false };
      return await ProbePage.start(this.name, context, page, cdp, session, (done) => this.idle.push(done));
    } catch (err) {
      await (shared ? page.close() : context.close()).catch(() => undefined);
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    if (this.shared) {
      await this.shared.context.close().catch(() => undefined);
      rmSync(this.shared.dir, { recursive: true, force: true });
    }
  }
}

/**
 * What a Firefox the check starts is set to, beside firefoxLaunch's own settings:
 * - no HTTP cache, in memory or on disk: every request goes to the server, so no answer one origin
 *   was given is served to another origin of the same site (Firefox keys its cache by the
 *   top-level site), and a page may load any origin. The CORS preflight cache is a separate one,
 *   and stays on.
 * - Fission (a content process per site) off: a navigation to another site then costs Firefox
 *   about half as much (measured: 300 ms to 157 ms). Which process a page runs in does not change
 *   what CORS, cookies or mixed content decide for a request.
 * The tests' shared Firefox is started with the same settings (test/shared-engines.ts).
 */
export const CHECK_FIREFOX_PREFS = {
  'browser.cache.disk.enable': false,
  'browser.cache.memory.enable': false,
  'fission.autostart': false,
};

/** Chromium's launch: the trusted authorities, and the target counted public where asked. */
function chromiumOptions(launch: DriverLaunch) {
  const program = launch.programs.chromium;
  const options = { ...chromiumLaunch(launch.trust), ...(program && { executablePath: program.path }) };
  // Names the check resolves itself (the rebinding name, to the target's address).
  const rules = Object.entries(launch.resolve).map(([name, address]) => `MAP ${name} ${address}`);
  if (rules.length > 0) options.args = [...(options.args ?? []), `--host-resolver-rules=${rules.join(',')}`];
  // Chromium's own switch for an address's space: the target counts as public, so no Local
  // Network Access check applies (--local-network public).
  if (launch.localNetwork === 'public' && launch.targetAddresses.length > 0)
    options.args = [
      ...(options.args ?? []),
      `--ip-address-space-overrides=${launch.targetAddresses.map((address) => `${address}=public`).join(',')}`,
    ];
  return options;
}

/** The product the program said it is (Google Chrome, Firefox ESR...), else the family, and the major version (WebKit's two parts). */
function labelOf(name: EngineName, version: string, product: string | undefined): string {
  const family = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' }[name];
  return `${product ?? family} ${version
    .split('.')
    .slice(0, name === 'webkit' ? 2 : 1)
    .join('.')}`;
}

/** The names the check resolves itself that Firefox can be told of: those pointing to loopback (the rebinding name). */
function loopbackNames(launch: DriverLaunch): string[] {
  return Object.entries(launch.resolve)
    .filter(([, address]) => isLoopbackHost(address))
    .map(([name]) => name);
}

/**
 * Playwright's own Firefox or WebKit build, as playwright-core's launcher takes it: the build
 * found in its cache, headless, Firefox told the loopback names as Firefox ESR is. Neither build
 * reads an NSS database the check could add an authority to, so --ca is refused for them.
 */
export function playwrightBuildOptions(program: FoundEngine, launch: DriverLaunch): LaunchOptions {
  if (launch.trust.length > 0)
    throw new Error(
      `--ca cannot be given to ${program.label}: Playwright's own build keeps no authority the check can add (use a Firefox or WebKitGTK of the system's, or --browser)`,
    );
  const names = loopbackNames(launch);
  return {
    executablePath: program.path,
    headless: true,
    ...(program.family === 'firefox' && {
      firefoxUserPrefs: {
        ...CHECK_FIREFOX_PREFS,
        ...(names.length > 0 && { 'network.dns.localDomains': names.join(',') }),
      },
    }),
  };
}

/** A persistent context's browser version, from a page's user agent where Playwright gives no browser. */
async function versionOf(context: BrowserContext): Promise<string> {
  const page = await context.newPage();
  try {
    const agent = await page.evaluate(() => navigator.userAgent);
    return /Chrom(?:e|ium)\/([\d.]+)/.exec(agent)?.[1] ?? 'unknown';
  } finally {
    await page.close();
  }
}

/**
 * The session's cookies as Playwright sets them: a Domain cookie's domain with its leading dot, a
 * host-only one's without; a partitioned one under the target's own site, where the target itself
 * would have set it.
 */
function playwrightCookies(cookies: readonly SessionCookieSpec[]) {
  return cookies.map((cookie) => ({
    name: cookie.name,
    value: cookie.value,
    // Playwright's domain without a leading dot is a host-only cookie (its url form would
    // rewrite the path to the URL's folder).
    domain: cookie.hostOnly ? cookie.domain : `.${cookie.domain}`,
    path: cookie.path,
    expires: cookie.expires,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    ...(cookie.sameSite && { sameSite: cookie.sameSite }),
    ...(cookie.partitioned && { partitionKey: `https://${baseDomain(cookie.domain)}` }),
  }));
}

/**
 * The site an origin belongs to, roughly (scheme and the host's last two labels): a page is
 * reused for an origin of a site it has held only once its HTTP cache is emptied, so that no
 * answer that cache keeps for a site meets another origin of that site. (Fetch keys the
 * preflight cache by origin: one origin's entries are never another's.)
 */
function siteOf(origin: string): string {
  const match = /^([a-z]+):\/\/([^/:]*)/i.exec(origin);
  return match ? `${match[1]}://${baseDomain(match[2]!)}` : origin;
}

/**
 * One page of the engine, loaded at one tried origin after another: the probe page there, the
 * sends, then back to the driver for the next origin (its cookies cleared first). The engine's
 * reports of it (console, page errors, Chromium's network log) are attached once.
 */
class ProbePage implements OriginPage {
  origin = '';
  /** The sites this page has been at. */
  readonly hosted = new Set<string>();
  private words: string[] = [];
  private lastWords = 0;
  /** The send's request as the page made it (Firefox reports its cookies in its headers). */
  private request: { url: string; seen: Request | null } | null = null;
  /** A load timed out: the engine may still be at it. */
  private loading = false;

  private constructor(
    private readonly engine: EngineName,
    private readonly context: BrowserContext,
    private readonly page: Page,
    private readonly cdp: CDPSession | null,
    private readonly network: NetworkLog | null,
    /** The session's cookies, set after each clearing; shared: one context for all pages, never cleared. */
    private readonly session: { cookies: readonly SessionCookieSpec[] | null; shared: boolean },
    private readonly release: (page: ProbePage) => void,
  ) {}

  static async start(
    engine: EngineName,
    context: BrowserContext,
    page: Page,
    cdp: CDPSession | null,
    session: ProbePage['session'],
    release: (page: ProbePage) => void,
  ): Promise<ProbePage> {
    if (cdp) await cdp.send('Network.enable');
    const probe = new ProbePage(engine, context, page, cdp, cdp ? new NetworkLog(cdp) : null, session, release);
    // Firefox's request headers say which cookies went out: watched only with a session's cookies
    // to report (Chromium's network log says it itself).
    if (engine === 'firefox' && session.cookies)
      page.on('request', (request) => {
        if (probe.request && request.method() !== 'OPTIONS' && request.url() === probe.request.url)
          probe.request.seen = request;
      });
    // Chromium and WebKit print each CORS refusal to the console; Firefox raises it as a page error.
    page.on('console', (message) => {
      if (message.type() === 'error' && REFUSAL_WORDS.test(message.text())) {
        probe.words.push(message.text());
        probe.lastWords = performance.now();
      }
    });
    page.on('pageerror', (error) => {
      if (/Cross-Origin|CORS/i.test(`${error.name} ${error.message}`)) {
        probe.words.push(`${error.name}: ${error.message}`);
        probe.lastWords = performance.now();
      }
    });
    return probe;
  }

  /**
   * Whether it may load another origin: not once closed, nor while a load given up on may still
   * be under way (the engine refusing a name leaves the page where it was).
   */
  get reusable(): boolean {
    return !this.loading && !this.page.isClosed();
  }

  /** Whether its context's HTTP cache can be emptied: Chromium's, in a context of its own. */
  get canEmptyCache(): boolean {
    return this.cdp !== null && !this.session.shared;
  }

  /**
   * Empties its context's HTTP cache (only where canEmptyCache), after which it may be at a site it
   * has held as a fresh context would; false when the engine would not (the page is then not to be
   * used again).
   */
  async emptyCache(): Promise<boolean> {
    const emptied = await this.cdp!.send('Network.clearBrowserCache').then(
      () => true,
      () => false,
    );
    if (emptied) this.hosted.clear();
    return emptied;
  }

  /** Loads the probe page at origin: null when it is there, else why the engine could not be that origin. */
  async load(origin: string, timeoutMs: number): Promise<string | null> {
    this.hosted.add(siteOf(origin));
    if (!this.session.shared) {
      await this.context.clearCookies();
      if (this.session.cookies) await this.context.addCookies(playwrightCookies(this.session.cookies));
    }
    let served = false;
    await this.page.route(
      (url) => url.pathname === PROBE_PATH,
      (route) => {
        served = true;
        return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: probeDocument() });
      },
    );
    try {
      await this.page.goto(`${origin}${PROBE_PATH}`, { timeout: timeoutMs, waitUntil: 'load' });
    } catch (err) {
      this.loading = (err as Error).name === 'TimeoutError';
      return firstLine(err);
    } finally {
      await this.page.unrouteAll({ behavior: 'wait' });
    }
    // One call for both: each call to the page costs Firefox about 80 ms (measured).
    const shown = await this.page.evaluate(() => ({ origin: location.origin, probe: '__originLabProbe' in self }));
    this.origin = shown.origin;
    if (!served || !shown.probe) return `the engine showed ${this.origin}, not the probe page`;
    return null;
  }

  async send(context: Context, request: ProbeRequest) {
    this.words = [];
    this.network?.reset();
    this.request = { url: new URL(request.url).href, seen: null };
    const result = await withTimeout(
      this.page.evaluate(runInPage, { context, request, script: PROBE_SCRIPT }),
      request.timeoutMs + 10_000,
      `${this.engine} sending ${request.method} ${request.url}`,
    );
    // Chromium's DevTools events can trail the answer; a refusal's words come after it in both.
    if (this.network || !result.readable) await this.settle(performance.now());
    const network = this.network;
    const engine: EngineReport = network
      ? {
          words: this.words[0] ?? describeCorsError(network.corsError, network.corsParameter),
          corsError: network.corsError,
          blockedReason: network.blockedReason,
          preflight: { ...network.preflight },
          answered: network.answered,
          cookies: network.cookies(),
        }
      : { ...SILENT, words: this.words[0] ?? null, cookies: this.session.cookies ? await this.headerCookies() : null };
    return { result, engine };
  }

  /** The cookie names in the request's own headers, as Firefox reported them (null: no request seen). */
  private async headerCookies(): Promise<EngineReport['cookies']> {
    const seen = this.request?.seen;
    if (!seen) return null;
    const header = await seen.headerValue('cookie').catch(() => null);
    const sent = (header ?? '')
      .split(';')
      .map((pair) => pair.slice(0, pair.indexOf('=') >>> 0).trim())
      .filter(Boolean);
    return { sent, withheld: [] };
  }

  /** Waits until, since the page got its answer, neither the console nor the network log has said anything for QUIET_MS (bounded). */
  private async settle(answered: number): Promise<void> {
    const until = answered + SETTLE_MAX_MS;
    for (;;) {
      const quietSince = Math.max(answered, this.lastWords, this.network?.lastEvent ?? 0);
      const wait = quietSince + QUIET_MS - performance.now();
      if (wait <= 0 || performance.now() >= until) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, until - performance.now())));
    }
  }

  /** Done with this origin: the page goes back to the driver for the next one. */
  async close(): Promise<void> {
    this.release(this);
  }

  /** Not to be used again (it failed to load an origin, or the engine failed). */
  async discard(): Promise<void> {
    await (this.session.shared ? this.page.close() : this.context.close()).catch(() => undefined);
  }
}

/**
 * A console error that is a refusal: Chromium's name CORS, what blocked it or mixed content;
 * WebKit's say "access control checks" and name the Access-Control-* header that failed.
 */
const REFUSAL_WORDS = /CORS|Cross-Origin|blocked|mixed content|access control checks|Access-Control-/i;

function describeCorsError(kind: string | null, parameter: string | null): string | null {
  return kind ? `corsError ${kind}${parameter ? ` (${parameter})` : ''}` : null;
}

function firstLine(err: unknown): string {
  return String((err as Error).message ?? err)
    .split('\n')[0]!
    .replace(/^page\.goto: /, '');
}
