/**
 * The result contract shared by both transports: { ok, status, data } for every completed
 * exchange (404 and 500 included), or one error type, TransportError, when there was no answer.
 */

export interface TransportResult {
  /** status 200 through 299 */
  ok: boolean;
  status: number;
  /** The parsed JSON body; null when the body is empty or does not parse. */
  data: unknown;
}

export interface TransportOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | null;
  /** A deadline for the whole exchange, body included. */
  timeoutMs?: number;
  /** The caller's own cancel signal. */
  signal?: AbortSignal;
}

export type FailureKind = 'network' | 'timeout' | 'abort';

export class TransportError extends Error {
  override readonly name = 'TransportError';

  constructor(
    readonly kind: FailureKind,
    readonly url: string,
    /** The original exception (fetch) or event (XMLHttpRequest). */
    override readonly cause: unknown,
  ) {
    super(`${kind} failure for ${url}`, { cause });
  }
}

/**
 * Names the failure by asking the signals, never the exception: the deadline first (if both
 * fired in the same task it counts as a timeout), then the caller's cancel, else the network.
 * Exception names are unreliable: an abort with a reason rejects with that reason, and some
 * engine versions reported a timed-out fetch as AbortError.
 */
export function classifyFailure(deadline: AbortSignal | undefined, cancel: AbortSignal | undefined): FailureKind {
  if (deadline?.aborted) return 'timeout';
  if (cancel?.aborted) return 'abort';
  return 'network';
}

export function parseJsonOrNull(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function isOkStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

/** The deadline signal for timeoutMs, or undefined when there is none. */
export function deadlineSignal(timeoutMs: number | undefined): AbortSignal | undefined {
  return timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
}

/** One signal for the deadline and the caller's cancel, whichever fires first; undefined for neither. */
export function combinedSignal(
  deadline: AbortSignal | undefined,
  cancel: AbortSignal | undefined,
): AbortSignal | undefined {
  const signals = [deadline, cancel].filter((signal): signal is AbortSignal => signal !== undefined);
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

/** The request a transport makes, with its options settled: one signal for the deadline and the cancel. */
export interface ExchangeRequest {
  method: string;
  headers?: Record<string, string>;
  body: string | null;
  signal?: AbortSignal;
}

/** One exchange over one API: the status and the body as text, or a throw carrying the original failure. */
export type Exchange = (url: string, request: ExchangeRequest) => Promise<{ status: number; text: string }>;

/**
 * A transport over one way of making an exchange. The contract is the same for every API: the
 * deadline and the caller's cancel drive one signal, a completed exchange is { ok, status, data }
 * whatever its status, and a failure is one TransportError named by asking the signals.
 */
export function transportOver(exchange: Exchange) {
  return async (url: string, options: TransportOptions = {}): Promise<TransportResult> => {
    const deadline = deadlineSignal(options.timeoutMs);
    const cancel = options.signal;
    try {
      const { status, text } = await exchange(url, {
        method: options.method ?? 'GET',
        headers: options.headers,
        body: options.body ?? null,
        signal: combinedSignal(deadline, cancel),
      });
      return { ok: isOkStatus(status), status, data: parseJsonOrNull(text) };
    } catch (cause) {
      throw new TransportError(classifyFailure(deadline, cancel), url, cause);
    }
  };
}
