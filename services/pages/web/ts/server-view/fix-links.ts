import { FIX_FOR_REFUSAL, fixFor, playgroundFields } from '@origin-lab/cors-rules/advice';
import type { Refusal } from '@origin-lab/cors-rules';
import { h } from '../frame/dom.js';
import type { TrafficEntry } from '../frame/waterfall.js';
import { fixedCase } from '../playground/fixed-case.js';

/** A playground address for a set of its fields, sorted as the playground writes a shared link. */
function playgroundHref(fields: URLSearchParams): string {
  fields.sort();
  return `/playground.html#${fields.toString()}`;
}

/**
 * What the Why adds to a refusal: the smallest fix (the advice `check` and `explain` give) and
 * the playground's case of the same refusal, as it is and fixed.
 */
export function fixOf(refusal: Refusal, request: TrafficEntry, pageOrigin: string): (string | HTMLElement)[] {
  const header = refusal.rule === 'method-not-allowed' ? undefined : refusal.asked;
  const detail = { method: request.method, ...(header && { header }) };
  const fix = fixFor(FIX_FOR_REFUSAL[refusal.rule], { origins: [pageOrigin], ...detail });
  const refused = new URLSearchParams(playgroundFields(refusal.rule, detail));
  const fixed = fixedCase(refused, refusal, {
    method: refused.get('method') ?? request.method,
    headers: header ? [header] : [],
  });
  return [
    ' ',
    h('span', { class: 'fix' }, `The fix: ${fix.summary}`),
    ' In the playground: ',
    h('a', { href: playgroundHref(refused), class: 'refused-case' }, 'the same refusal'),
    ', ',
    h('a', { href: playgroundHref(fixed), class: 'fixed-case' }, 'fixed'),
    '.',
  ];
}
