/** Pure statements of the spec's CORS rules, used for predictions and checked by unit tests. */

/** The seven response headers a cross-origin page may read without Access-Control-Expose-Headers. */
export const SAFELISTED_RESPONSE_HEADERS = [
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
] as const;

export function isSafelistedResponseHeader(name: string): boolean {
  return (SAFELISTED_RESPONSE_HEADERS as readonly string[]).includes(name.toLowerCase());
}

/** A byte below 0x20 other than tab, one of "():<>?@[\]{}, or DEL. */
export function hasCorsUnsafeByte(value: string): boolean {
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || '"():<>?@[\\]{}'.includes(ch)) return true;
  }
  return false;
}

/** The CORS-safelisted methods (Fetch): a request with another one preflights. Compared byte for byte. */
export const SAFELISTED_METHODS = ['GET', 'HEAD', 'POST'] as const;

/** Whether a method, as the request sends it, is CORS-safelisted (byte for byte: normalize first). */
export function isSafelistedMethod(method: string): boolean {
  return (SAFELISTED_METHODS as readonly string[]).includes(method);
}

/** The longest value a safelisted request header may have, in bytes. */
export const SAFELISTED_VALUE_LIMIT = 128;
/** The limit on all safelisted request header values together, in bytes. */
export const SAFELISTED_TOTAL_LIMIT = 1024;

const LANGUAGE_VALUE = /^[0-9A-Za-z *,\-.;=]*$/;
const FORM_ESSENCES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** Whether one request header (name, value) is CORS-safelisted, per the spec's table. */
export function isSafelistedRequestHeader(name: string, value: string): boolean {
  if (new TextEncoder().encode(value).length > SAFELISTED_VALUE_LIMIT) return false;
  switch (name.toLowerCase()) {
    case 'accept':
      return !hasCorsUnsafeByte(value);
    case 'accept-language':
    case 'content-language':
      return LANGUAGE_VALUE.test(value);
    case 'content-type': {
      if (hasCorsUnsafeByte(value)) return false;
      const essence = value.split(';')[0]?.trim().toLowerCase() ?? '';
      return FORM_ESSENCES.includes(essence);
    }
    case 'range':
      return /^bytes=\d+-\d*$/.test(value);
    default:
      return false;
  }
}

/** Whether a cross-origin request with this method and these script-set headers preflights. */
export function needsPreflight(method: string, headers: [string, string][], forced = false): boolean {
  return forced || !isSafelistedMethod(normalizeMethod(method)) || unsafeHeaderNames(headers).length > 0;
}

/**
 * The names a preflight must allow (Fetch, "CORS-unsafe request-header names"): each header that
 * is not safelisted, and every one of them when the safelisted values add up to more than 1024
 * bytes. Lower case, sorted, once each, as Access-Control-Request-Headers carries them.
 */
export function unsafeHeaderNames(headers: readonly (readonly [string, string])[]): string[] {
  const unsafe = new Set<string>();
  const safelisted: string[] = [];
  let total = 0;
  for (const [name, value] of headers) {
    if (isSafelistedRequestHeader(name, value)) {
      safelisted.push(name.toLowerCase());
      total += new TextEncoder().encode(value).length;
    } else unsafe.add(name.toLowerCase());
  }
  if (total > SAFELISTED_TOTAL_LIMIT) safelisted.forEach((name) => unsafe.add(name));
  return [...unsafe].sort();
}

/** A method as fetch and XMLHttpRequest send it: DELETE, GET, HEAD, OPTIONS, POST and PUT upper-cased, any other as written. */
export function normalizeMethod(method: string): string {
  const upper = method.toUpperCase();
  return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'].includes(upper) ? upper : method;
}
