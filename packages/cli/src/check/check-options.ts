import { existsSync } from 'node:fs';
import { STACKS, type Stack } from '@origin-lab/cors-rules/advice';
import {
  choice,
  integer,
  listOf,
  parseCommand,
  boundsText,
  parseOrigin,
  quotedUrl,
  readBrowsers,
  readColor,
  readLab,
  readTimeout,
  SHARED_OPTIONS,
  TIMEOUT_BOUNDS,
  type CommandSpec,
} from '../options.js';
import { CommandError, type ColorChoice } from '../terminal.js';
import { ENGINE_NAMES, type EngineName } from '../drivers/driver.js';
import { HOSTILE_CLASSES, HOSTILE_KINDS, QUICK_KINDS, type HostileKind } from './origins.js';
import { BODY_KINDS, type BodyKind } from './cells.js';
import { SESSION_LIMITS } from './session-file.js';
import { MAX_EXPECTATIONS_BYTES } from './expectations.js';
import { sizeText } from '../user-file.js';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The most URLs of error answers one run sends to (--also-url): each adds every origin's reads. */
export const MAX_ALSO_URLS = 5;

/** The bounds of check's number options, said in its help and enforced by readCheckOptions. */
const BOUNDS = {
  pages: { min: 1, max: 32 },
  delay: { min: 0, max: 60_000 },
  maxRequests: { min: 1, max: 100_000 },
} as const;

export const CHECK_COMMAND: CommandSpec = {
  name: 'check',
  usage: '<url> --from <origin> [--from <origin>...] [options]',
  summary:
    'Loads a page at each origin you name, in real browser engines, and has it call <url> as your own pages would: a simple GET, the same with credentials, requests that preflight, the methods you name. Then it does the same from origins an attacker could own. Each engine decides what is sent and what is readable; the report says why each refusal happened, which origins can read your API, and how to fix it in your stack.',
  positionals: ['<url>                 the endpoint to check: an http(s) URL without credentials in it'],
  options: [
    {
      name: 'from',
      value: '<origin>',
      multiple: true,
      help: 'an origin whose pages call <url> (scheme://host[:port], no path)',
    },
    {
      name: 'engines',
      value: '<list>',
      default: 'every engine found',
      help: 'chromium, firefox, webkit, comma-separated (origin-lab engines says which are found, and where)',
    },
    SHARED_OPTIONS.browser,
    {
      name: 'connect',
      value: '<engine>=<ws-url>',
      multiple: true,
      help: 'use a Chromium or Firefox that already runs as a Playwright browser server (browserType.launchServer, or a container running one) instead of starting it here; Playwright 1.64 on both sides',
    },
    {
      name: 'credentials',
      value: '<mode>',
      default: 'both',
      help: 'both: the preflighted and method requests without credentials, plus a GET with them; include: all with credentials; omit: none',
    },
    {
      name: 'header',
      value: "'Name: value'",
      multiple: true,
      default: "'X-Origin-Lab-Check: 1'",
      help: 'a request header of the preflighted GET',
    },
    {
      name: 'methods',
      value: '<list>',
      help: 'also send these methods (POST, PUT, PATCH, DELETE, ...): they reach your server, so name only what is safe to call',
    },
    {
      name: 'body',
      value: '<kind>',
      default: 'json',
      help: `the body of --methods requests: ${BODY_KINDS.join(', ')}`,
    },
    {
      name: 'hostile',
      value: '<list>',
      default: 'all',
      help: 'the attacker origins to try: all, none, or some of the classes below',
    },
    {
      name: 'quick',
      flag: true,
      help: `try only the attacker classes most often found (${QUICK_KINDS.join(', ')}): seconds, not a minute`,
    },
    {
      name: 'also-url',
      value: '<url>',
      multiple: true,
      help: `a URL that answers an error (a path that 404s, an endpoint that answers 401 without a session, one that answers 500): every origin sends its two reads (a GET, without and with credentials) there too, to see whether its answers carry CORS headers, and for whom; at most ${MAX_ALSO_URLS}`,
    },
    {
      name: 'also-hostile',
      value: '<origin>',
      multiple: true,
      help: 'also try this origin as an attacker (an origin your allowlist should not hold)',
    },
    {
      name: 'profile',
      value: '<name>',
      default: 'cors',
      help: `what kind of server this is: cors (a server on the web); local (on this machine or a private network: also tries DNS rebinding, a page under an attacker's name that then points to your server, which only a check of Host refuses); mcp (an MCP Streamable HTTP endpoint: your origins make the handshake, initialize to DELETE of the session, which reaches the server for real; attacker origins send initialize; DNS rebinding too where the server is local)`,
    },
    {
      name: 'ca',
      value: '<file>',
      help: "a certificate authority to trust beside the system's (one PEM certificate: your development CA, mkcert's rootCA.pem), in the check's own requests and in every engine; Chromium and Firefox take it through certutil (libnss3-tools)",
    },
    {
      name: 'session',
      value: '<file>',
      help: `your user's signed-in session: a Playwright storage state (JSON), a cookies.txt (curl -c) or a Cookie: line. Its cookies are set in each engine for the target, each engine keeps its own default cookie policy, and the report says per engine and origin whether they went out and the signed-in answer was read. The values never appear in any output (files over ${SESSION_LIMITS.maxBytes / 1_048_576} MB or with over ${SESSION_LIMITS.maxCookies} cookies for the target are refused)`,
    },
    {
      name: 'expect',
      value: '<file>',
      help: `an expectations file (origin-lab.check.json): which origins must read what; every other origin must not (files over ${sizeText(MAX_EXPECTATIONS_BYTES)} are refused)`,
    },
    {
      name: 'baseline',
      value: '<file>',
      help: 'an earlier --json report of this URL: the reports begin with the origins and requests that gained or lost access since, per engine; an origin not yours that gained access fails the run unless --expect allows it (files over 50 MB are refused)',
    },
    {
      name: 'fail-on',
      value: '<severity>',
      default: 'medium',
      help: `exit 1 on a finding at or above: ${SEVERITIES.join(', ')}, or never`,
    },
    { name: 'json', value: '<file>', help: 'write the whole report as JSON (- for standard output)' },
    {
      name: 'proof',
      value: '<dir>',
      help: 'write a proof page for each high or critical finding and origin: hosted at that origin and opened signed in, it sends the same request and shows what it could read (the check never opens them)',
    },
    { name: 'junit', value: '<file>', help: 'write JUnit XML: one test case per engine, origin and request' },
    { name: 'sarif', value: '<file>', help: 'write SARIF 2.1.0 for code-scanning dashboards: one result per finding' },
    {
      name: 'sarif-min',
      value: '<severity>',
      default: 'low',
      help: `the least severity SARIF holds: ${SEVERITIES.join(', ')} (info adds engine differences and *)`,
    },
    {
      name: 'markdown',
      value: '<file>',
      help: 'write a Markdown summary for a CI job’s page ($GITHUB_STEP_SUMMARY, a merge request): the tables, each finding and its fix (- for standard output)',
    },
    {
      name: 'stack',
      value: '<name>',
      help: `show the fix for this stack: ${STACKS.join(', ')} (default: guessed from the answer's headers, else every stack in JSON)`,
    },
    SHARED_OPTIONS.lab,
    {
      name: 'timeout',
      value: '<ms>',
      default: '10000',
      help: `longest wait for one request, for an engine to load a page, and for a browser to say its version (${boundsText(TIMEOUT_BOUNDS)})`,
    },
    {
      name: 'pages',
      value: '<n>',
      default: '4',
      help: `origins one engine tries at once, each in a page of its own (WebKit: always 1); 1 when --delay is set (${boundsText(BOUNDS.pages)})`,
    },
    {
      name: 'delay',
      value: '<ms>',
      default: '0',
      help: `pause between two requests of one engine (${boundsText(BOUNDS.delay)})`,
    },
    {
      name: 'max-requests',
      value: '<n>',
      default: '2000',
      help: `most requests the whole run may send (engines and the check itself); more stops it before it starts (${boundsText(BOUNDS.maxRequests)})`,
    },
    {
      name: 'local-network',
      value: '<mode>',
      default: 'grant',
      help: "Chromium's Local Network Access, for a target on a loopback or private address: grant (the user allows it; an http:// page is still refused), deny, or public (the target counts as public, as once deployed: CORS alone)",
    },
    SHARED_OPTIONS.color,
    { name: 'quiet', short: 'q', flag: true, help: 'no progress on standard error' },
    SHARED_OPTIONS.help,
  ],
  examples: [
    'origin-lab check https://api.example.com/me --from https://app.example.com',
    'origin-lab check https://api.example.com/items --from https://app.example.com --methods PUT,DELETE --header "Authorization: Bearer test"',
    'origin-lab check http://localhost:3000/api/posts --from http://localhost:5173 --engines chromium,firefox',
    'origin-lab check https://api.example.com/ --expect origin-lab.check.json --junit report.xml --sarif cors.sarif',
    'origin-lab check https://api.example.com/me --from https://app.example.com --baseline before.json --json after.json',
    'origin-lab check https://api.example.com/me --from https://app.example.com --also-url https://api.example.com/admin',
    'origin-lab check https://api.example.com/me --from https://app.example.com --session state.json --proof proof/',
    'origin-lab check http://127.0.0.1:3845/health --from http://localhost:5173 --profile local',
    'origin-lab check http://127.0.0.1:3000/mcp --from http://localhost:6274 --profile mcp',
    'npx ./origin-lab-0.1.0.tgz check https://api.example.com/me --from https://app.example.com --json -',
  ],
  notes: [
    'Attacker origins (--hostile), each with the server code that lets it through:',
    ...HOSTILE_KINDS.map((kind) => `  ${kind.padEnd(19)}${HOSTILE_CLASSES[kind].pattern}`),
    '',
    'Exit codes: 0 all is well; 1 a finding at or above --fail-on, a failing expectation or --baseline gain;',
    '2 bad usage, a bad expectations or baseline file, a missing browser, or a target that cannot be',
    "reached (no report then); 3 nothing of 1, but an engine left attacker origins untried (Chromium's Local",
    'Network Access stops a public page reaching a loopback or private address, an http:// one always:',
    '--local-network public tries them); 141 the reader of standard output stopped reading (| head).',
    'A --baseline gain fails when an origin not yours reads in an engine what it could not in the',
    'earlier report and --expect does not allow it (othersDenied: false allows it).',
    'Engines: Chromium, Chrome or Edge and Firefox through Playwright, WebKitGTK through its WebDriver, found',
    'by --browser, CHROMIUM_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH (with MINIBROWSER_PATH, the browser that',
    "driver starts), Playwright's cache, where installers put them, or PATH: origin-lab engines lists them.",
    'WebKitGTK paints on the CPU (WEBKIT_SKIA_ENABLE_CPU_RENDERING=1) unless that variable is set otherwise.',
  ],
};

export interface CheckOptions {
  target: URL;
  /** Your origins: those that should be able to read. */
  from: string[];
  engines: EngineName[] | 'installed';
  /** Engines already running elsewhere: their Playwright browser server's WebSocket address. */
  connect: Partial<Record<'chromium' | 'firefox', string>>;
  /** --browser name=path: the program to use for an engine. */
  browsers: Partial<Record<EngineName, string>>;
  credentials: 'both' | 'include' | 'omit';
  /** The headers the preflighted GET carries: yours, or the check's own (DEFAULT_HEADER). */
  headers: [string, string][];
  /** --header as given (none: an empty list): their values are shown nowhere. */
  givenHeaders: [string, string][];
  methods: string[];
  body: BodyKind;
  hostile: HostileKind[];
  /** --also-hostile: origins tried as attackers, whatever --hostile says. */
  alsoHostile: string[];
  /** --also-url: URLs that answer an error, read from every origin as the target is. */
  alsoUrls: URL[];
  expectFile: string | null;
  /** --session: a file of the user's signed-in cookies. */
  sessionFile: string | null;
  /** --ca: a certificate authority's PEM file, trusted beside the system's. */
  ca: string | null;
  /** --profile: a server on the web (cors), or on this machine or a private network (local). */
  profile: 'cors' | 'local' | 'mcp';
  /** An earlier JSON report to compare this run with. */
  baselineFile: string | null;
  failOn: Severity | 'never';
  json: string | null;
  /** --proof: the folder for proof pages. */
  proof: string | null;
  junit: string | null;
  sarif: string | null;
  sarifMin: Severity;
  markdown: string | null;
  stack: Stack | null;
  lab: string;
  /** Whether --lab was given (the links made from the default say how to change it). */
  labGiven: boolean;
  timeoutMs: number;
  delayMs: number;
  /** Origins one engine tries at once. */
  pagesAtOnce: number;
  maxRequests: number;
  localNetwork: 'grant' | 'deny' | 'public';
  color: ColorChoice;
  quiet: boolean;
  help: boolean;
}

/** A token as a header name or method may be (RFC 9110's tchar). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The URL to check, or one an option names (what: "--also-url"): an http(s) URL without credentials. */
export function parseTarget(text: string | undefined, what = ''): URL {
  if (text === undefined) throw new CommandError('check needs the URL to check (see origin-lab check --help)');
  const named = `${what ? `${what} ` : ''}${quotedUrl(text)}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CommandError(`${named} is not a URL: write it whole, e.g. https://api.example.com/me`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CommandError(`${named} is not an http or https URL`);
  if (url.username || url.password)
    throw new CommandError(
      `${named} has credentials in it: browsers refuse such URLs in fetch; give the URL without them`,
    );
  url.hash = '';
  return url;
}

/** --also-url: each URL once, none the target itself, at most MAX_ALSO_URLS. */
function parseAlsoUrls(texts: string[], target: URL): URL[] {
  const urls = new Map<string, URL>();
  for (const text of texts) {
    const url = parseTarget(text, '--also-url');
    if (url.href === target.href)
      throw new CommandError(`--also-url ${quotedUrl(text)} is the URL checked: name one that answers an error`);
    urls.set(url.href, url);
  }
  if (urls.size > MAX_ALSO_URLS)
    throw new CommandError(
      `--also-url names ${urls.size} URLs; at most ${MAX_ALSO_URLS}: each adds every origin's reads to the run`,
    );
  return [...urls.values()];
}

function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  const value = colon > 0 ? text.slice(colon + 1).trim() : '';
  // Only the first word is quoted: the rest may be a token or a key, given without its colon.
  if (!TOKEN.test(name))
    throw new CommandError(
      `--header "${text.split(/[\s:]/)[0]!.slice(0, 40)}…" is not "Name: value" with a valid header name (the rest is not shown)`,
    );
  if (/[\0\r\n]/.test(value)) throw new CommandError(`--header "${name}" has a line break or NUL in its value`);
  if (/^(origin|cookie|host|content-length|access-control-request-(method|headers))$/i.test(name))
    throw new CommandError(`--header ${name}: browsers set this header themselves; script cannot`);
  return [name, value];
}

export function readCheckOptions(argv: readonly string[]): CheckOptions {
  const { values, positionals } = parseCommand(CHECK_COMMAND, argv);
  const help = values.help === true;
  if (help) return { help } as CheckOptions;
  if (positionals.length > 1)
    throw new CommandError(`check takes one URL; got ${positionals.length}: ${positionals.join(' ')}`);
  const target = parseTarget(positionals[0]);
  const from = [...new Set(listOf(values.from).map((origin) => parseOrigin(origin)))];
  const engineList = listOf(values.engines);
  for (const name of engineList)
    if (!(ENGINE_NAMES as readonly string[]).includes(name))
      throw new CommandError(`--engines names an unknown engine "${name}"; known: ${ENGINE_NAMES.join(', ')}`);
  const methods = listOf(values.methods).map((method) => {
    if (!TOKEN.test(method)) throw new CommandError(`--methods names "${method}", which is not a method name`);
    if (/^(CONNECT|TRACE|TRACK)$/i.test(method))
      throw new CommandError(`--methods ${method}: fetch refuses this method`);
    return method;
  });
  const hostileList = listOf(values.hostile);
  if (values.quick === true && hostileList.length > 0)
    throw new CommandError('--quick and --hostile both choose the attacker origins: give one of them');
  const hostile =
    values.quick === true
      ? [...QUICK_KINDS]
      : hostileList.length === 0 || hostileList.includes('all')
        ? [...HOSTILE_KINDS]
        : hostileList.includes('none')
          ? []
          : hostileList.map((kind) => choice('hostile', kind, HOSTILE_KINDS, 'arbitrary'));
  const headers = listOfRaw(values.header).map(parseHeader);
  const delayMs = integer('delay', values.delay, BOUNDS.delay.min, BOUNDS.delay.max, 0);
  const toStdout = (['json', 'junit', 'sarif', 'markdown'] as const).filter((name) => values[name] === '-');
  if (toStdout.length > 1)
    throw new CommandError(
      `only one report can go to standard output (-); got ${toStdout.map((name) => `--${name} -`).join(' and ')}`,
    );
  return {
    target,
    from,
    engines: engineList.length > 0 ? (engineList as EngineName[]) : 'installed',
    connect: parseConnect(listOfRaw(values.connect)),
    browsers: readBrowsers(values.browser),
    credentials: choice('credentials', values.credentials, ['both', 'include', 'omit'] as const, 'both'),
    headers: headers.length > 0 ? headers : [DEFAULT_HEADER],
    givenHeaders: headers,
    methods,
    body: choice('body', values.body, BODY_KINDS, 'json'),
    hostile,
    alsoHostile: [...new Set(listOf(values['also-hostile']).map((origin) => parseOrigin(origin, '--also-hostile')))],
    alsoUrls: parseAlsoUrls(listOfRaw(values['also-url']), target),
    expectFile: pathOption(values, 'expect'),
    sessionFile: readSessionOption(pathOption(values, 'session'), values.credentials),
    ca: pathOption(values, 'ca'),
    profile: choice('profile', values.profile, ['cors', 'local', 'mcp'] as const, 'cors'),
    baselineFile: pathOption(values, 'baseline'),
    failOn: choice('fail-on', values['fail-on'], [...SEVERITIES, 'never'] as const, 'medium'),
    json: pathOption(values, 'json'),
    proof: pathOption(values, 'proof'),
    junit: pathOption(values, 'junit'),
    sarif: pathOption(values, 'sarif'),
    sarifMin: choice('sarif-min', values['sarif-min'], SEVERITIES, 'low'),
    markdown: pathOption(values, 'markdown'),
    stack: values.stack === undefined ? null : choice('stack', values.stack, STACKS, 'express'),
    ...readLab(values.lab),
    timeoutMs: readTimeout(values.timeout, 10_000),
    delayMs,
    // A pause between requests asks for a gentle run: one origin at a time, unless --pages says otherwise.
    pagesAtOnce: integer('pages', values.pages, BOUNDS.pages.min, BOUNDS.pages.max, delayMs > 0 ? 1 : 4),
    maxRequests: integer('max-requests', values['max-requests'], BOUNDS.maxRequests.min, BOUNDS.maxRequests.max, 2000),
    localNetwork: choice('local-network', values['local-network'], ['grant', 'deny', 'public'] as const, 'grant'),
    color: readColor(values.color),
    quiet: values.quiet === true,
    help,
  };
}

/** The header of the preflighted GET when --header names none: the check's own, not a value of yours. */
export const DEFAULT_HEADER: [string, string] = ['X-Origin-Lab-Check', '1'];

/**
 * A file or folder option: null when not given. An empty value is refused rather than read as
 * not given: `--expect "$UNSET"` in a script would otherwise drop its gate without a word.
 */
function pathOption(values: Record<string, unknown>, name: string): string | null {
  const value = values[name];
  if (typeof value !== 'string') return null;
  if (value.trim() === '') throw new CommandError(`--${name} was given an empty path`);
  return value;
}

/** --session: a file, which needs the credentialed reads its cookies ride on. */
function readSessionOption(session: string | null, credentials: unknown): string | null {
  if (session === null) return null;
  // Not repeated: a value that names no file may be the cookies themselves, given by mistake.
  if (!existsSync(session))
    throw new CommandError(
      '--session names no file: give the path of a file that holds the cookies (a Cookie: line, cookies.txt or a storage state), not the cookies themselves (the value given is not shown)',
    );
  if (credentials === 'omit')
    throw new CommandError('--session sets cookies that only credentialed requests carry: drop --credentials omit');
  return session;
}

/** --header and --also-url values are not split at commas: a value or a URL may hold one. */
function listOfRaw(value: unknown): string[] {
  return Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
}

/** --connect engine=ws://host:port/path, each engine at most once. */
function parseConnect(values: string[]): CheckOptions['connect'] {
  const connect: CheckOptions['connect'] = {};
  for (const value of values) {
    const [name, url = ''] = value.split(/=(.*)/s);
    if (name !== 'chromium' && name !== 'firefox')
      throw new CommandError(`--connect takes chromium=<ws-url> or firefox=<ws-url>; got "${value}"`);
    if (!URL.canParse(url) || !['ws:', 'wss:'].includes(new URL(url).protocol))
      throw new CommandError(`--connect ${name}: "${url}" is not a ws:// or wss:// address`);
    if (connect[name]) throw new CommandError(`--connect names ${name} twice`);
    connect[name] = url;
  }
  return connect;
}
