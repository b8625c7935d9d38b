import type { EchoReflection, ErrorBody } from '@origin-lab/contract';
import { h, scrollBox } from '../frame/dom.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { attempt } from '../probes/attempt.js';
import { pageProtocol, supportsRequestStreams } from '../probes/protocol.js';
import { base64Length, sampleFileBytes, toBase64 } from '../rules/encodings.js';
import { knownDifference } from '../rules/known-differences.js';

const ctx = setupPage();
const box = ctx.experiments;
runAllButton(box);

/** The part of /api/echo's reflection these experiments compare with the spec. */
interface EchoSummary extends Pick<EchoReflection, 'bodyKind' | 'bodyBytes'> {
  contentType: string | null;
  contentLength: string | null;
}

/** A header as the echo reflected it; a repeated header (never Content-Type or -Length) joined as HTTP would. */
function reflectedHeader(reflection: EchoReflection, name: string): string | null {
  const value = reflection.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

async function echo(init: RequestInit): Promise<EchoSummary> {
  const response = await fetch('/api/echo', { method: 'POST', ...init });
  const reflection = (await response.json()) as EchoReflection;
  return {
    contentType: reflectedHeader(reflection, 'content-type'),
    contentLength: reflectedHeader(reflection, 'content-length'),
    bodyKind: reflection.bodyKind,
    bodyBytes: reflection.bodyBytes,
  };
}

const streamBody = () => new Blob(['streamed']).stream();
const h2 = ['h2', 'h3'].includes(pageProtocol());
const streamsSupported = supportsRequestStreams();
/** Chromium sends a streaming upload only over HTTP/2 or later; over HTTP/1.1 fetch rejects. */
const streamPrediction: { type: string | null; kind: string; text: string } =
  ctx.engine === 'chromium' && !h2
    ? {
        type: 'rejects TypeError (chromium: streaming uploads need HTTP/2)',
        kind: 'TypeError',
        text: 'rejected with TypeError (chromium sends streaming uploads only over HTTP/2; this page came over HTTP/1.1)',
      }
    : { type: null, kind: 'other', text: 'no Content-Type, bodyKind other' };

interface Row {
  name: string;
  init: () => RequestInit;
  /** Predicted Content-Type: exact text, a prefix ending in "=", null for none, or a rejection. */
  type: string | null;
  kind: string;
}

const rows: Row[] = [
  {
    name: 'FormData',
    init: () => ({ body: formOf({ a: '1' }) }),
    type: 'multipart/form-data; boundary=',
    kind: 'multipart',
  },
  {
    name: 'URLSearchParams',
    init: () => ({ body: new URLSearchParams({ a: '1' }) }),
    type: 'application/x-www-form-urlencoded;charset=UTF-8',
    kind: 'urlencoded',
  },
  { name: 'string', init: () => ({ body: 'a=1' }), type: 'text/plain;charset=UTF-8', kind: 'other' },
  {
    name: 'JSON string, no header set',
    init: () => ({ body: JSON.stringify({ a: 1 }) }),
    type: 'text/plain;charset=UTF-8',
    kind: 'other',
  },
  {
    name: 'Blob typed application/json',
    init: () => ({ body: new Blob(['{"a":1}'], { type: 'application/json' }) }),
    type: 'application/json',
    kind: 'json',
  },
  { name: 'Blob with no type', init: () => ({ body: new Blob(['a=1']) }), type: null, kind: 'other' },
  { name: 'ArrayBuffer', init: () => ({ body: new TextEncoder().encode('a=1').buffer }), type: null, kind: 'other' },
  { name: 'Uint8Array', init: () => ({ body: new TextEncoder().encode('a=1') }), type: null, kind: 'other' },
  {
    name: "ReadableStream with duplex: 'half'",
    init: () => ({ body: streamBody(), duplex: 'half' }) as RequestInit,
    type: streamPrediction.type,
    kind: streamPrediction.kind,
  },
  {
    name: 'ReadableStream without duplex',
    init: () => ({ body: streamBody() }),
    type: 'rejects TypeError (duplex is required)',
    kind: 'TypeError',
  },
  {
    name: 'string with Content-Type: application/json set',
    init: () => ({ body: '{"a":1}', headers: { 'Content-Type': 'application/json' } }),
    type: 'application/json',
    kind: 'json',
  },
  {
    name: 'URLSearchParams with Content-Type: text/plain set',
    init: () => ({ body: new URLSearchParams({ a: '1' }), headers: { 'Content-Type': 'text/plain' } }),
    type: 'text/plain',
    kind: 'other',
  },
];

function formOf(fields: Record<string, string | Blob>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

function matchesType(predicted: string | null, actual: string | null): boolean {
  if (predicted === null) return actual === null;
  return predicted.endsWith('=')
    ? (actual ?? '').startsWith(predicted) && (actual ?? '').length > predicted.length
    : actual === predicted;
}

experiment(box, {
  id: 'content-types',
  title: 'The Content-Type fetch writes by itself, per body value',
  predicted: `One row per kind of body, sent to /api/echo. FormData gets multipart with a boundary, URLSearchParams urlencoded;charset=UTF-8, a string text/plain;charset=UTF-8 (even JSON text), a typed Blob its type; untyped Blobs, buffers and streams get none. A header set by the caller is sent unchanged and bodyKind follows it. With duplex: 'half', here: ${streamPrediction.text}.`,
  async run() {
    const observed: Record<string, unknown> = {};
    const lines: string[] = [];
    let agrees = true;
    let onlyStreamsDiffer = true;
    for (const row of rows) {
      const result = await attempt(() => echo(row.init()));
      const ok = result.ok
        ? row.kind !== 'TypeError' &&
          matchesType(row.type, result.value.contentType) &&
          result.value.bodyKind === row.kind
        : row.kind === result.error;
      agrees &&= ok;
      if (!ok && !row.name.startsWith('ReadableStream')) onlyStreamsDiffer = false;
      observed[row.name] = result.ok ? result.value : { error: result.error };
      lines.push(
        `${ok ? '\u2714' : '\u2718'} ${row.name}: ` +
          (result.ok
            ? `Content-Type ${result.value.contentType ?? '(none)'}, bodyKind ${result.value.bodyKind}, Content-Length ${result.value.contentLength}`
            : `rejected ${result.error}`),
      );
    }
    return {
      observed: { ...observed, streamsSupported },
      summary: lines.join('\n'),
      agrees,
      // An engine without stream bodies: what it does instead is the listed difference (rules/known-differences.ts).
      knownDifference: knownDifference('bodies', 'content-types', ctx.engine, !streamsSupported && onlyStreamsDiffer),
    };
  },
});

experiment(box, {
  id: 'undefined-body',
  title: 'A POST whose body is undefined',
  predicted: 'No body is sent: Content-Length 0, no Content-Type, bodyKind none.',
  async run() {
    const result = await echo({ body: undefined });
    return {
      observed: { ...result },
      summary: `Content-Length ${result.contentLength}, Content-Type ${result.contentType ?? '(none)'}, bodyKind ${result.bodyKind}`,
      agrees: result.contentLength === '0' && result.contentType === null && result.bodyKind === 'none',
    };
  },
});

// Realistic short fields: names and text with accents, spaces and punctuation, which
// urlencoded escapes byte by byte (é becomes %C3%A9) while JSON keeps them as UTF-8.
const fields = {
  title: 'Café déjà vu: CORS, again!',
  author: 'Zoë Ångström',
  tags: 'cors, fetch, http/2',
  city: 'São Paulo',
  mood: '😀 (mostly)',
  note: 'Größe ≠ size; “quotes”',
};
const FILE_BYTES = 3_000;

async function sizeOf(init: RequestInit): Promise<number> {
  return (await echo(init)).bodyBytes;
}

experiment(box, {
  id: 'sizes',
  title: 'The same data as JSON, urlencoded and multipart, without and with a file',
  predicted: `Many short text fields are smallest as JSON (urlencoded escapes every non-ASCII byte and most punctuation as %XX; multipart adds a header block per field). A ${FILE_BYTES}-byte file is smallest as multipart (raw bytes); JSON must carry it as base64 text, about one third larger (${base64Length(FILE_BYTES)} characters).`,
  async run() {
    const file = sampleFileBytes(FILE_BYTES);
    const base64 = toBase64(file);
    const noFile = {
      json: await sizeOf({ body: JSON.stringify(fields), headers: { 'Content-Type': 'application/json' } }),
      urlencoded: await sizeOf({ body: new URLSearchParams(fields) }),
      multipart: await sizeOf({ body: formOf(fields) }),
    };
    const withFile = {
      json: await sizeOf({
        body: JSON.stringify({ ...fields, file: base64 }),
        headers: { 'Content-Type': 'application/json' },
      }),
      urlencoded: await sizeOf({ body: new URLSearchParams({ ...fields, file: base64 }) }),
      multipart: await sizeOf({ body: formOf({ ...fields, file: new Blob([file], { type: 'image/png' }) }) }),
    };
    const base64Overhead = Math.round((base64.length / FILE_BYTES) * 100) / 100;
    const smallest = (sizes: Record<string, number>) => Object.entries(sizes).sort((a, b) => a[1] - b[1])[0]![0];
    const observed = {
      noFile,
      withFile,
      fileBytes: FILE_BYTES,
      base64Chars: base64.length,
      base64Overhead,
      smallestNoFile: smallest(noFile),
      smallestWithFile: smallest(withFile),
    };
    renderSizes(observed.noFile, observed.withFile);
    return {
      observed,
      summary: `no file: JSON ${noFile.json} B, urlencoded ${noFile.urlencoded} B, multipart ${noFile.multipart} B \u2192 smallest ${observed.smallestNoFile}\nwith the file: JSON ${withFile.json} B, urlencoded ${withFile.urlencoded} B, multipart ${withFile.multipart} B \u2192 smallest ${observed.smallestWithFile}\nbase64: ${base64.length} characters for ${FILE_BYTES} bytes (\u00d7${base64Overhead})`,
      agrees:
        observed.smallestNoFile === 'json' &&
        observed.smallestWithFile === 'multipart' &&
        base64.length === base64Length(FILE_BYTES),
    };
  },
});

const sizeTable = h('table', { id: 'size-table' });
box.append(
  h(
    'details',
    {},
    h('summary', {}, 'The data used for the sizes'),
    h('pre', {}, JSON.stringify(fields, null, 2)),
    scrollBox('Sizes by encoding', sizeTable),
  ),
);

function renderSizes(noFile: Record<string, number>, withFile: Record<string, number>): void {
  sizeTable.replaceChildren(
    h(
      'thead',
      {},
      h('tr', {}, h('th', {}, 'Encoding'), h('th', {}, 'Fields only'), h('th', {}, `Fields + ${FILE_BYTES} B file`)),
    ),
    h(
      'tbody',
      {},
      ...Object.keys(noFile).map((name) =>
        h('tr', {}, h('td', {}, name), h('td', {}, `${noFile[name]} B`), h('td', {}, `${withFile[name]} B`)),
      ),
    ),
  );
}

experiment(box, {
  id: 'hand-set-multipart',
  title: 'FormData with Content-Type set by hand, beside the same request left alone',
  predicted:
    'Setting "Content-Type: multipart/form-data" by hand drops the boundary: the bytes arrive but the parser cannot split them, and POST /api/posts answers 500 with a detail naming the missing boundary. Leaving the header to fetch gives 201.',
  async run() {
    const post = () => formOf({ title: 'Boundary demo', author: 'the bodies page', tags: 'multipart' });
    const wrong = await fetch('/api/posts', {
      method: 'POST',
      body: post(),
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    const wrongBody = (await wrong.json()) as ErrorBody;
    const right = await fetch('/api/posts', { method: 'POST', body: post() });
    const rightBody = (await right.json()) as { post?: { title?: string } };
    const observed = {
      wrongStatus: wrong.status,
      wrongError: wrongBody.error ?? null,
      wrongDetail: wrongBody.detail ?? null,
      rightStatus: right.status,
      rightTitle: rightBody.post?.title ?? null,
    };
    return {
      observed,
      summary: `hand-set header: ${wrong.status} ${JSON.stringify(wrongBody)}\nleft alone: ${right.status}, post "${observed.rightTitle}"`,
      agrees: wrong.status === 500 && /boundary/i.test(observed.wrongDetail ?? '') && right.status === 201,
    };
  },
});
