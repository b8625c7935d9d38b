import type { BrowserName } from '@origin-lab/engines';
import type { StackName } from './stacks/stack.js';

/**
 * The coverage matrix: where each spec runs, and why there. A spec runs on a stack, in an engine,
 * only where its behaviour can differ from the other places it runs: the stacks differ in what
 * the browser counts as a secure context and as one site, in the front (TLS, HTTP/2, Caddy's
 * proxying) and in the back (one process with its state in memory, or replicas on Redis); the
 * engines differ in how they implement the standards. docs/testing.md shows this table in prose
 * (a test keeps the two equal), and the Playwright config builds its projects from it: a spec
 * file that is not here stops the run.
 *
 * What the stacks change, in short:
 * - embedded: http://localhost and http://127.0.0.1. Two sites, both secure contexts (loopback is
 *   potentially trustworthy), HTTP/1.1 (six connections per host), one process, state in memory.
 * - lan: two wildcard-DNS names over plain HTTP. Not a secure context: no Secure cookie, no
 *   Fetch Metadata, COOP and COEP ignored; two registrable domains.
 * - caddy: https://a.localhost and b.localhost through Caddy: TLS, HTTP/2, the Caddyfile's
 *   proxying of every header, body and stream.
 * - compose: the same Caddyfile in a container in front of two api replicas sharing Redis.
 *
 * In a webkit project only the tests tagged @every-engine run (fixtures.ts): WebKitGTK is driven
 * over classic WebDriver.
 */
export interface Coverage {
  /** The engines it runs in, on each stack it runs on. */
  runs: Partial<Record<StackName, readonly BrowserName[]>>;
  /** Why there and nowhere else. */
  why: string;
  /**
   * It takes both cores (several engines at once): it runs after every other spec of its stack and
   * engine, in a project of its own, so that no load test (the classroom) runs beside it.
   */
  runsLast?: true;
  /**
   * Why it needs the Chromium browser itself: in a chromium project every other spec runs in
   * Chromium's headless shell (CHROMIUM_PROGRAMS below).
   */
  fullChromium?: string;
}

/**
 * The two Chromium programs. Debian's `chromium-headless-shell` is built from the same sources and
 * version as `chromium`: the same Blink, V8, network stack and content layer, without what the
 * browser adds around them (its cookie settings, permission prompts, secure DNS, the back/forward
 * cache's rules, the details of its DevTools HAR), at about two thirds of the browser's CPU for
 * the same specs. A spec runs in the shell unless it says why it needs the browser
 * (fullChromium). Measured 2026-12-06 (docs/suite-runs.md): every spec
 * without that reason passed unchanged in the shell on every stack, and each spec with it failed
 * there, on exactly those additions.
 */
export const CHROMIUM_PROGRAMS = ['browser', 'shell'] as const;
export type ChromiumProgram = (typeof CHROMIUM_PROGRAMS)[number];

/** The Chromium program a spec runs in. */
const chromiumProgramOf = ({ fullChromium }: Coverage): ChromiumProgram => (fullChromium ? 'browser' : 'shell');

const EVERY: readonly BrowserName[] = ['chromium', 'firefox', 'webkit'];
const PLAYWRIGHT: readonly BrowserName[] = ['chromium', 'firefox'];
const CHROMIUM: readonly BrowserName[] = ['chromium'];

export const COVERAGE: Readonly<Record<string, Coverage>> = {
  'reads.spec.ts': {
    runs: { embedded: EVERY, lan: EVERY, caddy: CHROMIUM },
    why: 'CORS reads with credentials, each engine’s own decisions in and out of a secure context (a cookie comes back by its SameSite and Secure: embedded, lan); that the Caddyfile passes every CORS header, which no engine changes (caddy). Compose runs the same Caddyfile.',
  },
  'bodies.spec.ts': {
    runs: { embedded: EVERY, caddy: CHROMIUM },
    why: 'Request bodies as each engine encodes them (embedded), and as a proxy reframes them, alike for every engine (caddy: HTTP/2 has no chunked encoding). The site boundary and secure context change no body.',
  },
  'forms.spec.ts': {
    runs: { embedded: EVERY, lan: EVERY },
    why: 'Form posts across sites: Fetch Metadata goes only to a potentially trustworthy URL (none on lan). Bodies through Caddy are bodies.spec’s.',
  },
  'beacons.spec.ts': {
    runs: { embedded: EVERY, caddy: EVERY },
    why: 'Beacons and keepalive at page close: whether they leave can hang on the connection (TLS, HTTP/2). Not on the site boundary.',
    fullChromium: 'The back/forward cache: the shell kept no page in it (lifecycle-bfcache, lifecycle-unload-policy).',
  },
  'events.spec.ts': {
    runs: { embedded: EVERY, caddy: EVERY },
    why: 'Server-sent events through a proxy: buffering, flushing and reconnection over HTTP/2.',
  },
  'outcomes.spec.ts': {
    runs: { embedded: EVERY, caddy: CHROMIUM },
    why: 'How each engine’s fetch and XHR report each failure (embedded); a proxy turns some network failures into answers (a 502), whatever the engine (caddy).',
  },
  'proxy.spec.ts': {
    runs: { embedded: EVERY, caddy: CHROMIUM },
    why: 'The same-origin proxy in each engine (embedded), and behind another proxy (caddy), which is the server’s business. Its cache shared by replicas is replicas.spec’s.',
  },
  'isolation.spec.ts': {
    runs: { embedded: EVERY, lan: EVERY, caddy: CHROMIUM },
    why: 'COOP and COEP apply only in a secure context (ignored on lan), as each engine implements them; that Caddy passes the headers is alike for every engine. Compose runs the same Caddyfile.',
  },
  'local-network.spec.ts': {
    runs: { embedded: EVERY },
    fullChromium:
      'Local Network Access is a permission the browser asks for, and rebinding needs its secure DNS setting: the shell has neither as the browser does.',
    why: 'Local Network Access between two loopback addresses, and DNS rebinding through the lab’s own resolver: only the embedded stack serves the page and the server at two, and runs the rebinding lab (npm start -- --rebind).',
  },
  'sign-in.spec.ts': {
    runs: { embedded: EVERY },
    fullChromium:
      'Third-party cookies and storage access follow the browser’s cookie settings, which the shell does not have.',
    why: 'Sign-in with a provider on another site: opener policies, SameSite and each engine’s third-party cookie policy differ by engine. The embedded stack has three sites that are secure contexts over http (localhost, 127.0.0.1, c.localhost), as Secure cookies and COOP need. Over TLS (the caddy stack, run once on 2026-11-30) every outcome was the same in Chromium and Firefox; in WebKit the Secure cookie an https page set came back with both redirects, as the spec says (over http it never does, listed), and the third-party cookie experiments cannot tell there: WebKitGTK sent the provider’s cookie to its frame and its token call, hasStorageAccess() true, counting a.localhost and c.localhost as one site for its cookie blocking (not for SameSite, which still held app_strict back).',
  },
  'rebind-compose.spec.ts': {
    runs: { compose: CHROMIUM },
    why: 'The DNS rebinding lab as compose’s rebind service (on the host’s network, its settings handed to the pages through a volume): rebinding in Firefox, which rebinds in seconds (the engines’ differences are local-network.spec.ts’s), and the page over https:// saying to open it over http://.',
  },
  'mcp.spec.ts': {
    runs: { embedded: EVERY, compose: CHROMIUM },
    why: 'A browser MCP client across origins: each engine’s preflight and exposed headers (embedded); the lab keeps no session, so a session begun on one api replica goes on on another (compose).',
  },
  'front.spec.ts': {
    runs: { caddy: PLAYWRIGHT, compose: CHROMIUM },
    fullChromium: 'Its Secure cookies across the two names follow the browser’s cookie settings.',
    why: 'What only a TLS front shows (HTTP/2, the six-connection limit, Secure cookies) in both engines behind Debian’s caddy; the compose container runs the same Caddyfile, checked once.',
  },
  'lan.spec.ts': {
    runs: { lan: PLAYWRIGHT },
    why: 'What a class on a LAN loses: not a secure context, HTTP/1.1 only, two sites.',
  },
  'check-image.spec.ts': {
    runs: { compose: CHROMIUM },
    why: 'The check image, built and run on the compose stack’s Docker engine (its own three engines run inside it, whichever project starts the spec), and `docker compose run check` against the lab: once, after the other compose specs (it takes both cores).',
    runsLast: true,
  },
  'replicas.spec.ts': {
    runs: { compose: CHROMIUM },
    why: 'State shared by two api replicas on Redis: only compose has replicas. What crosses them is server state, alike in every engine.',
  },
  'server-view.spec.ts': {
    runs: { embedded: PLAYWRIGHT, compose: CHROMIUM },
    why: 'What the server saw, read from the journal: in memory (embedded), in both engines; on Redis across replicas, its live stream through a front (compose), which is server state.',
  },
  'site.spec.ts': {
    runs: { embedded: PLAYWRIGHT, lan: PLAYWRIGHT, caddy: CHROMIUM, compose: CHROMIUM },
    why: 'Every page loads without errors on both origins, with its Content-Type and caching: outside a secure context (lan) some APIs are missing, in each engine; each front may change the headers, which no engine does.',
  },
  'usability.spec.ts': {
    runs: { embedded: EVERY },
    why: 'Keyboard, phone width, touch and accessibility: the page’s own layout and script, alike on every stack.',
  },
  'classroom.spec.ts': {
    runs: { embedded: CHROMIUM, compose: CHROMIUM },
    why: 'A class at once is load on the server: one process over HTTP/1.1 (six connections per host, every page’s streams open), and two replicas on Redis behind Caddy (over HTTP/2 where the front’s Go schedules it round-robin: Go 1.23 or newer; its plain-HTTP names otherwise, as here). The experiments it runs are each page’s spec’s, in every engine.',
  },
  'playground.spec.ts': {
    runs: { embedded: EVERY, lan: EVERY },
    fullChromium:
      'The engines page records what Chromium does, and the explainer reads the browser’s own HAR (a sandboxed frame’s request shows in the shell’s, not in the browser’s).',
    why: 'Every ready case in every engine (embedded), and out of a secure context those it changes, the cookie and Fetch Metadata cases (lan); from the same run each engine’s record and console, and on embedded the HARs and curl -v the explainer reads (Chromium, Firefox). TLS changed no outcome: the records of caddy and compose equalled embedded’s in all three engines.',
  },
  'playground-links.spec.ts': {
    runs: { embedded: EVERY },
    why: 'The playground’s links (fixed cases, rule cases, shared cases) and the engines page: the page’s own logic, which the stack does not change.',
  },
  'explain.spec.ts': {
    runs: { embedded: EVERY },
    why: 'The Explain page reads text in the browser: nothing the stack changes.',
  },
};

/**
 * The spec files that run on stack in browser: those that run last, or the others; in Chromium,
 * those for the one program (every program's when none is named).
 */
export function specsFor(stack: StackName, browser: BrowserName, last = false, program?: ChromiumProgram): string[] {
  return Object.entries(COVERAGE)
    .filter(([, { runs, runsLast }]) => runs[stack]?.includes(browser) && (runsLast ?? false) === last)
    .filter(([, coverage]) => !program || chromiumProgramOf(coverage) === program)
    .map(([file]) => file);
}

/** The spec files with no row in the matrix, and the rows with no spec file. */
export function matrixGaps(specFiles: readonly string[]): { unlisted: string[]; missing: string[] } {
  return {
    unlisted: specFiles.filter((file) => !(file in COVERAGE)),
    missing: Object.keys(COVERAGE).filter((file) => !specFiles.includes(file)),
  };
}

const STACKS: readonly StackName[] = ['embedded', 'lan', 'caddy', 'compose'];
const LETTER: Record<BrowserName, string> = { chromium: 'C', firefox: 'F', webkit: 'W' };

/**
 * The matrix as docs/testing.md shows it (docs/test/testing.test.ts keeps the two equal): C is
 * Chromium's headless shell, C+ the Chromium browser, with the reason after the spec's why.
 */
export function matrixTable(): string {
  const rows = Object.entries(COVERAGE).map(([file, coverage]) => {
    const { runs, why, fullChromium } = coverage;
    const inBrowser = chromiumProgramOf(coverage) === 'browser';
    const letter = (browser: BrowserName) => LETTER[browser] + (browser === 'chromium' && inBrowser ? '+' : '');
    const cells = STACKS.map((stack) => (runs[stack] ?? []).map(letter).join(' '));
    const reason = fullChromium ? ` Chromium the browser (C+): ${fullChromium}` : '';
    return `| \`${file}\` | ${cells.join(' | ')} | ${why}${reason} |`;
  });
  return [
    `| Spec | ${STACKS.join(' | ')} | Why there, and nowhere else |`,
    `|---|${STACKS.map(() => '---|').join('')}---|`,
    ...rows,
  ].join('\n');
}
