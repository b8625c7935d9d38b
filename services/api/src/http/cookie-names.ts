/**
 * The names in a Cookie header, in the order sent, never a value: the pairs split at `;`, each
 * name the text before its `=`. A pair without `=` is a cookie with an empty name (RFC 6265bis),
 * so it gives none.
 */
export function cookieNames(header: string | undefined): string[] {
  if (header === undefined) return [];
  const names: string[] = [];
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? '' : pair.slice(0, equals).trim();
    if (name !== '') names.push(name);
  }
  return names;
}
