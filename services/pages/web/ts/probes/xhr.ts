/** What an XMLHttpRequest showed the page: status, the events that fired, and what it could read. */
export interface XhrOutcome {
  status: number;
  statusText: string;
  /** Event types in the order they fired (load, error, abort, timeout, loadend). */
  events: string[];
  responseText: string;
  headers: string;
}

export interface XhrOptions {
  body?: XMLHttpRequestBodyInit | null;
  headers?: Record<string, string>;
  withCredentials?: boolean;
  /** Registers a listener on xhr.upload, which by itself forces a preflight cross-origin. */
  uploadListener?: boolean;
}

/** Sends one request and settles at loadend, whatever happened; it never rejects. */
export function sendXhr(method: string, url: string, options: XhrOptions = {}): Promise<XhrOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const events: string[] = [];
    xhr.open(method, url);
    xhr.withCredentials = options.withCredentials ?? false;
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    if (options.uploadListener) xhr.upload.addEventListener('progress', () => {});
    for (const type of ['load', 'error', 'abort', 'timeout']) xhr.addEventListener(type, () => events.push(type));
    xhr.addEventListener('loadend', () => {
      events.push('loadend');
      resolve({
        status: xhr.status,
        statusText: xhr.statusText,
        events,
        responseText: xhr.responseText,
        headers: xhr.getAllResponseHeaders(),
      });
    });
    xhr.send(options.body ?? null);
  });
}
