import type { BodyKind } from './echo.js';

/**
 * One request as the api saw it and answered it, in a visitor's journal (the "What the server saw"
 * view). Cookie and Authorization values are never kept: only whether they were present, and the
 * cookies' names; long values are cut.
 */
export interface ServerJournalEntry {
  /** When the request arrived, ISO 8601. */
  at: string;
  method: string;
  path: string;
  /** The raw query string without the visitor token; empty when there was none. */
  query: string;
  /** The HTTP version the browser used, as the front reports it ("HTTP/2.0", "HTTP/1.1"). */
  httpVersion: string;
  origin: string | null;
  /**
   * The fetch metadata the browser sent: Sec-Fetch-Mode, -Site, -Dest, and -Storage-Access (the
   * storage access status of a cross-site request with credentials, where the browser sends it).
   */
  secFetch: { mode: string | null; site: string | null; dest: string | null; storageAccess: string | null };
  /** An OPTIONS request carrying Access-Control-Request-Method: the browser's own question. */
  preflight: boolean;
  accessControlRequest: { method: string | null; headers: string | null };
  /** Accept: text/event-stream tells an EventSource request from a fetch. */
  accept: string | null;
  contentType: string | null;
  bodyKind: BodyKind;
  /** Declared request body bytes (Content-Length), 0 without one. */
  bytesIn: number;
  /** Response body bytes written. */
  bytesOut: number;
  status: number;
  durationMs: number;
  /** The Access-Control-* headers of the answer; null when it carried none. */
  cors: Record<string, string> | null;
  /** Whether the request carried these, never their values. */
  credentials: {
    cookie: boolean;
    authorization: boolean;
    /** The names of the cookies that came, in the order sent (at most 16, each cut), never a value. */
    cookieNames: string[];
  };
  /** Asked for a WebSocket upgrade (Upgrade: websocket). */
  upgrade: string | null;
  /** The Last-Event-ID an EventSource sent on reconnect: the id: of the last event it got. */
  lastEventId: string | null;
  /**
   * The answer's opener policy (Cross-Origin-Opener-Policy and -Report-Only), only when it sent
   * one: what cuts a popup off from the page that opened it.
   */
  openerPolicy?: { enforced: string | null; reportOnly: string | null };
  /** The names of the cookies the answer set (Set-Cookie), only when it set any; never a value. */
  setCookies?: string[];
  /** Only for the same-origin proxy. */
  proxy?: { cache: string | null; upstreamStatus: number | null };
  /** Which api replica answered; only when replicas share state in Redis (REPLICA_NAME). */
  replica?: string;
}

/** One entry of a visitor's journal with the id the server gave it (the stream's id:, a poll's after=). */
export interface JournalItem {
  id: number;
  entry: ServerJournalEntry;
}

/** What /lab/journal answers a reader that asks for JSON: the entries after ?after=N, oldest first. */
export interface JournalPage {
  entries: JournalItem[];
}
