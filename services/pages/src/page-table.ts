// The one table of pages. The build (scripts/build-web.mjs) makes from it each page's HTML
// shell (head, navigation, heading, frame), the navigation of every page and the index's list
// of topics; so adding a page is one row here, web/bodies/<name>.html and web/ts/pages/<name>.ts.
// Compiled with the server (tsc -b) so the build script can import it and tests can check it.

export interface PageEntry {
  /** File stem: web/bodies/<name>.html, web/ts/pages/<name>.ts, served as /<name>.html. */
  name: string;
  /** The page's heading, its document title and the index's link text. */
  title: string;
  /** The link text in the navigation (numbered there by its place). */
  navLabel: string;
  /** What the index says after the link; the index itself has none. */
  topic?: string;
  /**
   * False for a page that sends no request of its own (the index, the Explain page): its shell
   * has no waterfall and no "What the server saw", which would stay empty there.
   */
  sendsRequests?: false;
}

/** In navigation order; the index first. */
export const PAGES: readonly PageEntry[] = [
  { name: 'index', title: 'Origin Lab', navLabel: 'Index', sendsRequests: false },
  {
    name: 'reads',
    title: 'Cross-origin reads',
    navLabel: 'Cross-origin reads',
    topic: 'simple requests, cors=off, preflight, credentials, no-cors, safelisted headers.',
  },
  {
    name: 'bodies',
    title: 'Request bodies',
    navLabel: 'Request bodies',
    topic: 'the Content-Type fetch writes, sizes per encoding, the hand-set multipart mistake.',
  },
  {
    name: 'forms',
    title: 'Forms and JSON',
    navLabel: 'Forms and JSON',
    topic: 'what FormData collects, what JSON.stringify does.',
  },
  {
    name: 'beacons',
    title: 'Exit beacons',
    navLabel: 'Exit beacons',
    topic: 'sendBeacon and keepalive, the 64 KiB budget.',
  },
  {
    name: 'events',
    title: 'Server-sent events',
    navLabel: 'Server-sent events',
    topic: 'readyState, done and close(), reconnects.',
  },
  {
    name: 'outcomes',
    title: 'Outcomes',
    navLabel: 'Outcomes',
    topic: 'one result shape over fetch and XMLHttpRequest.',
  },
  {
    name: 'isolation',
    title: 'Cross-origin isolation',
    navLabel: 'Isolation',
    topic: 'COOP, COEP and CORP: crossOriginIsolated, and what an isolated page may still embed. Not CORS.',
  },
  {
    name: 'local-network',
    title: 'Local Network Access',
    navLabel: 'Local network',
    topic: 'a public page calling your own machine: the permission asked before the request leaves. Not CORS.',
  },
  {
    name: 'mcp',
    title: 'MCP from a browser',
    navLabel: 'MCP',
    topic:
      'a browser client calling an MCP server over Streamable HTTP: the session id, the protocol header, auth and Origin.',
  },
  {
    name: 'sign-in',
    title: 'Sign-in across sites',
    navLabel: 'Sign-in',
    topic: 'a popup, a redirect and a token call to another site: opener policies, SameSite, third-party cookies.',
  },
  { name: 'proxy', title: 'Same-origin proxy', navLabel: 'Proxy', topic: 'a third party behind /api/upstream/.' },
  {
    name: 'playground',
    title: 'CORS playground',
    navLabel: 'Playground',
    topic: 'your own request against your own server policy: predicted, sent, observed, explained.',
  },
  {
    name: 'explain',
    title: 'Explain a CORS failure',
    navLabel: 'Explain',
    topic:
      'paste a console message, a HAR file or curl output: the rule that refused it, the fix, a case that shows it.',
    sendsRequests: false,
  },
  {
    name: 'engines',
    title: 'Each engine, case by case',
    navLabel: 'Engines',
    topic: "what Chromium, Firefox and WebKit did with each of the playground's ready cases, differences marked.",
  },
];

/** The address of a page: the index is served at /. */
export function pagePath(page: PageEntry): string {
  return page.name === 'index' ? '/' : `/${page.name}.html`;
}
