import type { ProxySettings } from './proxy-settings.js';

/** A completed exchange with the upstream: the status, the headers the proxy cares about, the body. */
export interface UpstreamAnswer {
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  setsCookie: boolean;
  vary: string | null;
  /** Every header value, only to check that none of them carries the key. */
  headerText: string;
  body: Buffer;
}

/** The exchange did not complete; status is what the page gets (502 or 504), message and detail are safe to show. */
export class UpstreamFailure extends Error {
  constructor(
    readonly status: 502 | 504,
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/**
 * GET target with the server's bearer key, within timeoutMs for the whole exchange (headers and
 * body) and maxBodyBytes for the body. Redirects are not followed: the host stays pinned.
 * Every failure becomes an UpstreamFailure whose text is written here, never copied from the
 * underlying error, so no header value (the key included) can surface in a message.
 */
export async function callUpstream(target: URL, settings: ProxySettings): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const response = await fetch(target, {
      method: 'GET',
      headers: { Authorization: `Bearer ${settings.apiKey}`, Accept: 'application/json' },
      redirect: 'manual',
      signal,
    });
    const body = await readLimited(response, settings);
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      cacheControl: response.headers.get('cache-control'),
      setsCookie: response.headers.getSetCookie().length > 0,
      vary: response.headers.get('vary'),
      headerText: [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n'),
      body,
    };
  } catch (err) {
    if (err instanceof UpstreamFailure) throw err;
    if (signal.aborted) {
      throw new UpstreamFailure(
        504,
        'the upstream timed out',
        `no complete answer within ${settings.timeoutMs} ms (${settings.variables.timeoutMs})`,
      );
    }
    throw new UpstreamFailure(502, 'the upstream is unavailable', describeNetworkError(err));
  }
}

async function readLimited(response: Response, settings: ProxySettings): Promise<Buffer> {
  const maxBytes = settings.maxBodyBytes;
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw answerTooLarge(settings);
  }
  if (response.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.length;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw answerTooLarge(settings);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function answerTooLarge({ maxBodyBytes, variables }: ProxySettings): UpstreamFailure {
  return new UpstreamFailure(
    502,
    'the upstream answer is too large',
    `more than ${maxBodyBytes} bytes (${variables.maxBodyBytes})`,
  );
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the upstream refused the connection',
  ECONNRESET: 'the upstream reset the connection',
  UND_ERR_SOCKET: 'the upstream closed the connection without a complete answer',
  ENOTFOUND: 'the upstream host name does not resolve',
  EAI_AGAIN: 'the upstream host name could not be resolved right now',
  EHOSTUNREACH: 'the upstream host is unreachable',
  ENETUNREACH: 'the upstream network is unreachable',
  ETIMEDOUT: 'the connection to the upstream timed out',
  CERT_HAS_EXPIRED: "the upstream's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the upstream's TLS certificate is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the upstream's TLS certificate is not trusted",
  UND_ERR_HEADERS_OVERFLOW: "the upstream's response headers are too large",
};

/** A fixed sentence per error code; unknown errors get a generic one rather than their own text. */
function describeNetworkError(err: unknown): string {
  for (
    let current: unknown = err, depth = 0;
    current instanceof Error && depth < 5;
    current = current.cause, depth += 1
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_REASONS[code] !== undefined) return NETWORK_REASONS[code];
  }
  return 'the exchange with the upstream failed';
}
