import {
  classifyFailure,
  combinedSignal,
  deadlineSignal,
  isOkStatus,
  parseJsonOrNull,
  TransportError,
  type TransportOptions,
  type TransportResult,
} from './contract.js';

/** The transport over fetch. Reads the body as text once, then parses it, so an empty body is data null. */
export async function fetchTransport(url: string, options: TransportOptions = {}): Promise<TransportResult> {
  const deadline = deadlineSignal(options.timeoutMs);
  const cancel = options.signal;
  const signal = combinedSignal(deadline, cancel);
  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body ?? null,
      signal,
    });
    const text = await response.text();
    return { ok: isOkStatus(response.status), status: response.status, data: parseJsonOrNull(text) };
  } catch (cause) {
    throw new TransportError(classifyFailure(deadline, cancel), url, cause);
  }
}
