/**
 * The one XMLHttpRequest wrapper. The pages use it raw, to show what an XHR lets script see
 * (reads: status 0, the events, empty headers), and the outcomes transport builds its
 * { ok, status, data } contract on top of it.
 */

/** What an XMLHttpRequest showed the page: status, the events that fired, and what it could read. */
export interface XhrOutcome {
  status: number;
  statusText: string;
  /** Event types in the order they fired (load, error, abort, timeout, loadend). */
  events: string[];
  responseText: string;
  headers: string;
  /** The error, abort or timeout event when there was no answer; null after load. */
  failure: ProgressEvent | null;
}

export interface XhrOptions {
  body?: XMLHttpRequestBodyInit | null;
  /** Pairs keep a name written twice: setRequestHeader joins the values with ", ". */
  headers?: Record<string, string> | readonly [string, string][];
  withCredentials?: boolean;
  /**
   * Registers a listener on xhr.upload before send(), which by itself forces a preflight
   * cross-origin, or after it, when send() has already decided and it changes nothing.
   */
  uploadListener?: 'before' | 'after';
  /** Aborts the request when it fires (XHR has no signal of its own). */
  signal?: AbortSignal;
}

const FAILURES = ['error', 'abort', 'timeout'];

/** Sends one request and settles at loadend, whatever happened; it never rejects. */
export function sendXhr(method: string, url: string, options: XhrOptions = {}): Promise<XhrOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const events: string[] = [];
    let failure: ProgressEvent | null = null;
    const abort = () => xhr.abort();
    xhr.open(method, url);
    xhr.withCredentials = options.withCredentials ?? false;
    const headers = options.headers ?? {};
    for (const [name, value] of Array.isArray(headers) ? headers : Object.entries(headers))
      xhr.setRequestHeader(name, value);
    const listen = () => xhr.upload.addEventListener('progress', () => {});
    if (options.uploadListener === 'before') listen();
    xhr.addEventListener('load', () => events.push('load'));
    for (const type of FAILURES) {
      xhr.addEventListener(type, (event) => {
        events.push(type);
        failure ??= event as ProgressEvent;
      });
    }
    xhr.addEventListener('loadend', () => {
      options.signal?.removeEventListener('abort', abort);
      events.push('loadend');
      resolve({
        status: xhr.status,
        statusText: xhr.statusText,
        events,
        responseText: xhr.responseText,
        headers: xhr.getAllResponseHeaders(),
        failure,
      });
    });
    options.signal?.addEventListener('abort', abort);
    xhr.send(options.body ?? null);
    if (options.uploadListener === 'after') listen();
    if (options.signal?.aborted) abort();
  });
}
