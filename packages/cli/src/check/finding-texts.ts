/**
 * What the findings say to people: each kind's title and detail, apart from the logic that finds
 * them (findings.ts). Each takes only what the sentence names.
 */

/** What it takes to be an origin of each cost, in words. */
export const COST_TEXTS = {
  'any-site': 'any site can be',
  position:
    'an attacker with a position can be (a subdomain taken over, the network path, a program on the user’s machine, another service on your host)',
  'own-host': 'only pages your own host serves can be',
} as const;

type ByCost = readonly { cost: keyof typeof COST_TEXTS; origins: readonly string[] }[];

/** "any site can be a, b; an attacker with a position can be c". */
const byCostText = (byCost: ByCost) =>
  byCost
    .map(
      ({ cost, origins }) =>
        `${COST_TEXTS[cost]} ${origins.length > 6 ? `${origins.slice(0, 6).join(', ')} and ${origins.length - 6} more` : origins.join(', ')}`,
    )
    .join('; ');

export const FINDING_TEXTS = {
  'hostile-read-credentials': {
    title: 'Origins you did not name read your API with the user’s credentials',
    detail: (byCost: ByCost) =>
      `They read the answer to a request carrying cookies: a page there can act as a signed-in user and read what they see. Graded by the cheapest attacker: ${byCostText(byCost)}.`,
  },
  'dns-rebinding': {
    title: 'Any site can read this server through DNS rebinding: it answers a name that is not its own',
    detail: (origin: string, engines: readonly string[], status: string, stopped: readonly string[]) =>
      `A page at ${origin}, whose name then pointed to your server, read ${status} in ${engines.join(', ')}: to the engine that is one origin, so CORS is never asked and only the server's check of Host could refuse. Anyone can own such a name and point it anywhere.${stopped.length > 0 ? ` ${stopped.join(', ')} stopped it with Local Network Access (a public page reaching a loopback or private address): not CORS, and a user may allow it.` : ''}`,
  },
  'mcp-session-hidden': {
    title: 'Your page cannot read Mcp-Session-Id: a browser MCP client cannot go past initialize',
    detail:
      'The server answered initialize with a session in Mcp-Session-Id, but the answer does not name it in Access-Control-Expose-Headers, so script sees no such header: the client sends its next requests without a session, and the server refuses them (400).',
  },
  'mcp-origin-not-validated': {
    title: 'The MCP server answers an Origin it should refuse (the MCP specification asks for 403)',
    detail: (origins: readonly string[], statuses: string) =>
      `The check’s own initialize with Origin ${origins.slice(0, 3).join(', ')}${origins.length > 3 ? ` and ${origins.length - 3} more` : ''} got ${statuses}. CORS keeps those pages from reading, but not a page whose name was rebound to your server: its POST carries its Origin, and only a check of Origin (or Host) refuses it.`,
  },
  'session-leak': {
    title: 'Origins you did not name read your signed-in user’s answer',
    detail: (engines: string, byCost: ByCost, body: string) =>
      `With the session’s cookies set, ${engines} sent them on a cross-origin read and the page read the signed-in answer (${body}), under the engine’s own default cookie policy. Graded by the cheapest attacker: ${byCostText(byCost)}.`,
  },
  sessionOutcomes: (outcomes: readonly string[]) => `Signed in (--session): ${outcomes.join('; ')}.`,
  sessionWithheld:
    'Every engine held the cookies back, so no signed-in answer was read today; a browser set otherwise (third-party cookies allowed, a SameSite=None cookie) would send them: graded as a read without credentials, and worth the same fix.',
  'hostile-write': {
    title: (methods: readonly string[]) =>
      `Origins you did not name send ${methods.join(', ')} with the user’s credentials: their preflight is approved`,
    detail: (methods: readonly string[], byCost: ByCost, read: boolean) =>
      `The engine asked the server before sending ${methods.join(', ')} with cookies, the server said yes, and the request went out${read ? ', and the page read the answer' : ''}: another site changes things as the signed-in user. Graded by the cheapest attacker: ${byCostText(byCost)}.`,
  },
  'hostile-preflight': {
    title: 'Origins you did not name pass the preflight with the user’s credentials',
    detail: (byCost: ByCost) =>
      `Their request with cookies, Authorization, a custom header and a JSON type was approved and sent, though the answer was not readable: a check that a custom header is present no longer tells your pages from theirs, and any method the preflight also approves goes out the same way (name it with --methods to see). Graded by the cheapest attacker: ${byCostText(byCost)}.`,
  },
  'null-trusted': {
    title: 'The origin "null" may read',
    detail:
      'A sandboxed frame or a data: URL worker is "null", and any site can make one: trusting null trusts every site.',
  },
  'hostile-read': {
    title: 'Origins you did not name may read your API',
    detail: (byCost: ByCost, kinds: readonly string[]) =>
      `They read the answer without cookies: the server's origin check lets them through (${kinds.join(', ')}). Harmless for public data, a leak for what is answered by network or client address. Graded by the cheapest attacker: ${byCostText(byCost)}.`,
  },
  'missing-vary': {
    title: 'An answer that depends on the Origin lacks Vary: Origin',
    /** A permission that follows the Origin, and the origin it was given to. */
    detailPermission: (allowed: string | undefined, origin: string) =>
      `Access-Control-Allow-Origin follows the request's Origin (${allowed} for ${origin}) with no Vary: Origin: a shared cache between may hand that permission to another origin (low: it takes a cache that ignores the difference).`,
    detailRefusal: `Some origins get Access-Control-Allow-Origin and others none, and the answers without it say nothing in Vary: a shared cache may hand such a refusal to an origin you allow.`,
  },
  wildcard: {
    title: 'Any origin may read without credentials (Access-Control-Allow-Origin: *)',
    detail:
      'Right for a public API whose answers are the same for everyone; never for one that answers by cookie, by client address or by network (an intranet API). No page can read it with credentials.',
  },
  refused: {
    title: (origin: string, request: string) => `${origin} cannot read ${request}`,
  },
  'error-answer-unreadable': {
    title: (url: string, statuses: readonly number[]) =>
      `Your pages cannot read the ${statuses.join(', ') || 'error'} answer of ${url}: they get a network error instead`,
    detail: (origins: readonly string[], statuses: readonly number[], why: string) =>
      `${origins.join(', ')} read the target in the same engine, but not this answer${statuses.length > 0 ? ` (${statuses.join(', ')})` : ''}. ${why} Script sees a network error (fetch rejects with a TypeError, XHR gets status 0), not the status: the page cannot tell an expired session or a missing page from a server that is down, nor read the error's body. The CORS headers come on success only: an authentication middleware, a 404 handler or an error handler answers before the CORS middleware runs, or outside its scope.`,
  },
  /** Error answers (--also-url) among what other origins read, when the target refused them. */
  errorAnswersOnly: (answers: readonly string[]) =>
    `What they read is error answers only (--also-url): ${answers.join('; ')}. The target refuses them: the handler that answers the error sends CORS headers of its own.`,
  /** Error answers among what they read, besides the target. */
  errorAnswersToo: (answers: readonly string[]) =>
    `What they read includes error answers (--also-url): ${answers.join('; ')}.`,
  'fetch-metadata': {
    title: (methods: readonly string[]) =>
      `Your origins' ${methods.join(', ')} requests are refused by the server itself (403): not CORS`,
    detail: (origins: readonly string[], methods: readonly string[], someRead: boolean) =>
      `${origins.join(', ')} sent ${methods.join(', ')} and the server answered 403${someRead ? ', which CORS let the page read' : ''}. A request that changes something and is not same-origin is what Fetch-metadata protection refuses (Go's http.CrossOriginProtection, and the CSRF guards of frameworks that read Sec-Fetch-Site): no CORS header changes it. Let these origins through the protection (trusted origins), or check the server's log for what refused it.`,
  },
  'engines-differ': {
    title: (request: string) => `Engines differ: ${request}`,
    titleMany: (count: number) => `Engines differ on ${count} requests, for one reason`,
    detail: (readIn: readonly string[], refusedIn: readonly { engine: string; why: string }[]) =>
      `Read in ${readIn.join(', ')}; refused in ${refusedIn.map(({ engine, why }) => `${engine} (${why})`).join('; ')}.`,
    requests: (requests: readonly string[]) =>
      `The requests: ${requests.slice(0, 4).join('; ')}${requests.length > 4 ? `; and ${requests.length - 4} more (--json lists all)` : ''}.`,
    noReason: 'no reason given',
  },
} as const;
