import { ConfigError } from '@origin-lab/server-kit';

/**
 * The upstream resources the proxy forwards to: the one place to add or remove one.
 * /api/upstream/posts reaches {UPSTREAM_URL}/posts, /api/upstream/tags reaches {UPSTREAM_URL}/tags.
 */
export const PROXIED_PATHS: ReadonlySet<string> = new Set(['/posts', '/tags']);

/** Where the proxy is mounted in the API. */
export const PROXY_PREFIX = '/api/upstream';

/** The API paths the proxy answers with GET and HEAD. */
export const PROXIED_ROUTES: string[] = [...PROXIED_PATHS].map((path) => `${PROXY_PREFIX}${path}`);

/**
 * Every other path at or under the prefix (`/api/upstream`, `/api/upstream/`, `/api/upstream/x/y`):
 * 404 Not proxied whatever the method. Not `/api/upstreamX`: that is no proxy path at all.
 */
export const NOT_PROXIED_ROUTE = new RegExp(
  `^${escapeRegExp(PROXY_PREFIX)}(?!(?:${[...PROXIED_PATHS].map(escapeRegExp).join('|')})$)(?:/.*)?$`,
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pinned upstream base: scheme, host, port and an optional path prefix, nothing else. */
export interface UpstreamBase {
  origin: string;
  /** '' or a prefix such as '/v1', without a trailing slash. */
  pathPrefix: string;
}

/** raw: the configured URL; variables: those of the URL and the key, which a refusal names. */
export function parseUpstreamBase(raw: string, variables: { url: string; apiKey: string }): UpstreamBase {
  const { url: urlVariable, apiKey: keyVariable } = variables;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${urlVariable} must be an absolute http(s) URL; got "${raw.slice(0, 200)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${urlVariable} must use http or https`);
  if (url.username !== '' || url.password !== '')
    throw new ConfigError(`${urlVariable} must not carry credentials; the key goes in ${keyVariable}`);
  if (url.search !== '' || url.hash !== '') throw new ConfigError(`${urlVariable} must not have a query or a fragment`);
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

export type ProxyTarget =
  { kind: 'target'; url: URL } | { kind: 'not-proxied' } | { kind: 'bad-query'; reason: 'characters' | 'length' };

/**
 * A query passed on: visible ASCII except '#' (which would start a fragment). Browsers send some
 * characters raw in a query ({ } | ^ `), so only what cannot belong to a query is refused;
 * %XX escapes pass untouched. The query can never move the target: it comes after the '?'.
 */
const QUERY = /^[\x21-\x22\x24-\x7e]*$/;

/**
 * Maps the raw request target to the upstream URL, or refuses it. The path after the prefix
 * must be, byte for byte, one of PROXIED_PATHS: no decoding, no normalising, so `..`, `%2e%2e`,
 * `%2f`, double encoding, backslashes, `//host`, `@`, `:`, trailing slashes, case variants and
 * absolute-form targets can never name anything else. The host comes only from configuration.
 */
export function proxyTarget(
  rawUrl: string,
  { base, maxQueryChars }: { base: UpstreamBase; maxQueryChars: number },
): ProxyTarget {
  if (!rawUrl.startsWith(PROXY_PREFIX)) return { kind: 'not-proxied' };
  const questionMark = rawUrl.indexOf('?');
  const rawPath = questionMark === -1 ? rawUrl : rawUrl.slice(0, questionMark);
  const query = questionMark === -1 ? '' : rawUrl.slice(questionMark + 1);
  const path = rawPath.slice(PROXY_PREFIX.length);
  if (!PROXIED_PATHS.has(path)) return { kind: 'not-proxied' };
  if (query.length > maxQueryChars) return { kind: 'bad-query', reason: 'length' };
  if (!QUERY.test(query)) return { kind: 'bad-query', reason: 'characters' };

  const url = new URL(`${base.origin}${base.pathPrefix}${path}${query === '' ? '' : `?${query}`}`);
  // Belt and braces: whatever the query held, the URL must still point where configuration says.
  if (url.origin !== base.origin || url.pathname !== `${base.pathPrefix}${path}`) return { kind: 'not-proxied' };
  return { kind: 'target', url };
}
