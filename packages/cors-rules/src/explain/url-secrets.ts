// What of a URL is never repeated: the user name and password (scheme://user:pass@host), every
// query value (?access_token=…) and the fragment (#id_token=…). A key or a token travels in any of
// them, under any name, and none of them changes a CORS answer: the origin and the path still say
// which request it was. One rule, for a URL on its own (an option's value, a HAR entry's URL) and
// for the URLs inside a text (a console line, an explanation's sentences).

const HIDDEN = '…';

/** "a=1&b&c=" → "a=…&b&c=": each value hidden, each name kept. */
function hideQueryValues(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 || equals === pair.length - 1 ? pair : `${pair.slice(0, equals + 1)}${HIDDEN}`;
    })
    .join('&');
}

/** The query and fragment of a URL's rest (what follows its authority), values and fragment hidden. */
function hideRest(rest: string): string {
  const hash = rest.indexOf('#');
  const beforeHash = hash === -1 ? rest : rest.slice(0, hash);
  const fragment = hash === -1 ? '' : `#${HIDDEN}`;
  const question = beforeHash.indexOf('?');
  if (question === -1) return `${beforeHash}${fragment}`;
  return `${beforeHash.slice(0, question + 1)}${hideQueryValues(beforeHash.slice(question + 1))}${fragment}`;
}

/**
 * One URL as it was written, its secrets hidden. The authority ends where the URL parser ends it
 * (at / \ ? #), so a password holding spaces, quotes or an @ is hidden whole; http:user:pass@host
 * (no slashes, which the parser accepts) too.
 */
export function hideUrlSecrets(url: string): string {
  // The parser drops spaces and control characters before the scheme: so does the scheme's match.
  const scheme = /^[\0-\x20]*[a-z][a-z0-9+.-]*:[/\\]*/i.exec(url)?.[0] ?? '';
  const afterScheme = url.slice(scheme.length);
  const authorityEnd = afterScheme.search(/[/\\?#]/);
  const authority = authorityEnd === -1 ? afterScheme : afterScheme.slice(0, authorityEnd);
  const rest = authorityEnd === -1 ? '' : afterScheme.slice(authorityEnd);
  const at = scheme ? authority.lastIndexOf('@') : -1;
  const host = at === -1 ? authority : `${HIDDEN}${authority.slice(at)}`;
  return `${scheme}${host}${hideRest(rest)}`;
}

/**
 * A URL inside a text: from its scheme to the first space, quote (Firefox's are curly) or angle
 * bracket, less the punctuation that ends a sentence or a bracket around it, which is captured
 * apart (the URL's last value may end in such punctuation, or be nothing else).
 */
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/[^\s"'“”‘’<>`]*[^\s"'“”‘’<>`.,;:!?)\]])([.,;:!?)\]]*)/gi;

/** Where a list of URLs joined by commas alone (no space) starts its next URL. */
const NEXT_URL_IN_LIST = /,(?=[a-z][a-z0-9+.-]*:\/\/)/i;

/**
 * A text with every URL in it (scheme://…) written with its secrets hidden. A comma may be part
 * of a URL, so URLs joined by commas alone match as one: each is hidden on its own, or the user
 * name and password of every URL but the first would read as a path.
 */
export function hideUrlSecretsIn(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (_, url: string, punctuation: string) => {
    // After a URL with a query or a fragment, one mark ends the sentence (or closes a bracket);
    // more belong to the last value, hidden with it but the last mark (`?t=!!!.` is t's value
    // "!!!", then a full stop). A mark that was the value's own last is shown; never more.
    const shown = punctuation.length > 1 && /[?#]/.test(url) ? punctuation.slice(-1) : punctuation;
    const whole = url + punctuation.slice(0, punctuation.length - shown.length);
    const hidden = whole.includes(',')
      ? whole.split(NEXT_URL_IN_LIST).map(hideUrlSecrets).join(',')
      : hideUrlSecrets(whole);
    return `${hidden}${shown}`;
  });
}
