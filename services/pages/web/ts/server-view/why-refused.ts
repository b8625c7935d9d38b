import type { ServerJournalEntry } from '@origin-lab/contract';
import { refusalOf, type Answer, type Refusal, type RefusalRule } from '@origin-lab/cors-rules/refusal';
import { isLoopbackHost } from '@origin-lab/cors-rules/engine-facts';

/**
 * Why a cross-origin request failed, or could not be read, named from what the server answered
 * (the visitor's journal) and what the request carried. Never from what an experiment expected.
 * The reasons are the shared CORS rules' (@origin-lab/cors-rules refusalOf); this adds what only
 * the journal knows: whether the handler ran, the api's allowlist and its ?cors=off.
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
  /** The name fetch rejected with (TypeError, NotSupportedError, TimeoutError...), when it did. */
  failure?: string | null;
  /** Where it went (absolute), when known: a loopback or private address names Local Network Access. */
  url?: string;
}

/** What the server saw of it: the preflight and the request itself, when they arrived. */
export interface ServerFacts {
  preflight?: ServerJournalEntry;
  actual?: ServerJournalEntry;
}

export type Rule =
  'read' | 'not-reached' | 'local-network' | 'not-sent' | 'origin-not-allowed' | 'no-cors-headers' | RefusalRule;

/** A private address as Local Network Access counts them: 10/8, 172.16/12, 192.168/16, fc00::/7. */
const PRIVATE = /^(10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|f[cd][0-9a-f]{2}:)/;

type Space = 'loopback' | 'private' | 'public';
const RANK: Record<Space, number> = { loopback: 0, private: 1, public: 2 };

/** The address space of a URL's host as its name shows it (a name that is not loopback counts as public); null if unreadable. */
function spaceOf(url: string): Space | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null;
  }
  return isLoopbackHost(host) ? 'loopback' : PRIVATE.test(host) ? 'private' : 'public';
}

/**
 * The address space a request went to, when Local Network Access asks about it: a loopback or
 * private target from a page in a more public space. From a page on loopback nothing is asked
 * (unless the browser was told to count it public, which the page cannot know): null.
 */
function localSpace(url: string | undefined, pageOrigin: string): Space | null {
  const target = url === undefined ? null : spaceOf(url);
  const page = spaceOf(pageOrigin);
  return target !== null && target !== 'public' && page !== null && RANK[page] > RANK[target] ? target : null;
}

export interface Explanation {
  rule: Rule;
  /** One sentence for people. */
  text: string;
  /** Whether the handler ran, and what it answered. */
  handled: boolean;
  status?: number;
  /** The shared rules' refusal, where they decided: its stage and the header at fault (what a fix changes). */
  refusal?: Refusal;
}

/** A journal entry as the rules read an answer: its status and its Access-Control-* headers. */
const answerOf = (entry: ServerJournalEntry | undefined): Answer | undefined =>
  entry && { status: entry.status, headers: entry.cors ?? {} };

export function explain(request: RequestFacts, server: ServerFacts): Explanation {
  const { preflight, actual } = server;
  const handled = actual !== undefined;
  const status = actual?.status;
  const because = (rule: Rule, text: string, refusal?: Refusal): Explanation => ({
    rule,
    text,
    handled,
    ...(status !== undefined && { status }),
    ...(refusal && { refusal }),
  });

  if (request.read) {
    return because(
      'read',
      handled ? `The server answered ${status} and allowed this origin to read it.` : 'The page read the answer.',
    );
  }
  // Any rejection but TypeError comes from the page or the browser before the request left.
  if (!preflight && !actual && request.failure && request.failure !== 'TypeError' && /Error$/.test(request.failure))
    return because(
      'not-sent',
      `fetch rejected with ${request.failure} before anything reached the server: the page or the browser stopped the request, not the network and not CORS.`,
    );
  const space = localSpace(request.url, request.pageOrigin);
  if (!preflight && !actual && space !== null)
    return because(
      'local-network',
      `Not CORS: Local Network Access. The request was for a ${space} address and never reached the server: a browser that counts this page as public asks the user first, and refused, the request never leaves. The console may still say "CORS policy".`,
    );
  if (!preflight && !actual) {
    return because(
      'not-reached',
      'The request never reached the server: a network, DNS or certificate failure, or Local Network Access (not CORS), which keeps a public page from a loopback or private address the user did not allow. Each is the same TypeError.',
    );
  }
  // The api answers a preflight from an origin off its allowlist 403, with no CORS headers.
  if (preflight && !actual && preflight.status === 403 && !preflight.cors?.['access-control-allow-origin'])
    return because(
      'origin-not-allowed',
      `The preflight was refused (403): ${request.pageOrigin} is not on the server's allowlist, so the request was never sent.`,
    );
  const refusal = refusalOf(
    {
      origin: request.pageOrigin,
      method: request.method,
      unsafeHeaders: request.headers,
      credentials: request.credentials,
    },
    { preflight: answerOf(preflight), actual: answerOf(actual) },
  );
  if (refusal?.rule === 'no-allow-origin') {
    const entry = refusal.stage === 'preflight' ? preflight : actual;
    const what =
      refusal.stage === 'preflight'
        ? 'The preflight (OPTIONS)'
        : `The server handled the request (status ${status}) but its answer`;
    if (entry?.cors === null && /(^|&)cors=off(&|$)/.test(entry.query))
      return because(
        'no-cors-headers',
        `${what} carried no CORS headers at all (cors=off): no Access-Control-Allow-Origin, so the page may read nothing.`,
      );
    return because(
      'origin-not-allowed',
      `${what} had no Access-Control-Allow-Origin: ${request.pageOrigin} is not on the server's allowlist.`,
      refusal,
    );
  }
  if (refusal) return because(refusal.rule, refusal.text, refusal);
  if (preflight && !actual)
    return because('preflight-status', 'The preflight passed, but the request itself never arrived.');
  return because('read', `The server answered ${status}; the page should have been able to read it.`);
}

/** Requests that one explanation covers, and that explanation. */
export interface ExplainedGroup<T> {
  explanation: Explanation;
  items: T[];
}

/**
 * Requests whose explanations say the same thing (the same rule and sentence, the handler run
 * or not with the same status), in the order each explanation first came: a reason is given
 * once, with the requests it covers, not once per request.
 */
export function groupByExplanation<T>(
  items: readonly T[],
  explanationOf: (item: T) => Explanation,
): ExplainedGroup<T>[] {
  const groups = new Map<string, ExplainedGroup<T>>();
  for (const item of items) {
    const explanation = explanationOf(item);
    const key = JSON.stringify([explanation.rule, explanation.text, explanation.handled, explanation.status]);
    const group = groups.get(key);
    if (group) group.items.push(item);
    else groups.set(key, { explanation, items: [item] });
  }
  return [...groups.values()];
}
