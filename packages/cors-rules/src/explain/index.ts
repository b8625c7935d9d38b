// `@origin-lab/cors-rules/explain`: reading evidence (console messages, HAR files, curl's output)
// and explaining it with the rules. A third entry of the package: `explain` and the Explain page
// load it, the other pages do not.
import { splitConsoleText } from './console-messages.js';
import { EvidenceError, looksLikeCurl, looksLikeHar, readCurl, readHar, withKeptAnswers } from './evidence.js';
import { explainExchange } from './explain-exchange.js';
import { explainMessage } from './explain-message.js';
import type { Explanation } from './types.js';
import { hideUrlSecretsIn } from './url-secrets.js';

export * from './console-messages.js';
export * from './evidence.js';
export * from './types.js';
export { explainExchange, JUDGES, type Judge } from './explain-exchange.js';
export { explainMessage } from './explain-message.js';
export { RULE_TITLE } from './texts.js';
export { hideUrlSecrets, hideUrlSecretsIn } from './url-secrets.js';
export * from '../advice/index.js';

export type EvidenceKind = 'har' | 'curl' | 'console';

export interface ReadEvidence {
  kind: EvidenceKind;
  explanations: Explanation[];
  /** Console lines that are no CORS message any engine prints (shown, not explained). */
  unknownLines: string[];
}

/** The order explanations are shown in: refusals first, then what is not CORS, unknowns, reads. */
const ORDER: Record<Explanation['verdict'], number> = { refused: 0, 'not-cors': 1, unknown: 2, readable: 3 };

/**
 * A value with every URL in its strings written without its secrets (url-secrets.ts). What holds
 * no such URL is returned as it is, not copied: most of an explanation (its fix, its sequence).
 */
function withoutUrlSecrets<T>(value: T): T {
  if (typeof value === 'string') return hideUrlSecretsIn(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map(withoutUrlSecrets);
    return (items.some((item, index) => item !== value[index]) ? items : value) as T;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const hidden = withoutUrlSecrets(item);
    if (hidden !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = hidden;
  }
  return (copy ?? value) as T;
}

/**
 * Reads pasted or loaded evidence, whichever kind it is, and explains every cross-origin exchange
 * or message in it (failed first). origin: the page's origin, for curl -i output, which lacks it.
 * Throws EvidenceError with a sentence for people when there is nothing to explain.
 * onProgress hears how many of a HAR's exchanges are explained, so that a page can say how far a
 * large one got.
 */
export function readEvidence(
  text: string,
  { onProgress, ...options }: { origin?: string; onProgress?: (done: number, total: number) => void } = {},
): ReadEvidence {
  if (text.trim() === '') throw new EvidenceError('nothing to explain: the input is empty');
  // Binary garbage: a NUL, or mostly characters no text has.
  const sample = text.slice(0, 4096);
  const odd = sample.replace(/[\t\n\r\u0020-\u007e\u00a0-\uffff]/g, '').length;
  if (sample.includes('\u0000') || odd > sample.length / 10)
    throw new EvidenceError('this is not text: give a console message, a HAR file or curl’s output');
  const sort = (explanations: Explanation[]) =>
    explanations.map(withoutUrlSecrets).sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict] || a.index - b.index);
  if (looksLikeHar(text)) {
    const exchanges = withKeptAnswers(readHar(text));
    if (exchanges.length === 0)
      throw new EvidenceError('the HAR holds no cross-origin request (none carries an Origin of another origin)');
    return {
      kind: 'har',
      explanations: sort(
        exchanges.map((exchange, done) => {
          onProgress?.(done, exchanges.length);
          return explainExchange(exchange, options);
        }),
      ),
      unknownLines: [],
    };
  }
  // JSON that is not a HAR (not Safari's console, whose lines start "[Error]" or "[Warning]").
  if (/^\s*(?:\{|\[\s*(?:[{"\d\]-]|true|false|null))/.test(text))
    throw new EvidenceError(
      'this JSON is not a HAR (no "log" with "entries"): export the whole HAR from the Network panel',
    );
  if (looksLikeCurl(text)) {
    const exchanges = withKeptAnswers(readCurl(text, options.origin ?? null));
    if (exchanges.length === 0) throw new EvidenceError('no request or answer in this curl output');
    return {
      kind: 'curl',
      explanations: sort(exchanges.map((exchange) => explainExchange(exchange, options))),
      unknownLines: [],
    };
  }
  const explanations: Explanation[] = [];
  const unknownLines: string[] = [];
  splitConsoleText(text).forEach((line, index) => {
    const explained = explainMessage(line, index);
    const previous = explanations[explanations.length - 1];
    // Firefox follows a refused preflight with "CORS request did not succeed" for the same URL:
    // one failure, explained once.
    if (explained?.rule === 'network' && previous?.engine === 'firefox' && previous.url === explained.url) return;
    if (explained) explanations.push(explained);
    else unknownLines.push(line);
  });
  if (explanations.length === 0)
    throw new EvidenceError(
      'no CORS message found: paste the console line that says the request was blocked (Chromium: "has been blocked by CORS policy", Firefox: "Cross-Origin Request Blocked", Safari: "not allowed by Access-Control-Allow-Origin"), a HAR file, or curl -v output',
    );
  return { kind: 'console', explanations: sort(explanations), unknownLines: unknownLines.map(hideUrlSecretsIn) };
}
