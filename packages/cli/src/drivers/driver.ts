/**
 * One engine as `check` drives it (a probe driver): load the probe page at an origin, send one request from it,
 * and say what the engine itself reported of that request. Chromium and Firefox through
 * Playwright (playwright.ts), WebKitGTK through its WebDriver (webkit.ts).
 */
import type { FoundEngine } from '@origin-lab/engines';
import type { Context, ProbeRequest, ProbeResult } from './probe-page.js';

export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** What the engine itself said of one request, beyond what script saw; null where it says nothing. */
export interface EngineReport {
  /** Its own words for a refusal: the console line, or Chromium's CORS error kind and parameter. */
  words: string | null;
  /** Chromium's CORS error kind (DevTools protocol corsErrorStatus.corsError), when it gave one. */
  corsError: string | null;
  /** Why the engine blocked it before CORS (mixed content, Local Network Access), when it said. */
  blockedReason: string | null;
  /** Whether a preflight went out, and its status: only an engine that reports its network (Chromium). */
  preflight: { sent: boolean; status: number | null } | null;
  /** Whether the request itself got an answer from the server (headers arrived): Chromium only. */
  answered: boolean | null;
  /**
   * The request's cookies as the engine reported them (Chromium's network log, Firefox's request
   * headers): the names it sent, and those it held back with its own reason where it gave one.
   * Never a value.
   */
  cookies: { sent: string[]; withheld: { name: string; reason: string | null }[] } | null;
}

/**
 * A cookie of the user's session (--session), as the check sets it in every engine (the session
 * file, check/session-file.ts, reads it into this shape).
 */
export interface SessionCookieSpec {
  name: string;
  value: string;
  /** The host the cookie is for, without a leading dot (lower case). */
  domain: string;
  /** true: sent to that host only; false: a Domain cookie, also sent to its subdomains. */
  hostOnly: boolean;
  /** Where on the host it is sent: '/' where the file does not say. */
  path: string;
  secure: boolean;
  httpOnly: boolean;
  /** As given; null where the file does not say (the engine's own default applies). */
  sameSite: 'Strict' | 'Lax' | 'None' | null;
  partitioned: boolean;
  /** Unix seconds; -1 for a session cookie. */
  expires: number;
}

export interface OriginPage {
  /** The origin the page is at, as the engine serialized it (location.origin). */
  readonly origin: string;
  send(context: Context, request: ProbeRequest): Promise<{ result: ProbeResult; engine: EngineReport }>;
  close(): Promise<void>;
}

/** Could not be that origin: the engine refused the address, or the page did not load. */
export interface NotThisOrigin {
  refused: string;
}

/** One engine driven through the probe page: Chromium or Firefox through Playwright, or WebKit through WebDriver. */
export interface ProbeDriver {
  readonly name: EngineName;
  /** e.g. "Chromium 156", "WebKit (GTK) 2.50". */
  readonly label: string;
  readonly version: string;
  /** How many origins' pages it can hold open at once. */
  readonly pagesAtOnce: number;
  /**
   * Loads the probe page at origin: no cookie carries over from another origin, nor any cache of
   * the same site (a page is reused only for sites it has not held).
   */
  openOrigin(origin: string): Promise<OriginPage | NotThisOrigin>;
  close(): Promise<void>;
}

/** What every driver starts with. */
export interface DriverLaunch {
  /** The https origins whose probe page may be asked for (WebKit needs their certificates up front). */
  origins: readonly string[];
  timeoutMs: number;
  /** Local Network Access in Chromium: grant the permission, deny it, or treat the target as public (no check at all). */
  localNetwork: 'grant' | 'deny' | 'public';
  /** The addresses (ip:port) of the URLs the run asks, the target's and --also-url's, for --local-network public. */
  targetAddresses: readonly string[];
  /** Engines that already run as a Playwright browser server elsewhere (--connect): its address. */
  connect: Partial<Record<EngineName, string>>;
  /** The program each engine runs, where it was found (origin-lab engines lists them). */
  programs: Partial<Record<EngineName, FoundEngine>>;
  /**
   * The user's signed-in session (--session): set in each engine for the target, which then runs
   * with its own default cookie policy; null without one.
   */
  session: { url: string; cookies: readonly SessionCookieSpec[] } | null;
  /** Certificate authorities every engine trusts beside the system's (PEM files: --ca). */
  trust: readonly string[];
  /** The URLs the run asks: the target's and --also-url's. */
  urls: readonly string[];
  /**
   * Names the engine is to resolve to an address of the check's choosing (the rebinding name, to
   * the target's); an engine that cannot be told refuses to be that origin.
   */
  resolve: Readonly<Record<string, string>>;
}

/** An EngineReport that says nothing. */
export const SILENT: EngineReport = {
  words: null,
  corsError: null,
  blockedReason: null,
  preflight: null,
  answered: null,
  cookies: null,
};

/** How a refusal that is the driver's, not the engine's, begins (the reports tell the two apart). */
export const NOT_SERVED_HERE = 'not tried: the driver cannot serve a page at this address';

/** The last two labels of a host: a rough registrable domain (the check has no public suffix list). */
export const baseDomain = (host: string) => host.split('.').slice(-2).join('.');
