/**
 * The session file of `origin-lab check --session <file>`: the cookies of a signed-in session for
 * the user's own target URL, which the check sets in each engine so that its requests carry them.
 * This file only reads the file's text and says whether the check can use it; setting the cookies
 * is the drivers' business.
 *
 * Three formats, told apart by the text itself: a Playwright storage state (what
 * context.storageState() writes), a Netscape cookies.txt (curl -c, wget, browser extensions), and a
 * Cookie header line copied from the developer tools. Of the file's cookies, only those the
 * target's URL would be sent are kept (RFC 6265: domain match, path match, Secure only over https,
 * not expired); the others are counted and left out, never set. What browsers refuse to set (a
 * SameSite=None or Partitioned cookie without Secure, a __Host- or __Secure- name without what its
 * prefix demands) is refused here, for the cookies kept, so the check never runs without a cookie
 * the user thinks it has.
 *
 * A cookie's value is the user's secret: no message here contains one, nor anything read where a
 * value could stand (a JSON parser's excerpt of the text, a field of a line that did not parse, a
 * cookie name that is not one).
 */

import { isIP } from 'node:net';
import type { SessionCookieSpec } from '../drivers/driver.js';

/** One cookie of the session, as the check sets it in an engine: the drivers' own shape. */
export type SessionCookie = SessionCookieSpec;
export type SameSite = NonNullable<SessionCookie['sameSite']>;

/** The three formats a session file may be in, detected from its text in this order. */
export type SessionFormat = 'playwright' | 'netscape' | 'cookie-line';

/** A session file as the check uses it: the cookies to set for the target, and how many were not. */
export interface Session {
  format: SessionFormat;
  /** The cookies the target's URL would be sent (domain and path match; a Secure one only for https). */
  cookies: SessionCookie[];
  /** How many cookies of the file are for other hosts or paths or expired (left out, never set). */
  leftOut: number;
}

/** The limits, explicit: file size and cookie count. */
export const SESSION_LIMITS = { maxBytes: 1_048_576, maxCookies: 100 } as const;

/** A session file the check cannot use: the message names what is wrong and where (line, cookie name), never a cookie's value. */
export class SessionError extends Error {
  override name = 'SessionError';
}

/** A cookie as read, and where in the file: "line 4 of the session file", "cookie 3 of the storage state". */
interface ReadCookie {
  cookie: SessionCookie;
  at: string;
}

const SAME_SITES: readonly SameSite[] = ['Strict', 'Lax', 'None'];

const FORMAT_NAMES: Record<SessionFormat, string> = {
  playwright: 'a Playwright storage state',
  netscape: 'a cookies.txt',
  'cookie-line': 'a Cookie line',
};

/**
 * Reads a session file's text (format detected from the text) for the target URL. Throws SessionError.
 * now (Unix seconds) decides which cookies have expired.
 */
export function readSession(text: string, target: URL, now: number = Date.now() / 1000): Session {
  const body = checkedText(text);
  const format = detectFormat(body);
  const read =
    format === 'playwright'
      ? readStorageState(body)
      : format === 'netscape'
        ? readCookiesTxt(body)
        : readCookieLine(body, target);
  if (read.length === 0) throw new SessionError(`the session file, read as ${FORMAT_NAMES[format]}, has no cookies`);

  const { kept, reasons } = sortOut(read, target, now);
  if (kept.length === 0) throw new SessionError(noneApplies(read.length, reasons, target));
  const cookies = withoutDuplicates(kept, format === 'cookie-line');
  cookies.forEach(checkSettable);
  if (cookies.length > SESSION_LIMITS.maxCookies) {
    throw new SessionError(
      `the session file has ${cookies.length} cookies for ${shown(target)}; the check sets at most ${SESSION_LIMITS.maxCookies}`,
    );
  }
  return { format, cookies: cookies.map((one) => one.cookie), leftOut: read.length - cookies.length };
}

/**
 * The Cookie header value a browser would send to url with these cookies (name=value; ...), or null when none applies.
 * Domain, path and Secure decide, and the longer paths come first (RFC 6265 §5.4), then the file's
 * order. Expiry is readSession's to judge (it knows the time), SameSite and partitions the
 * engine's: this is the header of a same-site request.
 */
export function cookieHeaderFor(cookies: readonly SessionCookie[], url: URL): string | null {
  const sent = cookies
    .filter((cookie) => domainMatches(cookie, url.hostname) && pathMatches(cookie.path, url.pathname))
    .filter((cookie) => !cookie.secure || url.protocol === 'https:')
    .sort((a, b) => b.path.length - a.path.length);
  return sent.length === 0 ? null : sent.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

// The text: its size, and which format it is in.

function checkedText(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > SESSION_LIMITS.maxBytes) {
    throw new SessionError(`the session file has ${bytes} bytes; the check reads at most ${SESSION_LIMITS.maxBytes}`);
  }
  // Editors on Windows start a UTF-8 file with a byte order mark.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') throw new SessionError('the session file is empty');
  return body;
}

/**
 * JSON starts with a brace or a bracket, which no cookie name and no cookies.txt domain does. One
 * line without a tab that is not a comment is a Cookie line; anything else is read as cookies.txt,
 * whose line errors then say what is wrong.
 */
function detectFormat(body: string): SessionFormat {
  const first = body.trimStart()[0];
  if (first === '{' || first === '[') return 'playwright';
  const lines = body.split(/\r?\n/).filter((line) => line.trim() !== '');
  const only = lines.length === 1 ? lines[0] : undefined;
  if (only !== undefined && !only.includes('\t') && !only.startsWith('#')) return 'cookie-line';
  return 'netscape';
}

// A Playwright storage state: {"cookies": [...], "origins": [...]}. The origins (local storage) are
// not cookies, and the check does not set them.

function readStorageState(body: string): ReadCookie[] {
  let state: unknown;
  try {
    state = JSON.parse(body);
  } catch {
    // The parser's message quotes the text around the error, which may be a value: not shown.
    throw new SessionError('the session file starts with "{" or "[" but is not valid JSON');
  }
  if (!isRecord(state) || !Array.isArray(state.cookies)) {
    throw new SessionError(
      'the session file is JSON but not a Playwright storage state, which is an object with a "cookies" list (what context.storageState() writes)',
    );
  }
  return state.cookies.map((entry: unknown, index) => storageCookie(entry, `cookie ${index + 1} of the storage state`));
}

function storageCookie(entry: unknown, at: string): ReadCookie {
  if (!isRecord(entry)) throw new SessionError(`${at} is not an object`);
  const name = field(entry, 'name', 'string', at);
  const value = field(entry, 'value', 'string', at);
  const domain = field(entry, 'domain', 'string', at);
  if (name === undefined || value === undefined || domain === undefined) {
    throw new SessionError(`${at} lacks a "name", "value" or "domain" string; a storage state's cookie has all three`);
  }
  const path = field(entry, 'path', 'string', at) ?? '/';
  const expires = field(entry, 'expires', 'number', at) ?? -1;
  if (!Number.isFinite(expires) || (expires < 0 && expires !== -1)) {
    throw new SessionError(`${at} has an "expires" that is neither Unix seconds nor -1 (a session cookie)`);
  }
  const cookie: SessionCookie = {
    name,
    value,
    ...domainOf(domain, domain.startsWith('.'), at),
    path: checkedPath(path, at),
    secure: field(entry, 'secure', 'boolean', at) ?? false,
    httpOnly: field(entry, 'httpOnly', 'boolean', at) ?? false,
    sameSite: sameSiteOf(entry.sameSite, at),
    partitioned: field(entry, 'partitionKey', 'string', at) !== undefined,
    expires,
  };
  return { cookie, at };
}

interface FieldKinds {
  string: string;
  boolean: boolean;
  number: number;
}

const KIND_WORDS: Record<keyof FieldKinds, string> = {
  string: 'a string',
  boolean: 'true or false',
  number: 'a number',
};

/** A storage-state cookie's field: undefined where absent (or null), a SessionError where of another type. */
function field<K extends keyof FieldKinds>(
  entry: Record<string, unknown>,
  key: string,
  kind: K,
  at: string,
): FieldKinds[K] | undefined {
  const found = entry[key];
  if (found === undefined || found === null) return undefined;
  if (typeof found !== kind) throw new SessionError(`${at} has a "${key}" that is not ${KIND_WORDS[kind]}`);
  return found as FieldKinds[K];
}

function sameSiteOf(given: unknown, at: string): SameSite | null {
  if (given === undefined || given === null) return null;
  const known = SAME_SITES.find((sameSite) => sameSite === given);
  if (known !== undefined) return known;
  // A short word is shown ("none", "unspecified"): it helps, and no value stands there.
  const word = typeof given === 'string' && /^[A-Za-z]{1,16}$/.test(given) ? ` ("${given}")` : '';
  throw new SessionError(`${at} has a "sameSite"${word} that is not "Strict", "Lax" or "None"`);
}

// A Netscape cookies.txt: one cookie a line, seven fields separated by tabs. "#" starts a comment,
// except "#HttpOnly_" before the domain, which marks an HttpOnly cookie (curl's convention).

const HTTP_ONLY_PREFIX = '#HttpOnly_';

const COOKIES_TXT_FIELDS = ['domain', 'include subdomains', 'path', 'secure', 'expiry', 'name', 'value'] as const;
type CookiesTxtFields = [string, string, string, string, string, string, string];

function readCookiesTxt(body: string): ReadCookie[] {
  const read: ReadCookie[] = [];
  body.split(/\r?\n/).forEach((line, index) => {
    const cookie = cookiesTxtLine(line, index + 1);
    if (cookie !== null) read.push(cookie);
  });
  return read;
}

function cookiesTxtLine(raw: string, lineNumber: number): ReadCookie | null {
  if (raw.trim() === '') return null;
  const httpOnly = raw.startsWith(HTTP_ONLY_PREFIX);
  if (!httpOnly && raw.startsWith('#')) return null;
  const at = `line ${lineNumber} of the session file`;
  const fields = (httpOnly ? raw.slice(HTTP_ONLY_PREFIX.length) : raw).split('\t');
  if (fields.length !== COOKIES_TXT_FIELDS.length) throw new SessionError(fieldCountMessage(at, fields.length, raw));
  const [domain, subdomains, path, secure, expiry, name, value] = fields as CookiesTxtFields;
  const cookie: SessionCookie = {
    name,
    value,
    ...domainOf(domain, flag(subdomains, 2, at) || domain.startsWith('.'), at),
    path: checkedPath(path, at),
    secure: flag(secure, 4, at),
    httpOnly,
    sameSite: null,
    partitioned: false,
    expires: expiryOf(expiry, at),
  };
  return { cookie, at };
}

function fieldCountMessage(at: string, count: number, raw: string): string {
  const fields = count === 1 ? '1 field' : `${count} fields`;
  // Copied through a web page or a chat, a cookies.txt's tabs often arrive as spaces.
  const spaces = !raw.includes('\t') && raw.includes(' ') ? ' (this line has spaces and no tab)' : '';
  return `${at} has ${fields}; a cookies.txt line has ${COOKIES_TXT_FIELDS.length}, separated by tabs${spaces}`;
}

/** Field number (1-based) of a TRUE/FALSE field: curl reads either case. */
function flag(text: string, number: number, at: string): boolean {
  const upper = text.toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') return upper === 'TRUE';
  throw new SessionError(
    `${at}: the ${ordinal(number)} field (${COOKIES_TXT_FIELDS[number - 1]}) is not TRUE or FALSE`,
  );
}

/** Unix seconds; 0 is a session cookie (as curl and wget write one). */
function expiryOf(text: string, at: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) {
    throw new SessionError(`${at}: the 5th field (expiry) is not Unix seconds (0 for a session cookie)`);
  }
  const seconds = Number(text);
  return seconds === 0 ? -1 : seconds;
}

// A Cookie header line: "Cookie: a=1; b=2", the prefix optional. Each pair is a cookie for the
// target's host alone, on every path, Secure when the target is https.

function readCookieLine(body: string, target: URL): ReadCookie[] {
  const pairs = body
    .trim()
    .replace(/^cookie\s*:/i, '')
    .split(';')
    // "a=1; b=2;" and "a=1;; b=2" have an empty pair, which no browser sends: skipped, not counted.
    .filter((pair) => pair.trim() !== '');
  return pairs.map((pair, index) => {
    const at = `the ${ordinal(index + 1)} pair of the Cookie line`;
    const equals = pair.indexOf('=');
    if (equals < 0) throw new SessionError(`${at} has no "="; a Cookie line is name=value pairs separated by "; "`);
    const cookie: SessionCookie = {
      name: pair.slice(0, equals).trim(),
      value: pair.slice(equals + 1).trim(),
      domain: target.hostname.toLowerCase(),
      hostOnly: true,
      path: '/',
      secure: target.protocol === 'https:',
      httpOnly: false,
      sameSite: null,
      partitioned: false,
      expires: -1,
    };
    return { cookie, at };
  });
}

// What both files say of each cookie: the domain and the path.

function domainOf(given: string, subdomains: boolean, at: string): Pick<SessionCookie, 'domain' | 'hostOnly'> {
  const domain = given.replace(/^\./, '').toLowerCase();
  if (domain === '' || /\s/.test(domain)) throw new SessionError(`${at} has an empty domain, or one with a space`);
  return { domain, hostOnly: !subdomains };
}

function checkedPath(path: string, at: string): string {
  if (path === '') return '/';
  if (!path.startsWith('/')) throw new SessionError(`${at} has a path that does not start with "/"`);
  return path;
}

// Which cookies the target is sent (RFC 6265 §5.1.3, §5.1.4, §5.4), and why the others are not.

function sortOut(read: ReadCookie[], target: URL, now: number): { kept: ReadCookie[]; reasons: Map<string, number> } {
  const kept: ReadCookie[] = [];
  const reasons = new Map<string, number>();
  for (const one of read) {
    const why = whyLeftOut(one.cookie, target, now);
    if (why === null) kept.push(one);
    else reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  return { kept, reasons };
}

/** Why the target is not sent this cookie, in words for the message; null when it is. */
function whyLeftOut(cookie: SessionCookie, target: URL, now: number): string | null {
  const host = target.hostname.toLowerCase();
  if (!domainMatches(cookie, host)) {
    return cookie.hostOnly && host.endsWith(`.${cookie.domain}`)
      ? `for ${cookie.domain} only (host-only)`
      : `for ${cookie.domain}`;
  }
  if (!pathMatches(cookie.path, target.pathname)) return `for the path ${cookie.path}`;
  if (cookie.secure && target.protocol !== 'https:') return 'Secure (sent over https only)';
  if (cookie.expires !== -1 && cookie.expires <= now) return 'expired';
  return null;
}

/** RFC 6265 §5.1.3: a host-only cookie is the host's alone; a Domain cookie is its subdomains' too, never an IP address's. */
function domainMatches(cookie: SessionCookie, hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === cookie.domain) return true;
  return !cookie.hostOnly && host.endsWith(`.${cookie.domain}`) && isIP(host) === 0;
}

/** RFC 6265 §5.1.4: the same path, or one under it, at a "/". */
function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (cookiePath === requestPath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

function noneApplies(total: number, reasons: Map<string, number>, target: URL): string {
  const groups = [...reasons].sort((a, b) => b[1] - a[1]);
  const listed = groups.slice(0, 6).map(([why, count]) => `${count} ${why}`);
  const rest = groups.slice(6).reduce((sum, [, count]) => sum + count, 0);
  if (rest > 0) listed.push(`${rest} for other hosts`);
  const subject =
    total === 1 ? "the session file's one cookie is not" : `none of the session file's ${total} cookies is`;
  return `${subject} for ${shown(target)}: ${listed.join(', ')}`;
}

/** The target as messages show it: no query, which may hold a token. */
function shown(target: URL): string {
  return `${target.origin}${target.pathname}`;
}

/**
 * One cookie per name, domain and path, as an engine keeps them. Of a file's records the later
 * replaces the earlier, in the earlier's place (RFC 6265 §5.3: it keeps the creation time); of a
 * Cookie line's pairs the first stands, as servers read the first.
 */
function withoutDuplicates(kept: ReadCookie[], firstStands: boolean): ReadCookie[] {
  const byKey = new Map<string, ReadCookie>();
  for (const one of kept) {
    const { name, domain, hostOnly, path, partitioned } = one.cookie;
    const key = JSON.stringify([name, domain, hostOnly, path, partitioned]);
    if (!(firstStands && byKey.has(key))) byKey.set(key, one);
  }
  return [...byKey.values()];
}

// What browsers refuse to set (RFC 6265 §4.1.1; RFC 6265bis: size, SameSite, prefixes; CHIPS).

/** An RFC 6265 cookie-name: a token (RFC 7230's tchar). */
const TOKEN_CHARACTER = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

function checkSettable({ cookie, at }: ReadCookie): void {
  if (cookie.name === '') throw new SessionError(`${at} has an empty cookie name`);
  const badInName = [...cookie.name].find((character) => !TOKEN_CHARACTER.test(character));
  if (badInName !== undefined) {
    // The name is not shown: what fails to be a name may be anything, a value included.
    throw new SessionError(
      `${at} has a cookie name with ${described(badInName)} in it; a cookie name is a token (RFC 6265): letters, digits and !#$%&'*+-.^_\`|~`,
    );
  }
  const named = `the cookie "${cookie.name}" (${at})`;
  const badInValue = [...cookie.value].find((character) => /[\s;\p{Cc}]/u.test(character));
  if (badInValue !== undefined) {
    throw new SessionError(
      `${named} has a value with ${described(badInValue)} in it, which a cookie value cannot hold (the value is not shown)`,
    );
  }
  const refusal = browsersRefuse(cookie);
  if (refusal !== null) throw new SessionError(`${named} ${refusal}; browsers refuse to set such a cookie`);
}

/** RFC 6265bis (parsing a cookie): browsers keep none whose name and value together are longer, in UTF-8. */
const BROWSER_MAX_COOKIE_BYTES = 4096;

/** What makes browsers refuse a cookie whose name and value are fine, in words; null when nothing does. */
function browsersRefuse(cookie: SessionCookie): string | null {
  const bytes = Buffer.byteLength(cookie.name + cookie.value, 'utf8');
  if (bytes > BROWSER_MAX_COOKIE_BYTES) {
    return `has ${bytes} bytes of name and value, more than the ${BROWSER_MAX_COOKIE_BYTES} browsers keep`;
  }
  if (cookie.sameSite === 'None' && !cookie.secure) return 'is SameSite=None without Secure';
  if (cookie.partitioned && !cookie.secure) return 'is Partitioned without Secure';
  const name = cookie.name.toLowerCase();
  if (name.startsWith('__secure-') && !cookie.secure) return 'has the __Secure- prefix without Secure';
  if (name.startsWith('__host-') && !(cookie.secure && cookie.hostOnly && cookie.path === '/')) {
    return 'has the __Host- prefix without being Secure, host-only and for the path /';
  }
  return null;
}

function described(character: string): string {
  if (character === ' ') return 'a space';
  if (character === '\t') return 'a tab';
  const code = `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\p{Cc}/u.test(character)) return `a control character (${code})`;
  if (/\s/.test(character)) return `a space (${code})`;
  return /[\x21-\x7e]/.test(character) ? `"${character}"` : `a character outside ASCII (${code})`;
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
