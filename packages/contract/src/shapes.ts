// The shapes that cross a boundary without a value of their own: what the api and the
// upstream-mock answer, and what the pages, e2e and bench read. Types only.

/** The Error object of SPEC.md: `error` always, and the fields that fit the case. */
export interface ErrorBody {
  error: string;
  path?: string;
  detail?: string;
  field?: string;
  parameter?: string;
  rate?: number;
  allowed?: string[];
  [field: string]: unknown;
}

/** The records of /api/stream, by event name. */
export interface StreamRecords {
  tick: { n: number; of: number };
  done: Record<string, never>;
}

/** One beacon the api received, as `GET /api/beacon` lists it (newest first). */
export interface BeaconJournalEntry {
  receivedAt: string;
  contentType: string | null;
  bytes: number;
  /** The first 2 KiB of the body, as text. */
  body: string;
  origin: string | null;
}

/** `GET /api/beacon`. */
export interface BeaconJournal {
  beacons: BeaconJournalEntry[];
}

/** Fields of a submitted form, as a parser hands them over (repeated names give arrays). */
export type FormFields = Record<string, string | string[] | undefined>;

/** Two host names that serve the same pages, so a page on one is cross-origin to the other. */
export type HostPair = [string, string];

/** One call the upstream-mock received. */
export interface ReceivedCall {
  /** 1 for the first call since the last reset. */
  n: number;
  method: string;
  path: string;
  /** The raw query string, without the question mark. */
  query: string;
  accept: string | null;
  /** Whether the bearer key matched; the presented value itself is never recorded. */
  authorized: boolean;
}

/** What the upstream-mock received (`GET /_admin/calls`), so cache hits and misses show from outside. */
export interface CallSummary {
  total: number;
  unauthorized: number;
  byPath: Record<string, number>;
  /** Requests waiting for POST /_admin/release. */
  held: number;
  recent: ReceivedCall[];
}
