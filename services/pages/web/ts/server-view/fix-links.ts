import { fixedCase, fixForRefusal, playgroundAddress, playgroundFields } from '@origin-lab/cors-rules/advice';
import type { Refusal } from '@origin-lab/cors-rules';
import { h } from '../frame/dom.js';
import type { TrafficEntry } from '../frame/waterfall.js';

/**
 * What the Why adds to a refusal: the smallest fix (the advice `check` and `explain` give) and
 * the playground's case of the same refusal, as it is and fixed.
 */
export function fixOf(refusal: Refusal, request: TrafficEntry, pageOrigin: string): (string | HTMLElement)[] {
  // What the preflight did not allow: the method (which the method's case reads from detail.method) or a header.
  const header = refusal.asked;
  const detail = { method: request.method, ...(header && { header }) };
  const fix = fixForRefusal(refusal, pageOrigin, request.method);
  const refused = new URLSearchParams(playgroundFields(refusal.rule, detail));
  const fixed = fixedCase(refused, refusal, {
    method: refused.get('method') ?? request.method,
    headers: header ? [header] : [],
  });
  return [
    ' ',
    h('span', { class: 'fix' }, `The fix: ${fix.summary}`),
    ' In the playground: ',
    h('a', { href: playgroundAddress(refused), class: 'refused-case' }, 'the same refusal'),
    ', ',
    h('a', { href: playgroundAddress(fixed), class: 'fixed-case' }, 'fixed'),
    '.',
  ];
}
