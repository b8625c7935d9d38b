/**
 * The one builder of an explanation: what every explanation says when a judge has nothing to add
 * (no rule, no fix, no playground case, no risks), written once.
 */
import { FIX_FOR_REFUSAL, fixFor, type Fix } from '../advice/fixes.js';
import { playgroundFields, type CaseDetail } from '../advice/playground-case.js';
import type { RefusalRule } from '../rules/refusal.js';
import type { Explanation } from './types.js';

/** Where the evidence came from and what it says of the request: the same for every judge of one exchange or message. */
export type Subject = Pick<Explanation, 'source' | 'index' | 'engine' | 'url' | 'origin' | 'method'>;

/** What a judge decides: the verdict and text always, the rest where it differs from the defaults. */
export type Judgement = Pick<Explanation, 'verdict' | 'text'> &
  Partial<Omit<Explanation, keyof Subject | 'verdict' | 'text'>>;

/** An explanation of subject, with the defaults for what the judgement leaves out. */
export function explanation(subject: Subject, judged: Judgement): Explanation {
  return {
    ...subject,
    verdict: judged.verdict,
    rule: judged.rule ?? null,
    step: judged.step ?? null,
    ...(judged.header && { header: judged.header }),
    ...(judged.value !== undefined && { value: judged.value }),
    text: judged.text,
    reachedServer: judged.reachedServer ?? null,
    fix: judged.fix ?? null,
    playground: judged.playground ?? null,
    ...(judged.withCredentials && { withCredentials: judged.withCredentials }),
    ...(judged.candidates && { candidates: judged.candidates }),
    risks: judged.risks ?? [],
    restsOn: judged.restsOn ?? [],
    unknowns: judged.unknowns ?? [],
    sequence: judged.sequence ?? [],
  };
}

/** The fix for a refusal, written for the page's origin and what the request asked. */
export function fixOf(
  rule: RefusalRule,
  origin: string | null,
  method: string | null,
  header: string | undefined,
  preflight: boolean,
): Fix {
  return fixFor(FIX_FOR_REFUSAL[rule], {
    origins: origin && origin !== 'null' ? [origin] : [],
    ...(method && { method }),
    ...(header && { header }),
    ...(preflight && { preflight }),
  });
}

/** The playground's case for a refusal. */
export const fieldsOf = (rule: RefusalRule, detail: CaseDetail) => playgroundFields(rule, detail);
