/**
 * The origins an attacker could own, made from the user's own: each class a way a server's origin
 * check goes wrong (reflecting any origin, matching a prefix, a suffix or a substring, a regular
 * expression with an unescaped dot, trusting "null", any subdomain, plain HTTP, hosting shared
 * with strangers, development servers, ...). They are tried as origins: each engine loads a page
 * there, and whether it can be such an origin at all (a name with a backtick or a brace) is the
 * engine's own answer. Each class says what an attacker must have to be such an origin: that,
 * not the class, grades what a read from there is worth.
 */

import { baseDomain } from '../drivers/driver.js';
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
  'http-subdomain',
  'third-party',
  'localhost-edge',
  'dev-server',
  'trailing-dot',
  'other-port',
  'other-scheme',
  'lookalike',
  'special-characters',
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

/**
 * What --quick tries: the classes most often behind a real finding (reflecting every origin,
 * trusting null, a prefix or suffix check, any subdomain, the http:// twin), one origin or two each.
 */
export const QUICK_KINDS: readonly HostileKind[] = ['arbitrary', 'null', 'prefix', 'suffix', 'subdomain', 'http-twin'];

/** An origin the user named as hostile (--also-hostile): tried whatever --hostile says. */
export type ListedKind = 'listed';

/**
 * --profile local: a name any site can register whose address the attacker's DNS turns into the
 * target's once the page is loaded (DNS rebinding). The page and the target are then one origin
 * to the engine: no CORS asks anything, and only the server's check of Host can refuse.
 */
export type RebindingKind = 'rebinding';

/** The name the check plays the rebinding attacker under (resolved to the target's address in each engine). */
export const REBINDING_HOST = 'rebind.attacker.test';

/** The rebinding origin for a target: its scheme and port, under the attacker's name. */
export function rebindingOrigin(target: URL): TriedOrigin {
  const port = target.port ? `:${target.port}` : '';
  return {
    origin: `${target.protocol}//${REBINDING_HOST}${port}`,
    kind: 'rebinding',
    context: 'page',
    why: `DNS rebinding: ${REBINDING_HOST} answers with your server's address once its page is loaded; a server that does not check Host answers it as its own`,
  };
}

/**
 * What it takes to be such an origin: any site (a name anyone can register or a page anyone can
 * publish), a position (a subdomain taken over, the network path, a program on the user's
 * machine, another service on your host), or your own host's pages under another name.
 */
export type AttackerCost = 'any-site' | 'position' | 'own-host';

export interface TriedOrigin {
  /** The origin as written (what the engine is asked to load); "null" for an opaque one. */
  origin: string;
  /** Yours (from --from or the expectations), or the attack it stands for. */
  kind: 'yours' | HostileKind | ListedKind | RebindingKind;
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

/** Hosting where anyone may publish a page, which allowlists trust by suffix or by name. */
export const THIRD_PARTY_HOSTS = [
  'attacker.github.io',
  'attacker.vercel.app',
  'attacker.netlify.app',
  'attacker.herokuapp.com',
  'attacker.s3.amazonaws.com',
  'attacker.azurewebsites.net',
  'codepen.io',
  'jsfiddle.net',
];

/** The ports development servers listen on by default (React and Express, Vite, webpack and Vue). */
export const DEV_SERVER_PORTS = [3000, 5173, 8080];

/** Latin letters and the Cyrillic letters that look the same. */
const LOOKALIKES: Record<string, string> = {
  a: '\u0430',
  c: '\u0441',
  e: '\u0435',
  o: '\u043e',
  p: '\u0440',
  x: '\u0445',
  y: '\u0443',
};

/** The user's origin, in the parts the classes are made of. */
interface Yours {
  origin: string;
  scheme: string;
  host: string;
  /** ":port" or "". */
  port: string;
  /** The last two labels of the host (a rough registrable domain: the check has no public suffix list). */
  base: string;
  /** The host is an IP address (no names can be made from it). */
  isAddress: boolean;
}

interface Made {
  origin: string;
  why: string;
  context?: Context;
}

export interface HostileClass {
  cost: AttackerCost;
  /** The server-side code that lets this class through, in a few words (--help, docs/check.md). */
  pattern: string;
  make(yours: Yours): Made[];
}

const at = (y: Yours, name: string) => `${y.scheme}//${name}${y.port}`;

/** Each class: what being such an origin costs, the code that trusts it, and its origins. */
export const HOSTILE_CLASSES: Record<HostileKind, HostileClass> = {
  arbitrary: {
    cost: 'any-site',
    pattern: 'the Origin reflected whatever it is (origin: true, or echoing the header)',
    make: (y) => [{ origin: `${y.scheme}//${ATTACKER_SITE}`, why: 'any site: a server that reflects every Origin' }],
  },
  null: {
    cost: 'any-site',
    pattern: '"null" on the allowlist (for file: pages or local testing)',
    make: () => [
      { origin: 'null', why: 'a sandboxed frame is "null", and any site can make one', context: 'sandboxed-frame' },
      { origin: 'null', why: 'a worker from a data: URL is "null" too', context: 'data-worker' },
    ],
  },
  prefix: {
    cost: 'any-site',
    pattern: 'origin.startsWith(yours), or a regular expression without $',
    make: (y) => [
      { origin: at(y, `${y.host}.${ATTACKER_SITE}`), why: `a check that the origin starts with ${y.origin}` },
    ],
  },
  suffix: {
    cost: 'any-site',
    pattern: "origin.endsWith('example.com'), without the dot before it",
    make: (y) => [{ origin: at(y, `evil${y.host}`), why: `a check that the origin ends with ${y.host}` }],
  },
  substring: {
    cost: 'any-site',
    pattern: 'allowed.includes(origin), or indexOf on a string of origins',
    make: (y) =>
      y.host.length > 3
        ? [{ origin: at(y, y.host.slice(0, -1)), why: `a check that ${y.origin} contains the origin` }]
        : [],
  },
  'unescaped-dot': {
    cost: 'any-site',
    pattern: 'a regular expression whose dots are not escaped (/app.example.com/)',
    make: (y) => {
      const dot = y.host.lastIndexOf('.', y.host.lastIndexOf('.') - 1);
      return dot > 0
        ? [
            {
              origin: at(y, `${y.host.slice(0, dot)}x${y.host.slice(dot + 1)}`),
              why: 'a regular expression whose dots are not escaped',
            },
          ]
        : [];
    },
  },
  subdomain: {
    cost: 'position',
    pattern: 'a wildcard subdomain rule (*.example.com, /\\.example\\.com$/)',
    make: (y) => [
      {
        origin: at(y, `evil.${y.base}`),
        why: 'any subdomain: one taken over (a dangling DNS record) or serving user content',
      },
    ],
  },
  'http-twin': {
    cost: 'position',
    pattern: 'a check of the host alone, not the scheme',
    make: (y) =>
      y.scheme === 'https:'
        ? [{ origin: `http://${y.host}${y.port}`, why: 'your plain-HTTP twin: anyone on the network path can be it' }]
        : [],
  },
  'http-subdomain': {
    cost: 'position',
    pattern: 'a wildcard subdomain rule that allows http:// too (/^https?:\\/\\/.*\\.example\\.com$/)',
    make: (y) =>
      y.scheme === 'https:'
        ? [{ origin: `http://evil.${y.base}`, why: 'an http:// subdomain: anyone on the network path can be it' }]
        : [],
  },
  'third-party': {
    cost: 'any-site',
    pattern: 'an allowlist entry for shared hosting (*.github.io, *.vercel.app, codepen.io, ...)',
    make: () =>
      THIRD_PARTY_HOSTS.map((host) => ({ origin: `https://${host}`, why: 'hosting where anyone may publish a page' })),
  },
  'localhost-edge': {
    cost: 'any-site',
    pattern: "origin.startsWith('http://localhost'), or /localhost|127\\.0\\.0\\.1/ unanchored",
    make: (y) =>
      ['localhost', '127.0.0.1'].map((name) => ({
        origin: at(y, `${name}.${ATTACKER_SITE}`),
        why: `a name that starts with ${name}: anyone can register it`,
      })),
  },
  'dev-server': {
    cost: 'position',
    pattern: 'development origins left on the allowlist (http://localhost:3000)',
    make: () =>
      ['localhost', '127.0.0.1'].flatMap((name) =>
        DEV_SERVER_PORTS.map((port) => ({
          origin: `http://${name}:${port}`,
          why: 'a development server: any program on the user’s machine can serve it',
        })),
      ),
  },
  'trailing-dot': {
    cost: 'own-host',
    pattern: 'a host compared after its trailing dot is removed, the origin then reflected',
    make: (y) =>
      y.isAddress
        ? []
        : [{ origin: at(y, `${y.host}.`), why: 'your host with a trailing dot: the same server, another origin' }],
  },
  'other-port': {
    cost: 'position',
    pattern: 'a check of the host alone, not the port',
    make: (y) => {
      const port = y.port ? Number(y.port.slice(1)) : null;
      const other = port === null ? (y.scheme === 'https:' ? 8443 : 8080) : port === 65535 ? port - 1 : port + 1;
      return [{ origin: `${y.scheme}//${y.host}:${other}`, why: 'another port of your host: any other service there' }];
    },
  },
  'other-scheme': {
    cost: 'own-host',
    pattern: 'a check of the host alone, not the scheme',
    make: (y) =>
      y.scheme === 'http:'
        ? [{ origin: `https://${y.host}${y.port}`, why: 'your host over https: whatever serves TLS there' }]
        : [],
  },
  lookalike: {
    cost: 'any-site',
    pattern: 'a name compared after Unicode folding, or read by people (an IDN homograph)',
    make: (y) => {
      const name = lookalikeOf(y);
      return name
        ? [{ origin: at(y, name), why: 'a lookalike name in other letters (punycode): anyone can register it' }]
        : [];
    },
  },
  'special-characters': {
    cost: 'any-site',
    pattern: 'a prefix check or a regular expression without $, against characters after the name',
    make: (y) =>
      SPECIAL_CHARACTERS.map((character) => ({
        origin: at(y, `${y.host}${character}.${ATTACKER_SITE}`),
        why: `"${character}" after your host name, as the scanners try`,
      })),
  },
};

/** Your registrable label with its first letter that has a lookalike swapped, in ASCII (punycode). */
function lookalikeOf(y: Yours): string | null {
  if (y.isAddress) return null;
  const labels = y.host.split('.');
  const index = Math.max(0, labels.length - 2);
  const label = labels[index]!;
  const at = [...label].findIndex((letter) => letter in LOOKALIKES);
  if (at < 0) return null;
  labels[index] = `${label.slice(0, at)}${LOOKALIKES[label[at]!]}${label.slice(at + 1)}`;
  // The URL parser writes the name as the engines send it: xn--...
  return new URL(`http://${labels.join('.')}`).hostname;
}

function partsOf(origin: string): Yours {
  const url = new URL(origin);
  return {
    origin,
    scheme: url.protocol,
    host: url.hostname,
    port: url.port ? `:${url.port}` : '',
    base: baseDomain(url.hostname),
    isAddress: /^[\d.]+$|^\[/.test(url.hostname),
  };
}

/** The hostile origins for the user's first origin, by kind, each once; none equal to yours. */
export function hostileOrigins(
  yours: string,
  kinds: readonly HostileKind[],
  listed: readonly string[] = [],
): TriedOrigin[] {
  const parts = partsOf(yours);
  const tried: TriedOrigin[] = [];
  const add = (kind: TriedOrigin['kind'], { origin, why, context = 'page' }: Made) => {
    if (origin !== yours && !tried.some((t) => t.origin === origin && t.context === context))
      tried.push({ origin, kind, context, why });
  };
  for (const kind of kinds) for (const made of HOSTILE_CLASSES[kind].make(parts)) add(kind, made);
  for (const origin of listed) add('listed', { origin, why: 'an origin you named as hostile (--also-hostile)' });
  return tried;
}

/** What it costs an attacker to be this origin (listed ones: any site, as the user says). */
export function costOf(kind: TriedOrigin['kind']): AttackerCost | null {
  if (kind === 'yours') return null;
  return kind === 'listed' || kind === 'rebinding' ? 'any-site' : HOSTILE_CLASSES[kind].cost;
}

/** The user's own origins, as tried origins. */
export function yourOrigins(origins: readonly string[]): TriedOrigin[] {
  return origins.map((origin) => ({ origin, kind: 'yours', context: 'page', why: 'your origin' }));
}
