import { h, scrollBox } from './dom.js';
import { originRole, type SiteOrigins } from './site.js';

/** One request the page made itself, through fetch or XMLHttpRequest. */
export interface TrafficEntry {
  api: 'fetch' | 'xhr';
  method: string;
  url: string;
  role: string;
  startMs: number;
  durationMs: number | null;
  /** HTTP status, 0 for an opaque or unreadable answer, null while pending. */
  status: number | null;
  /** Name of the failure (TypeError, AbortError, error event...) when there was no readable answer. */
  failure: string | null;
  /** Content-Length when the page may read it. */
  bytes: number | null;
  /** Names of the request headers the page's code set, and whether it asked for credentials. */
  headers: string[];
  credentials: boolean;
}

type Listener = (entries: readonly TrafficEntry[]) => void;

const entries: TrafficEntry[] = [];
const listeners: Listener[] = [];
const MAX_ROWS = 60;

export function onTraffic(listener: Listener): void {
  listeners.push(listener);
}

function changed(): void {
  for (const listener of listeners) listener(entries);
}

function record(entry: Omit<TrafficEntry, 'durationMs' | 'status' | 'failure' | 'bytes'>): TrafficEntry {
  const full: TrafficEntry = { ...entry, durationMs: null, status: null, failure: null, bytes: null };
  entries.push(full);
  changed();
  return full;
}

function settle(entry: TrafficEntry, patch: Partial<TrafficEntry>): void {
  Object.assign(entry, patch, { durationMs: Math.round(performance.now() - entry.startMs) });
  changed();
}

function lengthOf(value: string | null): number | null {
  return value === null || value === '' ? null : Number(value);
}

/**
 * Wraps window.fetch and XMLHttpRequest so the page records its own traffic. Only what script
 * starts passes through here: the browser's preflight, EventSource and sendBeacon do not.
 */
export function installWaterfall(site: SiteOrigins): void {
  const originalFetch = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : String(input);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = [...new Headers(init?.headers ?? request?.headers).keys()];
    const credentials = (init?.credentials ?? request?.credentials) === 'include';
    const entry = record({
      api: 'fetch',
      method,
      url,
      role: originRole(url, site),
      startMs: performance.now(),
      headers,
      credentials,
    });
    try {
      const response = await originalFetch(input, init);
      settle(entry, {
        status: response.status,
        failure: response.type === 'opaque' ? 'opaque (no-cors)' : null,
        bytes: lengthOf(response.headers.get('Content-Length')),
      });
      return response;
    } catch (err) {
      settle(entry, { failure: (err as Error)?.name ?? String(err) });
      throw err;
    }
  };

  const entryOf = new WeakMap<XMLHttpRequest, { method: string; url: string; headers: string[] }>();
  const { open, send, setRequestHeader } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (
    this: XMLHttpRequest,
    method: string,
    url: string | URL,
    ...rest: unknown[]
  ) {
    entryOf.set(this, { method: method.toUpperCase(), url: String(url), headers: [] });
    return (open as (...args: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof open;
  XMLHttpRequest.prototype.setRequestHeader = function (this: XMLHttpRequest, name: string, value: string) {
    entryOf.get(this)?.headers.push(name.toLowerCase());
    return setRequestHeader.call(this, name, value);
  };
  XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const opened = entryOf.get(this);
    if (opened) {
      const entry = record({
        api: 'xhr',
        ...opened,
        role: originRole(opened.url, site),
        startMs: performance.now(),
        credentials: this.withCredentials,
      });
      const finish = (event: ProgressEvent) => {
        const failed = event.type !== 'load';
        settle(entry, {
          status: this.status,
          failure: failed ? `${event.type} event` : null,
          bytes: failed ? null : lengthOf(this.getResponseHeader('Content-Length')),
        });
      };
      for (const type of ['load', 'error', 'abort', 'timeout'])
        this.addEventListener(type, finish as EventListener, { once: true });
    }
    return send.call(this, body);
  };
}

/** The waterfall's columns; the optional ones fold away on a narrow screen (site.css). */
const COLUMNS: readonly [string, boolean][] = [
  ['#', true],
  ['API', true],
  ['Method', false],
  ['URL', false],
  ['Origin', false],
  ['Status / failure', false],
  ['Start', true],
  ['Time', false],
  ['Size', true],
];

/** The waterfall panel: a table of the page's own requests, newest last, and what it cannot see. */
export function renderWaterfall(container: HTMLElement): void {
  const body = h('tbody');
  container.append(
    h('h2', {}, 'Waterfall: this page\u2019s own requests'),
    h(
      'p',
      { class: 'note' },
      'Recorded by wrapping fetch and XMLHttpRequest. It cannot see the preflight OPTIONS request the browser sends by itself, EventSource traffic, or navigator.sendBeacon: those never pass through the wrappers.',
    ),
    scrollBox(
      'Waterfall table',
      h(
        'table',
        { class: 'waterfall' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...COLUMNS.map(([title, optional]) =>
              h('th', { scope: 'col', class: optional ? 'optional' : undefined }, title),
            ),
          ),
        ),
        body,
      ),
    ),
  );
  onTraffic((all) => {
    const shown = all.slice(-MAX_ROWS);
    const offset = all.length - shown.length;
    body.replaceChildren(
      ...shown.map((entry, index) =>
        h(
          'tr',
          { class: entry.failure ? 'failed' : '' },
          h('td', { class: 'optional' }, String(offset + index + 1)),
          h('td', { class: 'optional' }, entry.api),
          h('td', {}, entry.method),
          h('td', { class: 'url' }, shortUrl(entry.url)),
          h('td', {}, entry.role),
          h(
            'td',
            {},
            entry.status === null && !entry.failure
              ? 'pending'
              : [entry.status, entry.failure].filter((v) => v !== null).join(' '),
          ),
          h('td', { class: 'optional' }, `${Math.round(entry.startMs)} ms`),
          h('td', {}, entry.durationMs === null ? '' : `${entry.durationMs} ms`),
          h('td', { class: 'optional' }, entry.bytes === null ? '?' : `${entry.bytes} B`),
        ),
      ),
    );
  });
}

function shortUrl(url: string): string {
  try {
    const parsed = new URL(url, location.href);
    const path = parsed.pathname + parsed.search;
    return parsed.origin === location.origin ? path : `${parsed.host}${path}`;
  } catch {
    return url;
  }
}
