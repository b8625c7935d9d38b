/**
 * The origins an attacker could own, made from the user's own: each a way a server's origin check
 * goes wrong (reflecting any origin, matching a prefix, a suffix or a substring, a regular
 * expression with an unescaped dot, trusting "null", any subdomain, the http:// twin). They are
 * tried as origins: each engine loads a page there, and whether it can be such an origin at all
 * (a name with a backtick or a brace) is the engine's own answer.
 */

import type { Context } from '../drivers/probe-page.js';

export const HOSTILE_KINDS = [
  'arbitrary',
  'null',
  'prefix',
  'suffix',
  'substring',
  'unescaped-dot',
  'subdomain',
  'http-twin',
  'special-characters',
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface TriedOrigin {
  /** The origin as written (what the engine is asked to load); "null" for an opaque one. */
  origin: string;
  /** Yours (from --from or the expectations), or the attack it stands for. */
  kind: 'yours' | HostileKind;
  /** Where the page runs; an opaque origin lives in a frame or worker of an arbitrary page. */
  context: Context;
  /** One line for the report: what kind of broken check lets this origin through. */
  why: string;
}

/** A site no one's check names: the arbitrary attacker. */
export const ATTACKER_SITE = 'attacker.test';

/**
 * Characters that server-side checks and the scanners' lists try in a host name, after the user's
 * name (`https://app.example.com<c>.attacker.test`): a check that tests a prefix or a regular
 * expression without $ lets them through, in the engines whose URL parser accepts them.
 */
export const SPECIAL_CHARACTERS = [
  '_',
  '-',
  '`',
  '{',
  '}',
  '!',
  '$',
  '&',
  "'",
  '(',
  '*',
  '+',
  ',',
  ';',
  '=',
  '~',
  '|',
  '^',
];

/** The last two labels of a host (a rough registrable domain: the check has no public suffix list). */
function baseDomain(host: string): string {
  const labels = host.split('.');
  return labels.length <= 2 ? host : labels.slice(-2).join('.');
}

/** The hostile origins for the user's first origin, by kind. */
export function hostileOrigins(yours: string, kinds: readonly HostileKind[]): TriedOrigin[] {
  const url = new URL(yours);
  const scheme = url.protocol;
  const port = url.port ? `:${url.port}` : '';
  const host = url.hostname;
  const at = (name: string) => `${scheme}//${name}${port}`;
  const arbitrary = `${scheme}//${ATTACKER_SITE}`;
  const tried: TriedOrigin[] = [];
  const add = (kind: HostileKind, origin: string, why: string, context: Context = 'page') => {
    if (origin !== yours && !tried.some((t) => t.origin === origin && t.context === context))
      tried.push({ origin, kind, context, why });
  };
  for (const kind of kinds) {
    switch (kind) {
      case 'arbitrary':
        add(kind, arbitrary, 'any site: a server that reflects every Origin lets it read');
        break;
      case 'null':
        add(
          kind,
          'null',
          'a sandboxed frame is "null": a server that trusts null lets any site in through one',
          'sandboxed-frame',
        );
        add(kind, 'null', 'a worker from a data: URL is "null" too', 'data-worker');
        break;
      case 'prefix':
        add(kind, at(`${host}.${ATTACKER_SITE}`), `a check that the origin starts with ${yours}`);
        break;
      case 'suffix':
        add(kind, at(`evil${host}`), `a check that the origin ends with ${host}`);
        break;
      case 'substring':
        if (host.length > 3) add(kind, at(host.slice(0, -1)), `a check that ${yours} contains the origin`);
        break;
      case 'unescaped-dot': {
        const dot = host.lastIndexOf('.', host.lastIndexOf('.') - 1);
        if (dot > 0)
          add(
            kind,
            at(`${host.slice(0, dot)}x${host.slice(dot + 1)}`),
            'a regular expression whose dots are not escaped',
          );
        break;
      }
      case 'subdomain':
        add(
          kind,
          at(`evil.${baseDomain(host)}`),
          'a check that accepts any subdomain: one taken-over or user-content subdomain reads',
        );
        break;
      case 'http-twin':
        if (scheme === 'https:')
          add(kind, `http://${host}${port}`, 'the plain-HTTP twin: anyone on the network path can be it');
        break;
      case 'special-characters':
        for (const character of SPECIAL_CHARACTERS)
          add(
            kind,
            at(`${host}${character}.${ATTACKER_SITE}`),
            `"${character}" after your host name, as the scanners try`,
          );
        break;
    }
  }
  return tried;
}

/** The user's own origins, as tried origins. */
export function yourOrigins(origins: readonly string[]): TriedOrigin[] {
  return origins.map((origin) => ({ origin, kind: 'yours', context: 'page', why: 'your origin' }));
}
