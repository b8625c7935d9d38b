import { classifyFailure, deadlineSignal, isOkStatus, parseJsonOrNull, TransportError, type TransportOptions, type TransportResult } from './contract.js';

/**
 * The transport over XMLHttpRequest. The same signals drive it: either one aborts the request,
 * and the failure is named by asking them, because XHR says status 0 for every failure and
 * its events alone cannot tell a deadline from a cancel.
 */
export function xhrTransport(url: string, options: TransportOptions = {}): Promise<TransportResult> {
  return new Promise((resolve, reject) => {
    const deadline = deadlineSignal(options.timeoutMs);
    const cancel = options.signal;
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const cleanup = () => {
      deadline?.removeEventListener('abort', abort);
      cancel?.removeEventListener('abort', abort);
    };
    const fail = (event: ProgressEvent) => {
      cleanup();
      reject(new TransportError(classifyFailure(deadline, cancel), url, event));
    };
    if (cancel?.aborted) {
      reject(new TransportError('abort', url, cancel.reason));
      return;
    }
    xhr.open(options.method ?? 'GET', url);
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.responseType = 'text';
    xhr.addEventListener('load', () => {
      cleanup();
      resolve({ ok: isOkStatus(xhr.status), status: xhr.status, data: parseJsonOrNull(xhr.responseText) });
    });
    xhr.addEventListener('error', fail);
    xhr.addEventListener('abort', fail);
    xhr.addEventListener('timeout', fail);
    deadline?.addEventListener('abort', abort);
    cancel?.addEventListener('abort', abort);
    xhr.send(options.body ?? null);
  });
}
