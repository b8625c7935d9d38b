import { sendXhr } from '../xhr.js';
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

/**
 * The transport over XMLHttpRequest, on the same XHR wrapper the pages use raw. The same
 * signals drive it: either one aborts the request, and the failure is named by asking them,
 * because XHR says status 0 for every failure and its events alone cannot tell a deadline
 * from a cancel.
 */
export async function xhrTransport(url: string, options: TransportOptions = {}): Promise<TransportResult> {
  const deadline = deadlineSignal(options.timeoutMs);
  const cancel = options.signal;
  if (cancel?.aborted) throw new TransportError('abort', url, cancel.reason);
  const outcome = await sendXhr(options.method ?? 'GET', url, {
    headers: options.headers,
    body: options.body ?? null,
    signal: combinedSignal(deadline, cancel),
  });
  if (outcome.failure) throw new TransportError(classifyFailure(deadline, cancel), url, outcome.failure);
  return { ok: isOkStatus(outcome.status), status: outcome.status, data: parseJsonOrNull(outcome.responseText) };
}
