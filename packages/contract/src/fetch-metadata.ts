/**
 * Fetch-metadata protection, the lab's `protect=fetch-metadata`: a refusal that is not CORS. A
 * module of its own (`@origin-lab/contract/fetch-metadata`), so that only the api, the prediction
 * and the explainer load it, never every page through the contract's index.
 */

/** The methods that change nothing (RFC 9110's safe methods a browser sends), which the protection lets through. */
export const SAFE_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/** What the protection reads of a request. */
export interface ProtectedRequest {
  method: string;
  /** Sec-Fetch-Site as sent, or null: browsers send it only to potentially trustworthy URLs. */
  secFetchSite: string | null;
  /** Origin as sent, or null. */
  origin: string | null;
  /** The Host the request was sent to (host[:port]). */
  host: string;
}

/**
 * Fetch-metadata protection as Go 1.25's http.CrossOriginProtection runs it, and the rule a
 * growing number of frameworks copy: a safe method passes; else Sec-Fetch-Site must say
 * same-origin or none (typed into the address bar); without it, an Origin must name the host
 * asked (a request without either is no browser's cross-origin request, and passes). Returns why
 * the request is refused, or null. Same-site is refused too: only the origin itself may write.
 */
export function fetchMetadataRefusal(request: ProtectedRequest): string | null {
  const method = request.method.toUpperCase();
  if (SAFE_METHODS.includes(method)) return null;
  if (request.secFetchSite !== null)
    return ['same-origin', 'none'].includes(request.secFetchSite)
      ? null
      : `Fetch-metadata protection refuses a ${method} that is not same-origin (Sec-Fetch-Site: ${request.secFetchSite})`;
  if (request.origin === null) return null;
  let host: string | null = null;
  try {
    host = new URL(request.origin).host;
  } catch {
    // Origin: null, or no URL at all: not this host.
  }
  return host === request.host.toLowerCase()
    ? null
    : `Fetch-metadata protection refuses a ${method} from another origin (no Sec-Fetch-Site; Origin: ${request.origin} is not ${request.host})`;
}
