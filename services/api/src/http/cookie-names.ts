/**
 * The names in a Cookie header, in the order sent, never a value: the pairs split at `;`, each
 * name the text before its `=`. A pair without `=` is a cookie with an empty name (RFC 6265bis),
 * so it gives none.
 */
export function cookieNames(header: string | undefined): string[] {
  if (header === undefined) return [];
  const names: string[] = [];
  for (const pair of header.split(';')) {
    const name = nameOf(pair);
    if (name !== '') names.push(name);
  }
  return names;
}

/**
 * The names of the cookies an answer sets, one per Set-Cookie line, never a value nor an
 * attribute: each line's name is the text before the `=` of its first pair.
 */
export function setCookieNames(header: string | string[] | number | undefined): string[] {
  if (header === undefined) return [];
  const lines = Array.isArray(header) ? header : [String(header)];
  return lines.map((line) => nameOf(line.split(';', 1)[0]!)).filter((name) => name !== '');
}

/** A pair's name: the text before its `=`, trimmed; none without one. */
function nameOf(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? '' : pair.slice(0, equals).trim();
}
