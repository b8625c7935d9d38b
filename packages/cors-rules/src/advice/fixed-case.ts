import { headerList, type Refusal } from '../rules/refusal.js';
import { PREFLIGHT_PREFIX, SPLIT_FIELD } from './playground-address.js';

/**
 * The smallest change to a refused case that lets the page read it: what the Why links as the
 * fixed case. fields are the form's as sent; the refusal is the shared rules' (its rule and stage);
 * method and headers are the request's. A preflight's own policy is changed where the form gives
 * the preflight one (split), else the answer's, which the preflight then copies.
 */
export function fixedCase(
  fields: URLSearchParams,
  refusal: Pick<Refusal, 'rule' | 'stage'>,
  request: { method: string; headers: readonly string[] },
): URLSearchParams {
  const fixed = new URLSearchParams(fields);
  const prefix = refusal.stage === 'preflight' && fields.get(SPLIT_FIELD) === 'on' ? PREFLIGHT_PREFIX : '';
  const field = (name: string) => `${prefix}${name}`;
  /**
   * A list field with names added (and * taken out: it is what failed with credentials). Methods
   * compare byte for byte, header names whatever their case.
   */
  const adding = (name: 'allow-methods' | 'allow-headers', names: readonly string[]) => {
    const same = name === 'allow-methods' ? (a: string) => a : (a: string) => a.toLowerCase();
    const listed = headerList(fixed.get(field(name)) ?? '').filter((item) => item !== '*');
    const known = listed.map(same);
    fixed.set(field(name), [...listed, ...names.filter((item) => !known.includes(same(item)))].join(', '));
  };
  switch (refusal.rule) {
    case 'no-allow-origin':
    case 'origin-mismatch':
    case 'allow-origin-list':
      fixed.set(field('allow-origin'), 'origin');
      break;
    case 'wildcard-with-credentials':
      fixed.set(field('allow-origin'), 'origin');
      fixed.set(field('allow-credentials'), 'on');
      break;
    case 'credentials-not-allowed':
      fixed.set(field('allow-credentials'), 'on');
      break;
    case 'method-not-allowed':
      adding('allow-methods', [request.method]);
      break;
    case 'header-not-allowed':
    case 'authorization-not-covered':
      adding('allow-headers', request.headers);
      break;
    case 'preflight-status':
    case 'preflight-redirect':
      fixed.set('preflight-status', '204');
      break;
  }
  return fixed;
}
