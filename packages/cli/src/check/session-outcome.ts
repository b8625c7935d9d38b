/**
 * A signed-in session (--session): what the check itself gets from each URL with the session's
 * cookies and without them, and, for each credentialed read an engine made, whether it carried the
 * cookies and read the signed-in answer. Bodies are only ever hashed (SHA-256 of their first
 * BODY_TEXT_MAX characters) and measured; no value of the session nor any body is kept or written.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { baseDomain, type EngineName, type EngineReport, type SessionCookieSpec } from '../drivers/driver.js';
import { BODY_TEXT_MAX, type ProbeResult } from '../drivers/probe-page.js';
import { unreachable, type Unreachable } from './replay.js';

/** An answer's text, as a hash and a length. */
export interface BodyDigest {
  sha256: string;
  length: number;
}

/** The check's own answers from one URL: with the session's cookies, and without. */
export interface SessionAnswers {
  signedIn: BodyDigest;
  signedOut: BodyDigest;
}

/** What one engine's credentialed read did with the session. */
export interface SessionRead {
  /** Whether the session's cookies went out: from the engine's own report, else from the answer read; null unknown. */
  cookieSent: boolean | null;
  source: 'engine' | 'page';
  /** The session's cookies that went out, by name, where the engine reports them (Chromium, Firefox); else null. */
  sentNames: string[] | null;
  /** Why they stayed home, when they did: the engine's reason where it gave one, else its documented policy. */
  withheld: string | null;
  /** Whether the page read the signed-in answer; null when the answers cannot tell (equal, or changing). */
  signedInRead: boolean | null;
  /** The readable answer, hashed and measured. */
  body: BodyDigest | null;
}

/** The hash and length of a text, as far as a page gives it back. */
export function digestOf(text: string): BodyDigest {
  const kept = text.slice(0, BODY_TEXT_MAX);
  return { sha256: createHash('sha256').update(kept).digest('hex'), length: Buffer.byteLength(text) };
}

/** Bodies larger than this are cut (the page gives back no more either). */
const MAX_BODY_BYTES = 4 * BODY_TEXT_MAX;

/** One GET of url, its body digested; cookie is the Cookie header, or null for none. */
function digestAnswer(url: URL, cookie: string | null, timeoutMs: number): Promise<BodyDigest | Unreachable> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const headers = { 'user-agent': 'origin-lab-check', ...(cookie !== null && { cookie }) };
    const req = send(url, { method: 'GET', headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      res.on('end', () => resolve(digestOf(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', (err) => resolve(unreachable(err)));
    });
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'TIMEOUT' })),
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(unreachable(err)));
    req.end();
  });
}

/** The URL's answer with the session's cookies and without them (two GETs). */
export async function sessionAnswers(
  url: URL,
  cookieHeader: string,
  timeoutMs: number,
): Promise<SessionAnswers | Unreachable> {
  const signedIn = await digestAnswer(url, cookieHeader, timeoutMs);
  if ('kind' in signedIn) return signedIn;
  const signedOut = await digestAnswer(url, null, timeoutMs);
  if ('kind' in signedOut) return signedOut;
  return { signedIn, signedOut };
}

/** Chromium's reasons for holding a cookie back (DevTools CookieBlockedReason), in words. */
const CHROMIUM_REASONS: [RegExp, string][] = [
  [/SameSite/, 'its SameSite attribute keeps it off a cross-site request'],
  [/UserPreferences|ThirdParty/, 'the browser blocks third-party cookies'],
  [/SecureOnly/, 'it is Secure and the URL is not https'],
  [/Partition/, 'it is partitioned under another top-level site'],
];

/** Why an engine kept the cookies home, by its documented default policy, when it gave no reason. */
function policyReason(engine: EngineName, cookies: readonly SessionCookieSpec[], crossSite: boolean): string {
  if (!crossSite) return 'the engine sent none, though the page is on the same site';
  if (cookies.every((cookie) => cookie.sameSite === 'Lax' || cookie.sameSite === 'Strict'))
    return 'their SameSite attribute keeps them off a cross-site request';
  if (cookies.every((cookie) => cookie.partitioned)) return 'they are partitioned under your own site';
  if (engine === 'firefox')
    return 'Total Cookie Protection (Firefox’s default): a third-party request carries only cookies partitioned under the page’s site';
  if (engine === 'webkit')
    return 'WebKit blocks third-party cookies (Intelligent Tracking Prevention, on as Safari ships it)';
  return 'the engine held them back without saying why';
}

/** Why the engine held the cookies back: its own reasons, in words, else its policy's. */
function withheldWhy(
  engine: EngineName,
  report: EngineReport['cookies'],
  cookies: readonly SessionCookieSpec[],
  crossSite: boolean,
): string {
  const given = (report?.withheld ?? []).filter((entry) => entry.reason);
  if (given.length === 0) return policyReason(engine, cookies, crossSite);
  const words = given.map(
    ({ name, reason }) => `${name}: ${CHROMIUM_REASONS.find(([pattern]) => pattern.test(reason!))?.[1] ?? reason}`,
  );
  return [...new Set(words)].join('; ');
}

/** The site of a URL or origin, roughly (scheme and the drivers' baseDomain), for cross-site. */
const siteOf = (href: string) => {
  const url = new URL(href);
  return `${url.protocol}//${baseDomain(url.hostname)}`;
};

/**
 * One credentialed read with the session: did the cookies go out (the engine's report where it
 * gives one: Chromium's network log, Firefox's request headers; else what was read), and was the
 * answer the signed-in one.
 */
export function sessionRead(
  engine: EngineName,
  page: string,
  url: URL,
  result: ProbeResult,
  report: EngineReport,
  cookies: readonly SessionCookieSpec[],
  answers: SessionAnswers,
): SessionRead {
  const body = result.readable && result.text !== null ? digestOf(result.text) : null;
  const tells = answers.signedIn.sha256 !== answers.signedOut.sha256;
  const signedInRead = !result.readable
    ? false
    : body === null || !tells
      ? null
      : body.sha256 === answers.signedIn.sha256
        ? true
        : body.sha256 === answers.signedOut.sha256
          ? false
          : null;
  const names = new Set(cookies.map((cookie) => cookie.name));
  const reported = report.cookies ? report.cookies.sent.some((name) => names.has(name)) : null;
  const cookieSent = reported ?? (signedInRead === null || !result.readable ? null : signedInRead);
  const crossSite = page === 'null' || siteOf(page) !== siteOf(url.href);
  return {
    cookieSent,
    source: reported === null ? 'page' : 'engine',
    sentNames: report.cookies ? report.cookies.sent.filter((name) => names.has(name)) : null,
    withheld: cookieSent === false ? withheldWhy(engine, report.cookies, cookies, crossSite) : null,
    signedInRead,
    body,
  };
}
