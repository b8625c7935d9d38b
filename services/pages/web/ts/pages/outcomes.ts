import type { ErrorBody } from '@origin-lab/contract';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { attempt } from '../probes/attempt.js';
import {
  TransportError,
  type FailureKind,
  type TransportOptions,
  type TransportResult,
} from '../probes/transport/contract.js';
import { fetchTransport } from '../probes/transport/fetch-transport.js';
import { xhrTransport } from '../probes/transport/xhr-transport.js';
import { knownDifference } from '../rules/known-differences.js';

const ctx = setupPage();
const box = ctx.experiments;
runAllButton(box);

type Described =
  { result: TransportResult } | { error: { name: string; kind: FailureKind; cause: string } } | { unexpected: string };

function causeName(cause: unknown): string {
  if (cause instanceof ProgressEvent) return `${cause.type} event`;
  if (cause instanceof Error || cause instanceof DOMException) return cause.name;
  return `${typeof cause} ${JSON.stringify(cause)}`;
}

async function describe(call: () => Promise<TransportResult>): Promise<Described> {
  try {
    return { result: await call() };
  } catch (err) {
    if (err instanceof TransportError)
      return { error: { name: err.name, kind: err.kind, cause: causeName(err.cause) } };
    return { unexpected: String(err) };
  }
}

const line = (d: Described) =>
  'result' in d
    ? `{ ok: ${d.result.ok}, status: ${d.result.status}, data: ${JSON.stringify(d.result.data)} }`
    : 'error' in d
      ? `throws ${d.error.name} kind "${d.error.kind}" (cause: ${d.error.cause})`
      : `unexpected: ${d.unexpected}`;

interface Case {
  id: string;
  title: string;
  predicted: string;
  url: () => string;
  options?: () => TransportOptions;
  /** Cancels the caller's signal after this many ms. */
  cancelAfterMs?: number;
  check: (d: Described) => boolean;
  /** The cause each transport's failure carries, as predicted. */
  causes?: { fetch?: string; xhr?: string };
  /** Whether what happened is this case's listed engine difference (rules/known-differences.ts). */
  knownIf?: (viaFetch: Described, viaXhr: Described) => boolean;
}

const result = (d: Described) => ('result' in d ? d.result : null);
const kindOf = (d: Described) => ('error' in d ? d.error.kind : null);
const causeOf = (d: Described) => ('error' in d ? d.error.cause : null);

const CASES: Case[] = [
  {
    id: 'ok-200',
    title: '200 from GET /api/posts',
    predicted: '{ ok: true, status: 200, data: { posts: [...] } }',
    url: () => '/api/posts',
    check: (d) =>
      result(d)?.status === 200 &&
      result(d)?.ok === true &&
      Array.isArray((result(d)?.data as { posts?: unknown })?.posts),
  },
  {
    id: 'not-found',
    title: '404 from an unknown path',
    predicted: 'A 404 is data, not an exception: { ok: false, status: 404, data: the Error object { error, path } }',
    url: () => '/api/no-such-thing',
    check: (d) =>
      result(d)?.status === 404 &&
      result(d)?.ok === false &&
      (result(d)?.data as ErrorBody | null)?.path === '/api/no-such-thing',
  },
  {
    id: 'flaky-500',
    title: '500 from /api/flaky?rate=1',
    predicted: '{ ok: false, status: 500, data: { error, rate: 1 } }',
    url: () => '/api/flaky?rate=1',
    check: (d) =>
      result(d)?.status === 500 && result(d)?.ok === false && (result(d)?.data as ErrorBody | null)?.rate === 1,
  },
  {
    id: 'empty-202',
    title: '202 with an empty body (POST /api/beacon)',
    predicted:
      '{ ok: true, status: 202, data: null } on both transports (fetch\u2019s json() would throw SyntaxError here)',
    url: () => '/api/beacon',
    options: () => ({ method: 'POST', body: 'outcomes page' }),
    check: (d) => result(d)?.status === 202 && result(d)?.ok === true && result(d)?.data === null,
  },
  {
    id: 'bad-json',
    title: '200 with a truncated JSON body (/api/bad-json)',
    predicted: '{ ok: true, status: 200, data: null }',
    url: () => '/api/bad-json',
    check: (d) => result(d)?.status === 200 && result(d)?.ok === true && result(d)?.data === null,
  },
  {
    id: 'deadline',
    title: 'A 300 ms deadline on /api/slow?ms=5000',
    predicted:
      'throws TransportError kind "timeout" (fetch\u2019s cause: TimeoutError; XHR\u2019s cause: an abort event)',
    url: () => '/api/slow?ms=5000',
    options: () => ({ timeoutMs: 300 }),
    check: (d) => kindOf(d) === 'timeout',
    causes: { fetch: 'TimeoutError', xhr: 'abort event' },
    // WebKit (GTK) 2.50.6, measured: fetch rejects with AbortError; the kind is still "timeout".
    knownIf: (viaFetch, viaXhr) =>
      kindOf(viaFetch) === 'timeout' &&
      causeOf(viaFetch) === 'AbortError' &&
      kindOf(viaXhr) === 'timeout' &&
      causeOf(viaXhr) === 'abort event',
  },
  {
    id: 'caller-abort',
    title: 'The caller aborts after 150 ms',
    predicted: 'throws TransportError kind "abort" (fetch\u2019s cause: AbortError)',
    url: () => '/api/slow?ms=5000',
    cancelAfterMs: 150,
    check: (d) => kindOf(d) === 'abort',
    causes: { fetch: 'AbortError' },
  },
  {
    id: 'network',
    title: 'A connection the browser cannot make (127.0.0.1, port 1)',
    predicted: 'throws TransportError kind "network" (fetch\u2019s cause: TypeError; XHR\u2019s cause: an error event)',
    url: () => `${location.protocol}//127.0.0.1:1/api/posts`,
    check: (d) => kindOf(d) === 'network',
    causes: { fetch: 'TypeError', xhr: 'error event' },
  },
  {
    id: 'blocked-read',
    title: 'A blocked cross-origin read (?cors=off on the other origin)',
    predicted: 'Indistinguishable from a network failure: kind "network"',
    url: () => `${ctx.other()}/api/posts?cors=off`,
    check: (d) => kindOf(d) === 'network',
  },
];

for (const item of CASES) {
  experiment(box, {
    id: item.id,
    title: item.title,
    predicted: item.predicted,
    async run() {
      const both = async (transport: typeof fetchTransport) => {
        const controller = new AbortController();
        const timer =
          item.cancelAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), item.cancelAfterMs);
        const described = await describe(() =>
          transport(item.url(), { ...item.options?.(), signal: controller.signal }),
        );
        clearTimeout(timer);
        return described;
      };
      const viaFetch = await both(fetchTransport);
      const viaXhr = await both(xhrTransport);
      const causedAsPredicted = (d: Described, predicted: string | undefined) =>
        predicted === undefined || causeOf(d) === predicted;
      return {
        observed: { fetch: viaFetch, xhr: viaXhr },
        summary: `fetch: ${line(viaFetch)}\nXHR:   ${line(viaXhr)}`,
        agrees:
          item.check(viaFetch) &&
          item.check(viaXhr) &&
          causedAsPredicted(viaFetch, item.causes?.fetch) &&
          causedAsPredicted(viaXhr, item.causes?.xhr),
        knownDifference: knownDifference('outcomes', item.id, ctx.engine, item.knownIf?.(viaFetch, viaXhr) ?? false),
      };
    },
  });
}

experiment(box, {
  id: 'abort-reason',
  title: 'Why the transport asks the signal: an abort with a string reason',
  predicted:
    'Raw fetch rejects with the reason itself, a string with no name; the transport still says kind "abort", because it asks the signal.',
  async run() {
    const raw = new AbortController();
    const pending = fetch('/api/slow?ms=5000', { signal: raw.signal });
    raw.abort('the user left');
    let rejectedWith: unknown = null;
    try {
      await pending;
    } catch (err) {
      rejectedWith = err;
    }
    const wrapped = new AbortController();
    const call = describe(() => fetchTransport('/api/slow?ms=5000', { signal: wrapped.signal }));
    wrapped.abort('the user left');
    const described = await call;
    const rawName = rejectedWith instanceof Error || rejectedWith instanceof DOMException ? rejectedWith.name : null;
    const observed = { rawType: typeof rejectedWith, rawName, rawValue: rejectedWith, transport: described };
    return {
      observed,
      summary: `raw fetch rejected with ${rawName ?? typeof rejectedWith} ${JSON.stringify(rejectedWith)}; transport: ${line(described)}`,
      agrees: rejectedWith === 'the user left' && kindOf(described) === 'abort',
      // WebKit (GTK) 2.50.6, measured: the rejection is an AbortError, not the reason.
      knownDifference: knownDifference(
        'outcomes',
        'abort-reason',
        ctx.engine,
        rawName === 'AbortError' && kindOf(described) === 'abort',
      ),
    };
  },
});

experiment(box, {
  id: 'body-once',
  title: 'A body reads once: a second read, clone() before, clone() after',
  predicted:
    'A second json() rejects with TypeError (not SyntaxError). clone() before the first read gives two readable bodies; clone() on a used body throws TypeError.',
  async run() {
    const first = await fetch('/api/posts');
    await first.json();
    const second = await attempt(() => first.json());
    const fresh = await fetch('/api/posts');
    const copy = fresh.clone();
    const bothRead =
      Array.isArray(((await fresh.json()) as { posts?: unknown }).posts) &&
      Array.isArray(((await copy.json()) as { posts?: unknown }).posts);
    const lateClone = await attempt(async () => first.clone());
    const observed = {
      secondRead: second.ok ? 'resolved' : second.error,
      cloneBeforeBothRead: bothRead,
      cloneAfterRead: lateClone.ok ? 'cloned' : lateClone.error,
    };
    return {
      observed,
      summary: `second json(): ${observed.secondRead}; clone() before reading: both read ${bothRead}; clone() after reading: ${observed.cloneAfterRead}`,
      agrees: observed.secondRead === 'TypeError' && bothRead && observed.cloneAfterRead === 'TypeError',
    };
  },
});
