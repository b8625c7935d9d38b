// The shapes that cross a boundary: what the api and the upstream-mock answer, and what the pages,
// e2e and bench read. Types only: importing this package costs nothing at run time.

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

/** How /api/echo classifies a request body. */
export type BodyKind = 'json' | 'urlencoded' | 'multipart' | 'other' | 'none';

/** What /api/echo answers: the request as the server received it. */
export interface EchoReflection {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body as UTF-8 text. */
  body: string;
  /** Present only when the body is not valid UTF-8. */
  bodyBase64?: string;
  bodyBytes: number;
  bodyKind: BodyKind;
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
export type { JournalItem, JournalPage, ServerJournalEntry } from './server-journal.js';
export type {
  LabAllowOrigin,
  LabCookie,
  LabCorsPolicy,
  LabCorsReflection,
  LabCorsScenario,
  LabHeaderList,
  LabPolicyParameter,
  LabPreflightStatus,
} from './lab-cors.js';
export type { EngineName, EngineOutcome, EngineRecord } from './engine-records.js';
