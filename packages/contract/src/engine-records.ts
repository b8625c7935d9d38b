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

/**
 * An outcome as the build publishes it for the pages: one short array instead of an object
 * (preflight, sent, readable as 1 or 0; status; X-Lab-Extra seen and cookie back as 1, 0 or
 * null; the verdict's first letter). A stack's records of every ready case in three engines stay
 * a small part of the engines page's 100 KB.
 */
export type PackedOutcome = [
  preflight: 0 | 1,
  sent: 0 | 1,
  readable: 0 | 1,
  status: number | null,
  extraVisible: 0 | 1 | null,
  cookieReturned: 0 | 1 | null,
  agreement: 'a' | 'k' | 'd',
];

/** A record as the build publishes it: its outcomes packed. */
export type PackedRecord = Omit<EngineRecord, 'cases'> & { cases: Record<string, PackedOutcome> };

const AGREEMENTS = { a: 'agree', k: 'known-difference', d: 'disagree' } as const;
const bit = (value: boolean) => (value ? 1 : 0);
const maybeBit = (value: boolean | null) => (value === null ? null : bit(value));
const maybeBool = (value: 0 | 1 | null) => (value === null ? null : value === 1);

export function packRecord(record: EngineRecord): PackedRecord {
  const cases: Record<string, PackedOutcome> = {};
  for (const [id, o] of Object.entries(record.cases))
    cases[id] = [
      bit(o.preflight),
      bit(o.sent),
      bit(o.readable),
      o.status,
      maybeBit(o.extraVisible),
      maybeBit(o.cookieReturned),
      o.agreement === 'agree' ? 'a' : o.agreement === 'known-difference' ? 'k' : 'd',
    ];
  return { ...record, cases };
}

export function unpackRecord(record: PackedRecord): EngineRecord {
  const cases: Record<string, EngineOutcome> = {};
  for (const [id, [preflight, sent, readable, status, extraVisible, cookieReturned, agreement]] of Object.entries(
    record.cases,
  ))
    cases[id] = {
      preflight: preflight === 1,
      sent: sent === 1,
      readable: readable === 1,
      status,
      extraVisible: maybeBool(extraVisible),
      cookieReturned: maybeBool(cookieReturned),
      agreement: AGREEMENTS[agreement],
    };
  return { ...record, cases };
}
