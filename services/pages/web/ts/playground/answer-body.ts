import { h } from '../frame/dom.js';

/**
 * The body of an answer the page could read, as the playground shows it: JSON pretty-printed,
 * the first few lines in view and the rest folded away, every line wrapped to the column (the
 * lab reflects the request's headers, a user agent among them, on one line). A body longer than
 * the page keeps on screen is cut at a line's end, and says so.
 */

/** Lines shown before the fold. */
export const LINES_IN_VIEW = 4;
/** Characters kept on screen; a longer body says how much was left out. */
export const CHARACTERS_SHOWN = 20_000;

export interface FoldedBody {
  /** 'json' when the body parsed as JSON (and is shown pretty-printed). */
  kind: 'json' | 'text' | 'empty';
  /** The lines in view. */
  head: string;
  /** The lines folded away ('' when there are none), and how many. */
  rest: string;
  restLines: number;
  /** The characters of the whole text (pretty-printed, for JSON), and how many of them are on screen. */
  length: number;
  shown: number;
}

/** How a body is shown: the pure half of answerBody, without the page. */
export function foldBody(body: string): FoldedBody {
  if (body === '') return { kind: 'empty', head: '', rest: '', restLines: 0, length: 0, shown: 0 };
  let kind: FoldedBody['kind'] = 'text';
  let text = body;
  try {
    text = JSON.stringify(JSON.parse(body), null, 2);
    kind = 'json';
  } catch {
    // Not JSON: shown as it came.
  }
  const length = text.length;
  if (length > CHARACTERS_SHOWN) {
    const end = text.lastIndexOf('\n', CHARACTERS_SHOWN);
    text = text.slice(0, end > 0 ? end : CHARACTERS_SHOWN);
  }
  const lines = text.split('\n');
  return {
    kind,
    head: lines.slice(0, LINES_IN_VIEW).join('\n'),
    rest: lines.slice(LINES_IN_VIEW).join('\n'),
    restLines: Math.max(lines.length - LINES_IN_VIEW, 0),
    length,
    shown: text.length,
  };
}

const count = (n: number) => n.toLocaleString('en-US');

/** The body as a list item: what it is, the lines in view, the rest behind a disclosure, and what was cut. */
export function answerBody(body: string): HTMLLIElement {
  const folded = foldBody(body);
  if (folded.kind === 'empty') return h('li', {}, 'Body: empty.');
  const what = folded.kind === 'json' ? 'JSON, pretty-printed' : 'text';
  return h(
    'li',
    { class: 'answer-body' },
    `Body (${what}, ${count(folded.length)} characters):`,
    h('pre', { class: 'body-text' }, folded.head),
    folded.restLines > 0
      ? h(
          'details',
          {},
          h('summary', {}, `The other ${count(folded.restLines)} line${folded.restLines === 1 ? '' : 's'}`),
          h('pre', { class: 'body-text' }, folded.rest),
        )
      : null,
    folded.shown < folded.length
      ? h(
          'p',
          { class: 'note' },
          `Cut after the first ${count(folded.shown)} of ${count(folded.length)} characters: the rest is in the browser's developer tools.`,
        )
      : null,
  );
}
