import type { RefusalRule } from '../rules/refusal.js';
import { isSafelistedMethod } from '../rules/safelist.js';
import { playgroundAddress } from './playground-address.js';

/**
 * The playground case that shows a problem happen against the lab (`/playground.html#<case>`):
 * the lab policy and the request, in the playground's own fields, so a learner sees the same
 * refusal and can change one thing at a time. `check` links one per finding, `explain` one per
 * refusal.
 */

/** What a case is about beyond the Fetch rules' refusals: the risks `check` finds. */
export type RiskKind =
  | 'hostile-read-credentials'
  /** Another origin's preflight approved with credentials: it may send Authorization and custom headers as the user. */
  | 'hostile-preflight'
  /** Another origin's preflight approved a method that changes state, with credentials. */
  | 'hostile-write'
  | 'hostile-read'
  | 'null-trusted'
  | 'missing-vary'
  | 'wildcard'
  /** The server refuses a request that is not same-origin itself (403): not CORS. */
  | 'fetch-metadata';

export interface CaseDetail {
  /** The method the request used (a preflighted method case shows it). */
  method?: string;
  /** The header the preflight refused. */
  header?: string;
  /** The preflight's status. */
  status?: number;
  /** The refusal came from the preflight's answer: the case preflights too. */
  preflight?: boolean;
}

/** A method or header name as the playground's fields take it; anything else falls back to a demo name. */
const token = (value: string | undefined, fallback: string) =>
  value !== undefined && /^[A-Za-z][A-Za-z0-9-]{0,39}$/.test(value) ? value : fallback;

/** The playground's fields for a refusal or a risk (only those that differ from the form's defaults). */
export function playgroundFields(kind: RefusalRule | RiskKind, detail: CaseDetail = {}): Record<string, string> {
  const method = token(detail.method && !isSafelistedMethod(detail.method) ? detail.method : undefined, 'PUT');
  // An origin refused at the preflight: a preflighted method, allowed, so the origin is all that fails.
  const preflighted: Record<string, string> = detail.preflight ? { method, 'allow-methods': method } : {};
  switch (kind) {
    case 'no-allow-origin':
      return { ...preflighted, 'allow-origin': 'none' };
    case 'origin-mismatch':
      return { ...preflighted, 'allow-origin': 'other' };
    case 'allow-origin-list':
      return { ...preflighted, 'allow-origin': 'two' };
    case 'wildcard-with-credentials':
      return { 'allow-origin': '*', 'allow-credentials': 'on', credentials: 'include' };
    case 'credentials-not-allowed':
      return { credentials: 'include' };
    case 'method-not-allowed':
      return { method, 'allow-methods': 'GET, POST' };
    case 'header-not-allowed':
      return detail.header?.toLowerCase() === 'authorization'
        ? { headers: 'Authorization: Bearer demo' }
        : { headers: `${token(detail.header, 'X-Demo')}: 1` };
    case 'authorization-not-covered':
      return { headers: 'Authorization: Bearer demo', 'allow-headers': '*' };
    case 'preflight-status':
      return {
        method,
        'allow-methods': method,
        'preflight-status': String([401, 404, 500].includes(detail.status ?? 0) ? detail.status : 401),
      };
    case 'preflight-redirect':
      return { method, 'allow-methods': method, 'preflight-status': '301' };
    case 'fetch-metadata':
      return { method: 'POST', body: 'string', protect: 'on' };
    case 'hostile-read-credentials':
      return { 'allow-origin': 'origin', 'allow-credentials': 'on', credentials: 'include' };
    case 'hostile-preflight':
      return {
        'allow-origin': 'origin',
        'allow-credentials': 'on',
        credentials: 'include',
        headers: 'Authorization: Bearer demo',
        'allow-headers': 'Authorization',
      };
    case 'hostile-write':
      return {
        method,
        'allow-methods': method,
        'allow-origin': 'origin',
        'allow-credentials': 'on',
        credentials: 'include',
      };
    case 'hostile-read':
      return { 'allow-origin': 'origin' };
    case 'null-trusted':
      // Any sandboxed frame says Origin: null: the lab allows that word, the frame reads.
      return { from: 'sandbox', 'allow-origin': 'null' };
    case 'missing-vary':
      return { 'allow-origin': 'origin', vary: 'off' };
    case 'wildcard':
      return { 'allow-origin': '*' };
  }
}

/**
 * The playground's address for a case: base is where the lab runs (its pages' origin), the
 * fragment its fields sorted by name, as the playground writes a shared link.
 */
export function playgroundLink(base: string, kind: RefusalRule | RiskKind, detail: CaseDetail = {}): string {
  return playgroundAddress(playgroundFields(kind, detail), base);
}
