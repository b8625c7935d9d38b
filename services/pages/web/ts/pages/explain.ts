// The Explain page: evidence in (pasted, or a file), explanations out. The reading happens in a
// worker (workers/read-evidence.ts), so a large HAR never freezes the page; nothing the user
// gives is sent anywhere: the worker and this module make no request with it.
import { playgroundAddress, playgroundFields, STACKS, STACK_NAMES, type Stack } from '@origin-lab/cors-rules/advice';
import type { Explanation } from '@origin-lab/cors-rules/explain';
import { byId, h } from '../frame/dom.js';
import { setupPage } from '../page/setup-page.js';
import { sequenceDrawing } from '../explain/sequence-drawing.js';

setupPage();

/** The largest input read, as the page says (the worker's own limit is the same). */
const MAX_BYTES = 50 * 1024 * 1024;

const form = byId<HTMLFormElement>('evidence-form');
const textarea = byId<HTMLTextAreaElement>('evidence');
const fileInput = byId<HTMLInputElement>('evidence-file');
const originInput = byId<HTMLInputElement>('evidence-origin');
const stackSelect = byId<HTMLSelectElement>('evidence-stack');
const progress = byId<HTMLProgressElement>('explain-progress');
const status = byId('explain-status');
const results = byId('explanations');
const button = byId<HTMLButtonElement>('explain');

stackSelect.append(...STACKS.map((stack) => h('option', { value: stack }, STACK_NAMES[stack])));

const EXAMPLE = `Access to fetch at 'https://api.example.com/me' from origin 'https://app.example.com' has been blocked by CORS policy: The value of the 'Access-Control-Allow-Origin' header in the response must not be the wildcard '*' when the request's credentials mode is 'include'.`;
byId('example').addEventListener('click', () => {
  textarea.value = EXAMPLE;
  fileInput.value = '';
  form.requestSubmit();
});

const VERDICT: Record<Explanation['verdict'], string> = {
  refused: 'Refused',
  'not-cors': 'Not CORS',
  unknown: 'Cannot tell',
  readable: 'Readable',
};

let worker: Worker | null = null;

/** What the worker sends back: what to show (a long session's HAR holds thousands of readable exchanges), and counts. */
interface WorkerResult {
  kind: string;
  shown: Explanation[];
  failedHidden: number;
  readableHidden: number;
  counts: Record<string, number>;
  unknownLines: string[];
}

/** Reads the text in the worker (a new one each time: a stuck read is simply dropped). */
function read(text: string, origin: string | undefined): Promise<WorkerResult> {
  worker?.terminate();
  const current = new Worker('/js/workers/read-evidence.js', { type: 'module' });
  worker = current;
  return new Promise((resolve, reject) => {
    current.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { progress?: [number, number]; phase?: string; result?: never; error?: string };
      if (data.progress) {
        const [done, total] = data.progress;
        progress.hidden = false;
        if (total > 0) {
          progress.max = total;
          progress.value = done;
        } else progress.removeAttribute('value');
        status.textContent =
          total > 0 ? `Explaining ${done} of ${total} exchanges\u2026` : `${data.phase ?? 'Reading'}\u2026`;
      } else if (data.error !== undefined) reject(new Error(data.error));
      else if (data.result) resolve(data.result);
      if (data.result || data.error !== undefined) current.terminate();
    });
    current.addEventListener('error', (event) => reject(new Error(event.message || 'the reader failed')));
    current.postMessage({ text, origin });
  });
}

function playgroundHref(fields: Record<string, string> | null): string | null {
  return fields ? playgroundAddress(fields) : null;
}

function card(explanation: Explanation, stack: Stack | null, index: number): HTMLElement {
  const { verdict, method, url, origin, engine } = explanation;
  const titleId = `explanation-${index}`;
  const where = [method, url].filter(Boolean).join(' ') || 'A request';
  const link = playgroundHref(explanation.playground);
  return h(
    'article',
    { class: `explanation verdict-${verdict}`, 'aria-labelledby': titleId },
    h(
      'h3',
      { id: titleId },
      h('span', { class: 'verdict-label' }, `${VERDICT[verdict]}: `),
      `${where}${origin ? ` from ${origin}` : ''}${engine ? ` (${engine})` : ''}`,
    ),
    h('p', {}, explanation.text),
    explanation.header
      ? h(
          'p',
          { class: 'at-fault' },
          'The header at fault: ',
          h('code', {}, explanation.header),
          explanation.value === undefined ? null : h('span', {}, ': ', h('code', {}, explanation.value)),
        )
      : null,
    explanation.reachedServer === null
      ? null
      : h(
          'p',
          {},
          explanation.reachedServer ? 'The request reached the server.' : 'The request never reached the server.',
        ),
    explanation.sequence.length > 0
      ? h('figure', { class: 'sequence-figure' }, sequenceDrawing(explanation.sequence))
      : null,
    explanation.fix
      ? h(
          'p',
          { class: 'fix' },
          h('strong', {}, 'Fix: '),
          explanation.fix.summary,
          stack ? h('span', {}, ' ', h('code', {}, explanation.fix.byStack[stack])) : null,
        )
      : null,
    link ? h('p', {}, h('a', { href: link }, 'See the same refusal happen in the playground')) : null,
    explanation.candidates
      ? h(
          'p',
          { class: 'candidates' },
          'The message fits each of these; see each happen in the playground: ',
          ...explanation.candidates.flatMap((candidate, i) => [
            i > 0 ? '; ' : '',
            h('a', { href: playgroundHref(candidate.playground)! }, candidate.title),
          ]),
          '.',
        )
      : null,
    explanation.withCredentials
      ? h(
          'p',
          { class: 'with-credentials' },
          'With credentials it would be refused: ',
          h(
            'a',
            { href: playgroundHref(playgroundFields(explanation.withCredentials, {}))! },
            'see that in the playground',
          ),
          '.',
        )
      : null,
    ...explanation.risks.map((risk) => h('p', { class: 'risk' }, h('strong', {}, 'Risk: '), risk.text)),
    explanation.restsOn.length + explanation.unknowns.length > 0
      ? h(
          'details',
          {},
          h('summary', {}, 'What this rests on, and what it cannot tell'),
          h(
            'ul',
            {},
            ...explanation.restsOn.map((basis) => h('li', {}, `Rests on ${basis}.`)),
            ...explanation.unknowns.map((unknown) => h('li', {}, unknown)),
          ),
        )
      : null,
  );
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void explainInput();
});

async function explainInput(): Promise<void> {
  button.disabled = true;
  status.textContent = 'Reading\u2026';
  try {
    const file = fileInput.files?.[0];
    if (file && file.size > MAX_BYTES)
      throw new Error(
        `${file.name} is ${file.size.toLocaleString('en')} bytes, over the limit of 50 MB (${MAX_BYTES.toLocaleString('en')} bytes): it was not read`,
      );
    const text = file ? await file.text() : textarea.value;
    if (!file && new Blob([text]).size > MAX_BYTES) throw new Error('the pasted text is over 50 MB, the limit');
    const origin = originInput.value.trim() || undefined;
    const result = await read(text, origin);
    const stack = (stackSelect.value || null) as Stack | null;
    const total = Object.values(result.counts).reduce((sum, count) => sum + count, 0);
    status.textContent = `${total.toLocaleString('en-US')} explained: ${Object.entries(result.counts)
      .map(
        ([verdict, count]) =>
          `${count.toLocaleString('en-US')} ${VERDICT[verdict as Explanation['verdict']].toLowerCase()}`,
      )
      .join(', ')}.`;
    results.replaceChildren(
      h('h2', { id: 'explanations-title' }, 'What happened, and why'),
      ...result.shown.map((explanation, index) => card(explanation, stack, index)),
    );
    if (result.failedHidden > 0)
      results.append(
        h(
          'p',
          { class: 'more-failed' },
          `${result.failedHidden.toLocaleString('en-US')} more that failed are not shown (the command, origin-lab explain, lists them all).`,
        ),
      );
    if (result.readableHidden > 0)
      results.append(
        h(
          'p',
          { class: 'more-readable' },
          `${result.readableHidden.toLocaleString('en-US')} more exchanges the page could read are not shown.`,
        ),
      );
    if (result.unknownLines.length > 0)
      results.append(
        h(
          'p',
          { class: 'unknown-lines' },
          `${result.unknownLines.length} line(s) no engine prints for CORS were left out.`,
        ),
      );
  } catch (err) {
    status.textContent = '';
    results.replaceChildren(
      h('h2', { id: 'explanations-title' }, 'What happened, and why'),
      h('p', { class: 'explain-error', role: 'alert' }, `Nothing explained: ${(err as Error).message}.`),
    );
  } finally {
    progress.hidden = true;
    button.disabled = false;
  }
}
