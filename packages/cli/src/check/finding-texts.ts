/**
 * What the findings say to people: each kind's title and detail, apart from the logic that finds
 * them (findings.ts). Each takes only what the sentence names.
 */

export const FINDING_TEXTS = {
  'hostile-read-credentials': {
    title: 'Origins you did not name read your API with the user’s credentials',
    detail: (origins: readonly string[]) =>
      `${origins.join(', ')} read the answer to a request carrying cookies: any page there can act as a signed-in user and read what they see.`,
  },
  'null-trusted': {
    title: 'The origin "null" may read',
    detail:
      'A sandboxed frame or a data: URL worker is "null", and any site can make one: trusting null trusts every site.',
  },
  'hostile-read': {
    title: 'Origins you did not name may read your API',
    detail: (origins: readonly string[], kinds: readonly string[]) =>
      `${origins.join(', ')} read the answer: the server's origin check lets them through (${kinds.join(', ')}).`,
  },
  'missing-vary': {
    title: 'An answer that depends on the Origin lacks Vary: Origin',
    /** A permission that follows the Origin, and the origin it was given to. */
    detailPermission: (allowed: string | undefined, origin: string) =>
      `Access-Control-Allow-Origin follows the request's Origin (${allowed} for ${origin}) with no Vary: Origin: a shared cache may hand that permission to another origin.`,
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
  'fetch-metadata': {
    title: (methods: readonly string[]) =>
      `Your origins' ${methods.join(', ')} requests are refused by the server itself (403): not CORS`,
    detail: (origins: readonly string[], methods: readonly string[], someRead: boolean) =>
      `${origins.join(', ')} sent ${methods.join(', ')} and the server answered 403${someRead ? ', which CORS let the page read' : ''}. A request that changes something and is not same-origin is what Fetch-metadata protection refuses (Go's http.CrossOriginProtection, and the CSRF guards of frameworks that read Sec-Fetch-Site): no CORS header changes it. Let these origins through the protection (trusted origins), or check the server's log for what refused it.`,
  },
  'engines-differ': {
    title: (origin: string, request: string) => `Engines differ: ${origin}, ${request}`,
    detail: (readIn: readonly string[], refusedIn: readonly { engine: string; why: string }[]) =>
      `Read in ${readIn.join(', ')}; refused in ${refusedIn.map(({ engine, why }) => `${engine} (${why})`).join('; ')}.`,
    noReason: 'no reason given',
  },
} as const;
