import type { Refusal, RefusalRule } from '../rules/refusal.js';

/**
 * The fix for a CORS problem in the server's own stack: the option to change, per framework. One
 * table, read by `check` (per finding) and `explain` (per refusal), so both give the same advice.
 */

/** The stacks the advice is written for. */
export const STACKS = [
  'express',
  'koa',
  'fastify',
  'hono',
  'go-rs-cors',
  'go-jub0bs-cors',
  'spring',
  'aspnet',
  'nginx',
  'caddy',
] as const;
export type Stack = (typeof STACKS)[number];

/** How each stack is named to people. */
export const STACK_NAMES: Record<Stack, string> = {
  express: 'Express (cors)',
  koa: 'Koa (@koa/cors)',
  fastify: 'Fastify (@fastify/cors)',
  hono: 'Hono (hono/cors)',
  'go-rs-cors': 'Go (rs/cors)',
  'go-jub0bs-cors': 'Go (jub0bs/cors)',
  spring: 'Spring (CorsConfiguration)',
  aspnet: 'ASP.NET Core (CORS policy)',
  nginx: 'nginx (add_header)',
  caddy: 'Caddy (header)',
};

/** What a fix changes. */
export type FixTopic =
  | 'allow-origin'
  | 'exact-origins'
  | 'vary-origin'
  | 'credentials'
  | 'methods'
  | 'headers'
  | 'preflight-ok'
  | 'preflight-no-redirect'
  | 'expose-headers';

/** What the advice is about: the origins to allow, and what the request needs. */
export interface FixContext {
  /** The origins that should be allowed (the user's own), serialized. */
  origins: readonly string[];
  method?: string;
  header?: string;
  /** The preflight's answer is the one to change. */
  preflight?: boolean;
}

export interface Fix {
  topic: FixTopic;
  /** The rule, in a sentence that holds for every stack. */
  summary: string;
  /** The change, per stack. */
  byStack: Record<Stack, string>;
}

const list = (items: readonly string[], quote = '"') => items.map((item) => `${quote}${item}${quote}`).join(', ');

/** What a check of the Origin must never do, said once for the fixes that allow origins. */
const NEVER_LOOSE =
  'never reflect the Origin header, never match by prefix, suffix, substring or an unescaped regular expression, never trust "null"';

/** The fix for one topic, with the user's origins (and method or header) written in. */
export function fixFor(topic: FixTopic, context: FixContext): Fix {
  const origins = context.origins.length > 0 ? context.origins : ['https://app.example.com'];
  const o = list(origins);
  const single = origins[0]!;
  const method = context.method ?? 'PUT';
  const header = context.header ?? 'Authorization';
  switch (topic) {
    case 'allow-origin': {
      // What to send first, then how to choose it safely: the same settings as exact origins,
      // and Vary: Origin, which the middlewares add and a hand-written header must.
      const exact = fixFor('exact-origins', context);
      const vary = fixFor('vary-origin', context);
      return {
        topic,
        summary: `Send Access-Control-Allow-Origin: ${single} (the page’s own origin, exactly) and Vary: Origin${context.preflight ? ', in the preflight’s answer too, which must be 200 or 204' : ''}. Pick it from a list of exact origins, compared whole: ${NEVER_LOOSE}.`,
        byStack: Object.fromEntries(
          STACKS.map((stack) => [stack, `${exact.byStack[stack]} ${vary.byStack[stack]}`]),
        ) as Record<Stack, string>,
      };
    }
    case 'exact-origins':
      return {
        topic,
        summary: `Allow only exact origins, compared whole (${origins.join(', ')}): ${NEVER_LOOSE}.`,
        byStack: {
          express: `cors({ origin: [${o}] }) — an array of exact strings; not origin: true (reflects every origin) nor a RegExp without ^, $ and escaped dots.`,
          koa: `cors({ origin: (ctx) => [${o}].includes(ctx.get('Origin')) ? ctx.get('Origin') : '' }) — @koa/cors reflects every origin when credentials is set and origin is not.`,
          fastify: `fastify.register(cors, { origin: [${o}] }) — exact strings; not origin: true.`,
          hono: `cors({ origin: [${o}] }) — exact strings; a function must compare the whole origin.`,
          'go-rs-cors': `cors.Options{AllowedOrigins: []string{${o}}} — no "*" with AllowCredentials, and no AllowOriginFunc that returns true for every origin.`,
          'go-jub0bs-cors': `cors.Config{Origins: []string{${o}}} — jub0bs/cors refuses dangerous patterns itself.`,
          spring: `config.setAllowedOrigins(List.of(${o})) — not setAllowedOriginPatterns("*") with setAllowCredentials(true).`,
          aspnet: `policy.WithOrigins(${o}) — not SetIsOriginAllowed(_ => true).`,
          nginx: `map $http_origin $cors_origin { default ""; ${origins.map((origin) => `"${origin}" $http_origin;`).join(' ')} } then add_header Access-Control-Allow-Origin $cors_origin always; — never add_header ... $http_origin unchecked.`,
          caddy: `@cors header Origin ${origins.join(' ')} then header @cors Access-Control-Allow-Origin {http.request.header.Origin} — never for every Origin.`,
        },
      };
    case 'vary-origin':
      return {
        topic,
        summary:
          'An answer whose Access-Control-Allow-Origin depends on the request must say Vary: Origin, or a shared cache may hand one origin’s permission (or refusal) to another.',
        byStack: {
          express: 'cors adds Vary: Origin whenever origin is not "*"; a hand-written header needs res.vary("Origin").',
          koa: '@koa/cors adds Vary: Origin; a hand-written header needs ctx.vary("Origin").',
          fastify:
            '@fastify/cors adds Vary: Origin for a non-static origin; a hand-written one needs reply.header("Vary", "Origin").',
          hono: 'hono/cors adds Vary: Origin for a non-"*" origin; a hand-written one needs c.header("Vary", "Origin", { append: true }).',
          'go-rs-cors': 'rs/cors adds Vary: Origin; a hand-written handler needs w.Header().Add("Vary", "Origin").',
          'go-jub0bs-cors': 'jub0bs/cors adds Vary: Origin itself.',
          spring:
            'Spring’s CorsFilter adds Vary: Origin; a hand-written header needs response.addHeader("Vary", "Origin").',
          aspnet:
            'The CORS middleware adds Vary: Origin; a hand-written header needs Response.Headers.Append("Vary", "Origin").',
          nginx: 'add_header Vary Origin always;',
          caddy: 'header Vary Origin',
        },
      };
    case 'credentials':
      return {
        topic,
        summary: `A request with credentials (cookies, withCredentials) needs Access-Control-Allow-Credentials: true and the origin named exactly (${single}), never "*".`,
        byStack: {
          express: `cors({ origin: [${o}], credentials: true })`,
          koa: `cors({ origin: (ctx) => [${o}].includes(ctx.get('Origin')) ? ctx.get('Origin') : '', credentials: true })`,
          fastify: `fastify.register(cors, { origin: [${o}], credentials: true })`,
          hono: `cors({ origin: [${o}], credentials: true })`,
          'go-rs-cors': `cors.Options{AllowedOrigins: []string{${o}}, AllowCredentials: true}`,
          'go-jub0bs-cors': `cors.Config{Origins: []string{${o}}, Credentialed: true}`,
          spring: `config.setAllowedOrigins(List.of(${o})); config.setAllowCredentials(true);`,
          aspnet: `policy.WithOrigins(${o}).AllowCredentials()`,
          nginx:
            'add_header Access-Control-Allow-Credentials true always; (with Access-Control-Allow-Origin from a map of exact origins, never *)',
          caddy: 'header @cors Access-Control-Allow-Credentials true (with an exact origin, never *)',
        },
      };
    case 'methods':
      return {
        topic,
        summary: `A preflight for ${method} must be answered with ${method} in Access-Control-Allow-Methods, written exactly as the request sends it (methods compare case by case); "*" covers it only without credentials.`,
        byStack: {
          express: `cors({ methods: ['GET', 'POST', '${method}'] })`,
          koa: `cors({ allowMethods: ['GET', 'POST', '${method}'] })`,
          fastify: `fastify.register(cors, { methods: ['GET', 'POST', '${method}'] })`,
          hono: `cors({ allowMethods: ['GET', 'POST', '${method}'] })`,
          'go-rs-cors': `cors.Options{AllowedMethods: []string{http.MethodGet, http.MethodPost, "${method}"}}`,
          'go-jub0bs-cors': `cors.Config{Methods: []string{http.MethodGet, http.MethodPost, "${method}"}}`,
          spring: `config.setAllowedMethods(List.of("GET", "POST", "${method}"));`,
          aspnet: `policy.WithMethods("GET", "POST", "${method}")`,
          nginx: `add_header Access-Control-Allow-Methods "GET, POST, ${method}" always; (in the OPTIONS answer)`,
          caddy: `header @preflight Access-Control-Allow-Methods "GET, POST, ${method}"`,
        },
      };
    case 'headers':
      return {
        topic,
        summary: `A preflight for a request carrying ${header} must list it in Access-Control-Allow-Headers; "*" never covers Authorization and covers nothing with credentials.`,
        byStack: {
          express: `cors({ allowedHeaders: ['Content-Type', '${header}'] })`,
          koa: `cors({ allowHeaders: ['Content-Type', '${header}'] })`,
          fastify: `fastify.register(cors, { allowedHeaders: ['Content-Type', '${header}'] })`,
          hono: `cors({ allowHeaders: ['Content-Type', '${header}'] })`,
          'go-rs-cors': `cors.Options{AllowedHeaders: []string{"Content-Type", "${header}"}}`,
          'go-jub0bs-cors': `cors.Config{RequestHeaders: []string{"Content-Type", "${header}"}}`,
          spring: `config.setAllowedHeaders(List.of("Content-Type", "${header}"));`,
          aspnet: `policy.WithHeaders("Content-Type", "${header}")`,
          nginx: `add_header Access-Control-Allow-Headers "Content-Type, ${header}" always; (in the OPTIONS answer)`,
          caddy: `header @preflight Access-Control-Allow-Headers "Content-Type, ${header}"`,
        },
      };
    case 'preflight-ok':
      return {
        topic,
        summary:
          'Answer the preflight (OPTIONS with Access-Control-Request-Method) with 200 or 204 before authentication runs: it never carries cookies or Authorization.',
        byStack: {
          express:
            'app.use(cors(...)) before the authentication middleware; cors answers OPTIONS itself (optionsSuccessStatus: 204).',
          koa: 'app.use(cors(...)) before the authentication middleware; @koa/cors answers the preflight with 204.',
          fastify:
            'register @fastify/cors before auth hooks, or skip auth in onRequest when request.method === "OPTIONS".',
          hono: 'app.use("*", cors(...)) before the auth middleware.',
          'go-rs-cors': 'wrap the whole handler: c.Handler(authMiddleware(mux)), so rs/cors answers OPTIONS first.',
          'go-jub0bs-cors': 'wrap outside authentication: corsMw.Wrap(auth(mux)).',
          spring:
            'http.cors(Customizer.withDefaults()) in the SecurityFilterChain, so preflights pass before authentication.',
          aspnet: 'app.UseCors() before app.UseAuthentication() and app.UseAuthorization().',
          nginx: 'if ($request_method = OPTIONS) { return 204; } before auth_request or auth_basic applies.',
          caddy: '@preflight method OPTIONS then respond @preflight 204, ordered before basic_auth / forward_auth.',
        },
      };
    case 'preflight-no-redirect':
      return {
        topic,
        summary:
          'A preflight is never followed through a redirect: call the final URL (scheme, host and trailing slash as the server wants them), or answer OPTIONS without redirecting.',
        byStack: {
          express:
            'call the final URL; mount cors before any redirecting middleware (trailing-slash or https redirects).',
          koa: 'call the final URL; put @koa/cors before any redirect.',
          fastify: 'call the final URL (ignoreTrailingSlash: true avoids one kind of redirect).',
          hono: 'call the final URL; app.use(cors()) before trailing-slash middleware.',
          'go-rs-cors': 'call the final URL; net/http’s ServeMux redirects /path to /path/ on its own.',
          'go-jub0bs-cors': 'call the final URL; net/http’s ServeMux redirects /path to /path/ on its own.',
          spring: 'call the final URL; requiresChannel / https redirects apply to OPTIONS too.',
          aspnet: 'call the final URL; UseHttpsRedirection redirects OPTIONS too.',
          nginx: 'call the final URL; answer OPTIONS before any return 301.',
          caddy: 'call the final URL; answer OPTIONS before any redir.',
        },
      };
    case 'expose-headers':
      return {
        topic,
        summary: `Script reads a cross-origin answer's ${header} only when Access-Control-Expose-Headers names it; "*" names every header only without credentials.`,
        byStack: {
          express: `cors({ exposedHeaders: ['${header}'] })`,
          koa: `cors({ exposeHeaders: ['${header}'] })`,
          fastify: `fastify.register(cors, { exposedHeaders: ['${header}'] })`,
          hono: `cors({ exposeHeaders: ['${header}'] })`,
          'go-rs-cors': `cors.Options{ExposedHeaders: []string{"${header}"}}`,
          'go-jub0bs-cors': `cors.Config{ResponseHeaders: []string{"${header}"}}`,
          spring: `config.setExposedHeaders(List.of("${header}"));`,
          aspnet: `policy.WithExposedHeaders("${header}")`,
          nginx: `add_header Access-Control-Expose-Headers "${header}" always;`,
          caddy: `header Access-Control-Expose-Headers "${header}"`,
        },
      };
  }
}

/** The fix each refusal of the Fetch rules calls for. */
export const FIX_FOR_REFUSAL = {
  'no-allow-origin': 'allow-origin',
  'origin-mismatch': 'allow-origin',
  'allow-origin-list': 'allow-origin',
  'wildcard-with-credentials': 'credentials',
  'credentials-not-allowed': 'credentials',
  'method-not-allowed': 'methods',
  'header-not-allowed': 'headers',
  'authorization-not-covered': 'headers',
  'preflight-status': 'preflight-ok',
  'preflight-redirect': 'preflight-no-redirect',
} as const satisfies Record<RefusalRule, FixTopic>;

/**
 * The fix for one refusal of the shared rules, written for the page's origin, the request's
 * method and what the preflight did not allow (the playground's and every page's Why).
 */
export function fixForRefusal(
  refusal: Pick<Refusal, 'rule' | 'asked'> & Partial<Pick<Refusal, 'stage'>>,
  origin: string,
  method: string,
): Fix {
  return fixFor(FIX_FOR_REFUSAL[refusal.rule], {
    origins: [origin],
    method,
    ...(refusal.asked !== undefined && { header: refusal.asked }),
    ...(refusal.stage === 'preflight' && { preflight: true }),
  });
}
