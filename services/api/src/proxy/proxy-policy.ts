import type { CachedAnswer } from './proxy-cache.js';
import type { ProxySettings } from './proxy-settings.js';
import { UpstreamFailure, type UpstreamAnswer } from './proxy-client.js';

/** What the proxy does with a completed upstream exchange. */
export interface JudgedAnswer {
  /** True when the answer may be shared with every user: stored, and given to coalesced waiters. */
  shareable: boolean;
  /** What the page gets (and, when shareable, what the cache keeps). */
  answer: CachedAnswer;
}

const UNSHAREABLE_DIRECTIVE = /(?:^|,)\s*(?:private|no-store|no-cache)\s*(?:[=,]|$)/i;

/**
 * The rules of one shared cache for all users:
 * - only a 200 without Set-Cookie, without Cache-Control private/no-store/no-cache and without
 *   Vary: * is shared; it gets `Cache-Control: public, max-age=<ttl>`;
 * - anything else is passed on unshared, keeping its own Cache-Control (or no-store), never its
 *   Set-Cookie: an upstream cookie belongs to the server's upstream session, not to the page;
 * - 401/403 mean the server's own key was refused, and a redirect would unpin the host: both are
 *   a 502 to the page; an answer that contains the key is withheld with a 502;
 * - a 5xx is the third party failing, as a gateway reports it: a 502 naming the upstream's status,
 *   so the page can tell our failure from theirs. A 4xx (a bad page number, say) is passed on.
 */
export function judgeUpstreamAnswer(
  upstream: UpstreamAnswer,
  { apiKey, cacheTtlSeconds, variables }: ProxySettings,
): JudgedAnswer {
  if (upstream.body.includes(apiKey) || upstream.headerText.includes(apiKey)) {
    throw new UpstreamFailure(502, 'the upstream answer was withheld', "it contained the server's upstream credential");
  }
  if (upstream.status === 401 || upstream.status === 403) {
    throw new UpstreamFailure(
      502,
      "the upstream refused the server's credentials",
      `the upstream answered ${upstream.status}; check ${variables.apiKey} (or ${variables.apiKey}_FILE) on the server`,
    );
  }
  if (upstream.status >= 500) {
    throw new UpstreamFailure(502, 'the upstream failed', `the upstream answered ${upstream.status}`);
  }
  if (upstream.status >= 300 && upstream.status < 400) {
    throw new UpstreamFailure(
      502,
      'the upstream redirected',
      `the upstream answered ${upstream.status}; the proxy does not follow redirects`,
    );
  }

  const contentType = upstream.contentType ?? 'application/octet-stream';
  const cacheControl = upstream.cacheControl ?? '';
  const shareable =
    upstream.status === 200 &&
    !upstream.setsCookie &&
    !UNSHAREABLE_DIRECTIVE.test(cacheControl) &&
    upstream.vary?.trim() !== '*';
  const headers = shareable
    ? { 'Content-Type': contentType, 'Cache-Control': `public, max-age=${cacheTtlSeconds}` }
    : {
        'Content-Type': contentType,
        'Cache-Control': UNSHAREABLE_DIRECTIVE.test(cacheControl) ? cacheControl : 'no-store',
      };
  return { shareable, answer: { status: upstream.status, headers, body: upstream.body } };
}
