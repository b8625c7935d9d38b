import type { ServerJournalEntry } from '@origin-lab/contract';

/**
 * Why a cross-origin request failed, or could not be read, named from what the server answered
 * (the visitor's journal) and what the request carried. Never from what an experiment expected.
 */

/** What the page asked for. */
export interface RequestFacts {
  pageOrigin: string;
  method: string;
  /** Names of the request headers the page's code set (not the browser's own). */
  headers: string[];
  /** credentials: 'include', or withCredentials = true. */
  credentials: boolean;
  /** Whether the page could read the answer. */
  read: boolean;
}

/** What the server saw of it: the preflight and the request itself, when they arrived. */
export interface ServerFacts {
  preflight?: ServerJournalEntry;
  actual?: ServerJournalEntry;
}

export type Rule =
  | 'read'
  | 'not-reached'
  | 'preflight-status'
  | 'origin-not-allowed'
  | 'no-cors-headers'
  | 'origin-mismatch'
  | 'wildcard-with-credentials'
  | 'method-not-allowed'
  | 'header-not-allowed'
  | 'credentials-not-allowed';

export interface Explanation {
  rule: Rule;
  /** One sentence for people. */
  text: string;
  /** Whether the handler ran, and what it answered. */
  handled: boolean;
  status?: number;
}

/** Methods that never need Access-Control-Allow-Methods. */
const SIMPLE_METHODS = ['GET', 'HEAD', 'POST'];

export function explain(request: RequestFacts, server: ServerFacts): Explanation {
  const { preflight, actual } = server;
  const handled = actual !== undefined;
  const status = actual?.status;
  const because = (rule: Rule, text: string): Explanation => ({
    rule,
    text,
    handled,
    ...(status !== undefined && { status }),
  });

  if (request.read) {
    return because(
      'read',
      handled ? `The server answered ${status} and allowed this origin to read it.` : 'The page read the answer.',
    );
  }
  if (!preflight && !actual) {
    return because(
      'not-reached',
      'The request never reached the server: a network, DNS or certificate failure (the browser reports each as the same TypeError).',
    );
  }
  if (preflight && !actual) {
    const refusal = refusalOf(preflight, request, true);
    if (refusal) return refusal;
    return because('preflight-status', 'The preflight passed, but the request itself never arrived.');
  }
  return (
    refusalOf(actual!, request, false) ??
    because('read', `The server answered ${status}; the page should have been able to read it.`)
  );

  function refusalOf(entry: ServerJournalEntry, request: RequestFacts, isPreflight: boolean): Explanation | undefined {
    const what = isPreflight
      ? 'The preflight (OPTIONS)'
      : `The server handled the request (status ${entry.status}) but its answer`;
    const cors = entry.cors ?? {};
    const allowOrigin = cors['access-control-allow-origin'];
    if (isPreflight && (entry.status < 200 || entry.status > 299)) {
      if (allowOrigin === undefined && entry.status === 403) {
        return because(
          'origin-not-allowed',
          `The preflight was refused (403): ${request.pageOrigin} is not on the server's allowlist, so the request was never sent.`,
        );
      }
      return because(
        'preflight-status',
        `The preflight was answered ${entry.status}; only 200 or 204 passes, so the browser never sent the request.`,
      );
    }
    if (entry.cors === null) {
      if (/(^|&)cors=off(&|$)/.test(entry.query)) {
        return because(
          'no-cors-headers',
          `${what} carried no CORS headers at all (cors=off): no Access-Control-Allow-Origin, so the page may read nothing.`,
        );
      }
      return because(
        'origin-not-allowed',
        `${what} had no Access-Control-Allow-Origin: ${request.pageOrigin} is not on the server's allowlist.`,
      );
    }
    if (allowOrigin === undefined) {
      return because(
        'origin-not-allowed',
        `${what} had no Access-Control-Allow-Origin: ${request.pageOrigin} is not on the server's allowlist.`,
      );
    }
    if (allowOrigin === '*' && request.credentials) {
      return because(
        'wildcard-with-credentials',
        `${what} allowed any origin (*), which never covers a request with credentials: the origin must be named.`,
      );
    }
    if (allowOrigin !== '*' && allowOrigin !== request.pageOrigin) {
      return because('origin-mismatch', `${what} allowed ${allowOrigin}, not ${request.pageOrigin}.`);
    }
    if (isPreflight) {
      const method = request.method.toUpperCase();
      const methods = listOf(cors['access-control-allow-methods']).map((name) => name.toUpperCase());
      const anyMethod = methods.includes('*') && !request.credentials;
      if (!SIMPLE_METHODS.includes(method) && !anyMethod && !methods.includes(method)) {
        return because('method-not-allowed', `${what} did not list ${method} in Access-Control-Allow-Methods.`);
      }
      const allowed = listOf(cors['access-control-allow-headers']).map((name) => name.toLowerCase());
      const wildcard = allowed.includes('*') && !request.credentials;
      const refused = request.headers.find((name) => {
        const lower = name.toLowerCase();
        // * never covers Authorization: it must be named.
        return !allowed.includes(lower) && !(wildcard && lower !== 'authorization');
      });
      if (refused) {
        return because(
          'header-not-allowed',
          `${what} did not list the request header ${refused} in Access-Control-Allow-Headers.`,
        );
      }
    }
    if (request.credentials && cors['access-control-allow-credentials'] !== 'true') {
      return because(
        'credentials-not-allowed',
        `${what} lacked Access-Control-Allow-Credentials: true, which a request with credentials needs.`,
      );
    }
    return undefined;
  }
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
