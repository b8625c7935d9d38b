/**
 * The fix for a CORS problem in the server's own stack: the option to change, per framework. One
 * table, read by `check` (per finding) and `explain` (per refusal), so both give the same advice.
 */
import type { Refusal, RefusalRule } from '../rules/refusal.js';
import { FIX_TEXTS, type FixTopic } from './fix-texts.js';
import type { Stack } from './stacks.js';

export { STACKS, STACK_NAMES, type Stack } from './stacks.js';
export type { FixTopic } from './fix-texts.js';

/** What the advice is about: the origins to allow, and what the request needs. */
export interface FixContext {
  /** The origins that should be allowed (the user's own), serialized. */
  origins: readonly string[];
  method?: string;
  header?: string;
  /** The preflight's answer is the one to change. */
  preflight?: boolean;
}

export interface Fix {
  topic: FixTopic;
  /** The rule, in a sentence that holds for every stack. */
  summary: string;
  /** The change, per stack. */
  byStack: Record<Stack, string>;
}

const list = (items: readonly string[], quote = '"') => items.map((item) => `${quote}${item}${quote}`).join(', ');

/** The fix for one topic, with the user's origins (and method or header) written in. */
export function fixFor(topic: FixTopic, context: FixContext): Fix {
  const origins = context.origins.length > 0 ? context.origins : ['https://app.example.com'];
  const facts = {
    preflight: context.preflight,
    origins,
    o: list(origins),
    single: origins[0]!,
    method: context.method ?? 'PUT',
    header: context.header ?? 'Authorization',
  };
  return { topic, ...FIX_TEXTS[topic](facts) };
}

/** The fix each refusal of the Fetch rules calls for. */
export const FIX_FOR_REFUSAL = {
  'no-allow-origin': 'allow-origin',
  'origin-mismatch': 'allow-origin',
  'allow-origin-list': 'allow-origin',
  'wildcard-with-credentials': 'credentials',
  'credentials-not-allowed': 'credentials',
  'method-not-allowed': 'methods',
  'header-not-allowed': 'headers',
  'authorization-not-covered': 'headers',
  'preflight-status': 'preflight-ok',
  'preflight-redirect': 'preflight-no-redirect',
} as const satisfies Record<RefusalRule, FixTopic>;

/**
 * The fix for one refusal of the shared rules, written for the page's origin, the request's
 * method and what the preflight did not allow (the playground's and every page's Why).
 */
export function fixForRefusal(
  refusal: Pick<Refusal, 'rule' | 'asked'> & Partial<Pick<Refusal, 'stage'>>,
  origin: string,
  method: string,
): Fix {
  return fixFor(FIX_FOR_REFUSAL[refusal.rule], {
    origins: [origin],
    method,
    ...(refusal.asked !== undefined && { header: refusal.asked }),
    ...(refusal.stage === 'preflight' && { preflight: true }),
  });
}
