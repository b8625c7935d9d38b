/** The server stacks the advice is written for, and how each is named to people. */

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
