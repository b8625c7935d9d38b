import { LAB_EXTRA_HEADER, labCorsUrl, type LabCorsScenario } from '@origin-lab/contract';
import { markedUrl } from '../probes/journal.js';
import type { PlannedRequest } from '@origin-lab/cors-rules';
import type { CaseBody, CaseForm } from './case-form.js';
import type { SentFrom } from './opaque-sender.js';

/**
 * The request a case sends: the lab URL written by the contract's codec (labCorsUrl, the one the
 * api reads back), marked so the server's journal can find it, and the request the spec's
 * prediction is made for.
 */

/** The lab's extra header as script lists the names it can read. */
export const EXTRA_HEADER_NAME = LAB_EXTRA_HEADER.toLowerCase();

/** The answer headers of /lab/cors whose visibility the prediction can name. */
export const LAB_ANSWER_HEADERS = ['content-type', 'content-length', EXTRA_HEADER_NAME, 'vary', 'set-cookie'];

export interface CasePlan {
  /** The origin the lab is asked on: this one, or the other. */
  origin: string;
  crossOrigin: boolean;
  scenario: LabCorsScenario;
  /** The mark the request carries, to find it in the journal. */
  mark: string;
  url: string;
  /** fetch or XMLHttpRequest. */
  api: 'fetch' | 'xhr';
  /** This page, or an opaque origin it starts to send the case (Origin: null). */
  from: SentFrom;
  /** When an XHR registers its xhr.upload listener, if it does (fetch has none). */
  uploadListener: 'before' | 'after' | null;
  planned: PlannedRequest;
  body: CaseBody;
  /** The headers the page's code passes: the body's Content-Type only when the page sets it. */
  sentHeaders: [string, string][];
  /** Every field of the form as it was sent, and the fragment of any such set of fields (a fixed case's link). */
  fields: URLSearchParams;
  fragmentOf(fields: URLSearchParams): string;
}

/** The case the form holds, as a request to the lab on this origin or the other. */
export function planCase(
  form: CaseForm,
  origins: { self: string; other(): string; third(): string },
  mark: string,
): CasePlan {
  const from = form.field('from').value as SentFrom;
  const toOther = form.field('target').value === 'other';
  // An opaque origin is cross-origin to everything, this page's origin included.
  const crossOrigin = toOther || from !== 'page';
  const origin = toOther ? origins.other() : origins.self;
  // A sandboxed frame or a data: URL worker sends with fetch.
  const api = form.field('api').value === 'xhr' && from === 'page' ? 'xhr' : 'fetch';
  const redirect = form.field('redirect').value;
  const redirectTo: Record<string, () => string | null> = {
    lab: () => origin,
    page: () => origins.self,
    third: () => origins.third(),
  };
  const scenario = { ...form.scenario(), redirectTo: redirectTo[redirect]?.() ?? null };
  const redirectMode =
    api === 'fetch' ? (form.field('redirect-mode').value as 'follow' | 'manual' | 'error') : 'follow';
  const written = form.headers();
  const body = form.body();
  const upload = form.field('upload').value;
  const uploadListener = api === 'xhr' && (upload === 'before' || upload === 'after') ? upload : null;
  // The body's Content-Type, unless the page's headers already set one.
  const typed: [string, string][] =
    body.contentType && !written.some(([name]) => name.toLowerCase() === 'content-type')
      ? [...written, ['Content-Type', body.contentType]]
      : written;
  return {
    origin,
    crossOrigin,
    scenario,
    mark,
    url: markedUrl(labCorsUrl(origin, scenario), mark),
    api,
    from,
    uploadListener,
    planned: {
      method: form.field('method').value.trim(),
      headers: typed,
      credentials: form.field('credentials').value === 'include',
      mode: api === 'xhr' ? 'cors' : (form.field('mode').value as 'cors' | 'no-cors'),
      forcedPreflight:
        body.forcedPreflight ??
        (uploadListener === 'before' ? 'an xhr.upload listener was registered before send()' : null),
      crossOrigin,
      redirectMode,
      origins: { page: origins.self, lab: origin },
      opaqueOrigin: from !== 'page',
    },
    body,
    sentHeaders: body.setByPage ? typed : written,
    fields: form.values(),
    fragmentOf: (fields) => form.canonical(fields),
  };
}
