/**
 * What one browser engine did with each of the playground's ready cases, on one stack: written
 * by the e2e suite (e2e/specs/playground.spec.ts), read by the pages build into the engines page
 * and by the playground for the row of its current case.
 */

/** The engines the e2e suite drives. */
export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** The outcome of one case in one engine, as the playground observed it. */
export interface EngineOutcome {
  /** A preflight reached the server. */
  preflight: boolean;
  /** The request itself reached the server. */
  sent: boolean;
  /** The page could read the answer. */
  readable: boolean;
  /** The status the page read, 0 for an opaque answer or a refused XHR, null when fetch rejected. */
  status: number | null;
  /** Whether script could read X-Lab-Extra; null when the case sets no such header or nothing was readable. */
  extraVisible: boolean | null;
  /** Whether this case's demo cookie came back on the next credentialed request; null when it sets none. */
  cookieReturned: boolean | null;
  /** The playground's verdict against the spec's prediction. */
  agreement: 'agree' | 'known-difference' | 'disagree';
}

/** One record file: one engine on one stack. */
export interface EngineRecord {
  engine: EngineName;
  /**
   * The engine's own version: Playwright's browser.version() for chromium and firefox (e.g.
   * 156.0.7500.0), the WebDriver session's browserVersion for webkit (WebKitGTK's, e.g. 2.50.6).
   */
  version: string;
  /** The e2e stack it ran on (embedded, caddy, compose). */
  stack: string;
  /** The two origins' scheme, e.g. "http" or "https": cookies depend on it. */
  scheme: string;
  recordedAt: string;
  /** By ready case id (playground/presets.ts). */
  cases: Record<string, EngineOutcome>;
}
