/**
 * The fixes' prose: for each topic, the rule in a sentence and the change per stack, with the
 * user's origins (and method or header) written in. fixes.ts chooses the topic; this only writes.
 */
import { STACKS, type Stack } from './stacks.js';

/** What a fix changes. */
export type FixTopic =
  | 'allow-origin'
  | 'exact-origins'
  | 'vary-origin'
  | 'credentials'
  | 'methods'
  | 'headers'
  | 'preflight-ok'
  | 'cors-on-errors'
  | 'preflight-no-redirect'
  | 'expose-headers'
  | 'host-check';

/** What a fix's text is written with. */
export interface FixFacts {
  /** The preflight's answer is the one to change. */
  preflight: boolean | undefined;
  /** The origins to allow (the user's, or an example). */
  origins: readonly string[];
  /** Those origins, quoted and joined for a list in code. */
  o: string;
  /** The first of them, for one origin named alone. */
  single: string;
  method: string;
  header: string;
}

/** What a check of the Origin must never do, said once for the fixes that allow origins. */
const NEVER_LOOSE =
  'never reflect the Origin header, never match by prefix, suffix, substring or an unescaped regular expression, never trust "null"';

export const FIX_TEXTS: Record<FixTopic, (f: FixFacts) => { summary: string; byStack: Record<Stack, string> }> = {
  'allow-origin': (f) => {
    // What to send first, then how to choose it safely: the same settings as exact origins,
    // and Vary: Origin, which the middlewares add and a hand-written header must.
    const exact = FIX_TEXTS['exact-origins'](f);
    const vary = FIX_TEXTS['vary-origin'](f);
    return {
      summary: `Send Access-Control-Allow-Origin: ${f.single} (the page’s own origin, exactly) and Vary: Origin${f.preflight ? ', in the preflight’s answer too, which must be 200 or 204' : ''}. Pick it from a list of exact origins, compared whole: ${NEVER_LOOSE}.`,
      byStack: Object.fromEntries(
        STACKS.map((stack) => [stack, `${exact.byStack[stack]} ${vary.byStack[stack]}`]),
      ) as Record<Stack, string>,
    };
  },
  'exact-origins': (f) => ({
    summary: `Allow only exact origins, compared whole (${f.origins.join(', ')}): ${NEVER_LOOSE}.`,
    byStack: {
      express: `cors({ origin: [${f.o}] }) — an array of exact strings; not origin: true (reflects every origin) nor a RegExp without ^, $ and escaped dots.`,
      koa: `cors({ origin: (ctx) => [${f.o}].includes(ctx.get('Origin')) ? ctx.get('Origin') : '' }) — @koa/cors reflects every origin when credentials is set and origin is not.`,
      fastify: `fastify.register(cors, { origin: [${f.o}] }) — exact strings; not origin: true.`,
      hono: `cors({ origin: [${f.o}] }) — exact strings; a function must compare the whole origin.`,
      'go-rs-cors': `cors.Options{AllowedOrigins: []string{${f.o}}} — no "*" with AllowCredentials, and no AllowOriginFunc that returns true for every origin.`,
      'go-jub0bs-cors': `cors.Config{Origins: []string{${f.o}}} — jub0bs/cors refuses dangerous patterns itself.`,
      spring: `config.setAllowedOrigins(List.of(${f.o})) — not setAllowedOriginPatterns("*") with setAllowCredentials(true).`,
      aspnet: `policy.WithOrigins(${f.o}) — not SetIsOriginAllowed(_ => true).`,
      nginx: `map $http_origin $cors_origin { default ""; ${f.origins.map((origin) => `"${origin}" $http_origin;`).join(' ')} } then add_header Access-Control-Allow-Origin $cors_origin always; — never add_header ... $http_origin unchecked.`,
      caddy: `@cors header Origin ${f.origins.join(' ')} then header @cors Access-Control-Allow-Origin {http.request.header.Origin} — never for every Origin.`,
    },
  }),
  'vary-origin': () => ({
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
  }),
  credentials: (f) => ({
    summary: `A request with credentials (cookies, withCredentials) needs Access-Control-Allow-Credentials: true and the origin named exactly (${f.single}), never "*".`,
    byStack: {
      express: `cors({ origin: [${f.o}], credentials: true })`,
      koa: `cors({ origin: (ctx) => [${f.o}].includes(ctx.get('Origin')) ? ctx.get('Origin') : '', credentials: true })`,
      fastify: `fastify.register(cors, { origin: [${f.o}], credentials: true })`,
      hono: `cors({ origin: [${f.o}], credentials: true })`,
      'go-rs-cors': `cors.Options{AllowedOrigins: []string{${f.o}}, AllowCredentials: true}`,
      'go-jub0bs-cors': `cors.Config{Origins: []string{${f.o}}, Credentialed: true}`,
      spring: `config.setAllowedOrigins(List.of(${f.o})); config.setAllowCredentials(true);`,
      aspnet: `policy.WithOrigins(${f.o}).AllowCredentials()`,
      nginx:
        'add_header Access-Control-Allow-Credentials true always; (with Access-Control-Allow-Origin from a map of exact origins, never *)',
      caddy: 'header @cors Access-Control-Allow-Credentials true (with an exact origin, never *)',
    },
  }),
  methods: (f) => ({
    summary: `A preflight for ${f.method} must be answered with ${f.method} in Access-Control-Allow-Methods, written exactly as the request sends it (methods compare case by case); "*" covers it only without credentials.`,
    byStack: {
      express: `cors({ methods: ['GET', 'POST', '${f.method}'] })`,
      koa: `cors({ allowMethods: ['GET', 'POST', '${f.method}'] })`,
      fastify: `fastify.register(cors, { methods: ['GET', 'POST', '${f.method}'] })`,
      hono: `cors({ allowMethods: ['GET', 'POST', '${f.method}'] })`,
      'go-rs-cors': `cors.Options{AllowedMethods: []string{http.MethodGet, http.MethodPost, "${f.method}"}}`,
      'go-jub0bs-cors': `cors.Config{Methods: []string{http.MethodGet, http.MethodPost, "${f.method}"}}`,
      spring: `config.setAllowedMethods(List.of("GET", "POST", "${f.method}"));`,
      aspnet: `policy.WithMethods("GET", "POST", "${f.method}")`,
      nginx: `add_header Access-Control-Allow-Methods "GET, POST, ${f.method}" always; (in the OPTIONS answer)`,
      caddy: `header @preflight Access-Control-Allow-Methods "GET, POST, ${f.method}"`,
    },
  }),
  headers: (f) => ({
    summary: `A preflight for a request carrying ${f.header} must list it in Access-Control-Allow-Headers; "*" never covers Authorization and covers nothing with credentials.`,
    byStack: {
      express: `cors({ allowedHeaders: ['Content-Type', '${f.header}'] })`,
      koa: `cors({ allowHeaders: ['Content-Type', '${f.header}'] })`,
      fastify: `fastify.register(cors, { allowedHeaders: ['Content-Type', '${f.header}'] })`,
      hono: `cors({ allowHeaders: ['Content-Type', '${f.header}'] })`,
      'go-rs-cors': `cors.Options{AllowedHeaders: []string{"Content-Type", "${f.header}"}}`,
      'go-jub0bs-cors': `cors.Config{RequestHeaders: []string{"Content-Type", "${f.header}"}}`,
      spring: `config.setAllowedHeaders(List.of("Content-Type", "${f.header}"));`,
      aspnet: `policy.WithHeaders("Content-Type", "${f.header}")`,
      nginx: `add_header Access-Control-Allow-Headers "Content-Type, ${f.header}" always; (in the OPTIONS answer)`,
      caddy: `header @preflight Access-Control-Allow-Headers "Content-Type, ${f.header}"`,
    },
  }),
  'preflight-ok': () => ({
    summary:
      'Answer the preflight (OPTIONS with Access-Control-Request-Method) with 200 or 204 before authentication runs: it never carries cookies or Authorization.',
    byStack: {
      express:
        'app.use(cors(...)) before the authentication middleware; cors answers OPTIONS itself (optionsSuccessStatus: 204).',
      koa: 'app.use(cors(...)) before the authentication middleware; @koa/cors answers the preflight with 204.',
      fastify: 'register @fastify/cors before auth hooks, or skip auth in onRequest when request.method === "OPTIONS".',
      hono: 'app.use("*", cors(...)) before the auth middleware.',
      'go-rs-cors': 'wrap the whole handler: c.Handler(authMiddleware(mux)), so rs/cors answers OPTIONS first.',
      'go-jub0bs-cors': 'wrap outside authentication: corsMw.Wrap(auth(mux)).',
      spring:
        'http.cors(Customizer.withDefaults()) in the SecurityFilterChain, so preflights pass before authentication.',
      aspnet: 'app.UseCors() before app.UseAuthentication() and app.UseAuthorization().',
      nginx: 'if ($request_method = OPTIONS) { return 204; } before auth_request or auth_basic applies.',
      caddy: '@preflight method OPTIONS then respond @preflight 204, ordered before basic_auth / forward_auth.',
    },
  }),
  'cors-on-errors': (f) => ({
    summary:
      'Send the CORS headers on every answer, errors included: run the CORS middleware first, before authentication, the routes and the 404 and error handlers, so a 401, 404 or 500 carries them as a 200 does and the page reads its status and body instead of a network error.',
    byStack: {
      express: `app.use(cors({ origin: [${f.o}] })) before the authentication middleware, the routers and the 404 and error handlers: cors sets its headers and calls next(), so every answer after it keeps them (express's own 404 and 500 too).`,
      koa: 'app.use(cors(...)) first, before authentication and any middleware that answers by itself; @koa/cors puts its headers back on a thrown error’s answer (keepHeadersOnError, on by default: leave it on).',
      fastify:
        'fastify.register(cors, ...) at the root, before the authentication hooks: its onRequest hook then runs for every route, the 404 handler and errors included.',
      hono: 'app.use("*", cors(...)) first, before the auth middleware: answers after it keep its headers, app.notFound’s and app.onError’s included.',
      'go-rs-cors':
        'wrap everything, authentication and recovery included: c.Handler(recoverer(auth(mux))), so rs/cors sets its headers before any handler answers 401, 404 or 500.',
      'go-jub0bs-cors':
        'wrap everything, authentication and recovery included: corsMw.Wrap(recoverer(auth(mux))), so the headers are set before any handler answers.',
      spring:
        'http.cors(Customizer.withDefaults()) in the SecurityFilterChain, so the CorsFilter runs before authentication and Spring Security’s 401 and 403 carry the headers; addCorsMappings alone covers the controllers only.',
      aspnet:
        'app.UseCors() before app.UseAuthentication() and app.UseAuthorization(), so their 401 and 403 carry the headers.',
      nginx:
        'add_header Access-Control-Allow-Origin $cors_origin always; (and every other CORS header with always): without it nginx adds headers to 2xx and 3xx answers only, never to a 401, 404 or 500.',
      caddy:
        'the header lines apply before basic_auth and forward_auth in Caddy’s order; an answer made in handle_errors { } needs them there too.',
    },
  }),
  'host-check': () => ({
    summary:
      'Check the Host header against your own names (localhost, 127.0.0.1, [::1], and any name you serve under) and answer 403 to every other: a page under an attacker’s name whose address became yours is same-origin to the browser, so no CORS header and no Origin check stops it. For an MCP server, also refuse an Origin that is not yours (the MCP specification asks for 403).',
    byStack: {
      express:
        'app.use((req, res, next) => (["localhost", "127.0.0.1", "[::1]"].includes(req.hostname) ? next() : res.status(403).end())) first; an MCP server: createMcpExpressApp() from the MCP SDK (its default host, 127.0.0.1, turns its Host validation on) or hostHeaderValidation([...]).',
      koa: 'app.use(async (ctx, next) => { if (!["localhost", "127.0.0.1", "[::1]"].includes(ctx.hostname)) ctx.throw(403); await next(); }) first.',
      fastify:
        'fastify.addHook("onRequest", async (req, reply) => { if (!["localhost", "127.0.0.1", "[::1]"].includes(req.hostname)) return reply.code(403).send(); }).',
      hono: 'app.use("*", async (c, next) => { const host = new URL(c.req.url).hostname; if (!["localhost", "127.0.0.1", "[::1]"].includes(host)) return c.text("forbidden", 403); await next(); }) first.',
      'go-rs-cors':
        'wrap the mux in a handler that compares r.Host (its host part) with your names and answers http.StatusForbidden otherwise; rs/cors does not look at Host.',
      'go-jub0bs-cors':
        'wrap the mux in a handler that compares r.Host (its host part) with your names and answers http.StatusForbidden otherwise; the CORS middleware does not look at Host.',
      spring:
        'a OncePerRequestFilter, first in the chain, that compares request.getServerName() with your names and sends 403 otherwise; CORS configuration does not look at Host.',
      aspnet:
        'builder.Services.AddHostFiltering(o => o.AllowedHosts = ["localhost", "127.0.0.1", "[::1]"]) (or "AllowedHosts" in appsettings.json, never "*"): the host filtering middleware answers 400 to other names.',
      nginx:
        'server_name localhost 127.0.0.1; in the server that answers, and a default server { listen ...; return 444; } for every other name.',
      caddy: 'name the site by its hosts (localhost, 127.0.0.1) rather than :port: Caddy then answers no other Host.',
    },
  }),
  'preflight-no-redirect': () => ({
    summary:
      'A preflight is never followed through a redirect: call the final URL (scheme, host and trailing slash as the server wants them), or answer OPTIONS without redirecting.',
    byStack: {
      express: 'call the final URL; mount cors before any redirecting middleware (trailing-slash or https redirects).',
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
  }),
  'expose-headers': (f) => ({
    summary: `Script reads a cross-origin answer's ${f.header} only when Access-Control-Expose-Headers names it; "*" names every header only without credentials.`,
    byStack: {
      express: `cors({ exposedHeaders: ['${f.header}'] })`,
      koa: `cors({ exposeHeaders: ['${f.header}'] })`,
      fastify: `fastify.register(cors, { exposedHeaders: ['${f.header}'] })`,
      hono: `cors({ exposeHeaders: ['${f.header}'] })`,
      'go-rs-cors': `cors.Options{ExposedHeaders: []string{"${f.header}"}}`,
      'go-jub0bs-cors': `cors.Config{ResponseHeaders: []string{"${f.header}"}}`,
      spring: `config.setExposedHeaders(List.of("${f.header}"));`,
      aspnet: `policy.WithExposedHeaders("${f.header}")`,
      nginx: `add_header Access-Control-Expose-Headers "${f.header}" always;`,
      caddy: `header Access-Control-Expose-Headers "${f.header}"`,
    },
  }),
};
