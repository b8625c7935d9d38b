import { byId, h, marker, scrollBox, sleep } from '../frame/dom.js';
import { markedUrl, serverEvidence } from '../probes/journal.js';
import { tagUrl } from '../server-view/visitor.js';
import { experiment, runAllButton } from '../frame/experiment.js';
import { setupPage } from '../page/setup-page.js';
import { DEMO_FORM_ENTRIES, EMPTY_FILE, IMAGE_INPUT_ADDS, SUBMIT_BUTTON_ADDS } from '../rules/demo-form.js';
import { describeEntries, describeValue } from '../rules/form-entries.js';
import { computeJsonTable, JSON_CASES, stringifyOutcome } from '../rules/json-cases.js';

const ctx = setupPage();
const box = ctx.experiments;
runAllButton(box);

const form = byId<HTMLFormElement>('demo-form');
const photos = byId<HTMLInputElement>('photos');

/** Puts two small files in the multiple file input, as if the user had chosen them. */
function fillFiles(): void {
  const transfer = new DataTransfer();
  transfer.items.add(new File(['first'], 'a.txt', { type: 'text/plain' }));
  transfer.items.add(new File(['second!'], 'b.txt', { type: 'text/plain' }));
  photos.files = transfer.files;
}
byId('fill-files').addEventListener('click', fillFiles);

const live = byId('live-entries');
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const entries = describeEntries(new FormData(form, event.submitter));
  live.textContent =
    `submitted by ${event.submitter?.id ?? 'nothing'}:\n` +
    entries.map(([name, value]) => `${name} = ${value}`).join('\n');
});

const same = (a: readonly (readonly [string, string])[], b: readonly (readonly [string, string])[]) =>
  JSON.stringify(a) === JSON.stringify(b);

experiment(box, {
  id: 'collect',
  title: 'new FormData(form) on the form above, reset to its starting values and given two files',
  predicted:
    'Collected in document order: named text, select and textarea values; "on" for the checked checkbox with no value; the checked radio; two entries each for the multiple select and the shared name "phone"; an empty File for the empty file input; two Files for the multiple input. Not collected: the unnamed input, disabled controls, the disabled fieldset, unchecked boxes and radios, and the buttons.',
  async run() {
    form.reset();
    fillFiles();
    const entries = describeEntries(new FormData(form));
    return {
      observed: { entries },
      summary: entries.map(([n, v]) => `${n} = ${v}`).join('\n'),
      agrees: same(entries, DEMO_FORM_ENTRIES),
    };
  },
});

experiment(box, {
  id: 'submitter',
  title: 'The second argument: submitter, null, an image input, a reset button, a plain button',
  predicted:
    'A submit button adds its own name and value (action=publish); null is the same as leaving it out; an image input adds pos.x and pos.y, both 0 without a real click; a reset button or any non-submit element throws TypeError.',
  async run() {
    fillFiles();
    const keys = (submitter: HTMLElement | null) => describeEntries(new FormData(form, submitter));
    const throws = (submitter: HTMLElement) => {
      try {
        new FormData(form, submitter);
        return 'no error';
      } catch (err) {
        return (err as Error).name;
      }
    };
    const plain = describeEntries(new FormData(form));
    const withSubmit = keys(byId('submit-publish'));
    const withNull = keys(null);
    const withImage = keys(byId('image-submit'));
    const added = (entries: [string, string][]) =>
      entries.filter(([name, value]) => !plain.some(([n, v]) => n === name && v === value));
    const observed = {
      submitAdds: added(withSubmit),
      nullSameAsNone: same(withNull, plain),
      imageAdds: added(withImage),
      reset: throws(byId('reset-button')),
      plainButton: throws(byId('plain-button')),
    };
    return {
      observed,
      summary: `submit button adds ${JSON.stringify(observed.submitAdds)}; null same as none: ${observed.nullSameAsNone}; image adds ${JSON.stringify(observed.imageAdds)}; reset button: ${observed.reset}; plain button: ${observed.plainButton}`,
      agrees:
        same(observed.submitAdds, SUBMIT_BUTTON_ADDS) &&
        observed.nullSameAsNone &&
        same(observed.imageAdds, IMAGE_INPUT_ADDS) &&
        observed.reset === 'TypeError' &&
        observed.plainButton === 'TypeError',
    };
  },
});

experiment(box, {
  id: 'empty-file',
  title: 'The empty file input, and why a server checks the size',
  predicted:
    'A file input with nothing chosen still sends an entry: a File with an empty name, size 0, type application/octet-stream. So the field always "exists"; a server must check the size.',
  async run() {
    const value = new FormData(form).get('emptyFile');
    const file = value instanceof File ? { name: value.name, size: value.size, type: value.type } : null;
    return {
      observed: { isFile: value instanceof File, file },
      summary: value === null ? 'no entry' : describeValue(value as File),
      agrees:
        file !== null &&
        file.name === EMPTY_FILE.name &&
        file.size === EMPTY_FILE.size &&
        file.type === EMPTY_FILE.type,
    };
  },
});

/** How long a form's navigation may take to reach the server and be filed in the journal. */
const ARRIVAL_WAIT_MS = 5_000;

/**
 * Submits a one-field form (POST, urlencoded) to action, into a hidden frame of this page: a
 * navigation, as a user's click would make it, whose answer the page never reads. Resolves once
 * the frame has loaded the answer, or after ARRIVAL_WAIT_MS.
 */
async function submitIntoFrame(action: string): Promise<void> {
  const name = marker('form-target');
  const frame = h('iframe', { name, title: "the form's answer", hidden: '' });
  const sender = h(
    'form',
    { method: 'post', action, target: name, hidden: '' },
    h('input', { name: 'title', value: 'Hello' }),
  );
  document.body.append(frame, sender);
  try {
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    (sender as HTMLFormElement).submit();
    await Promise.race([loaded, sleep(ARRIVAL_WAIT_MS)]);
  } finally {
    frame.remove();
    sender.remove();
  }
}

experiment(box, {
  id: 'form-fetch-metadata',
  title:
    'A form POST to the other origin and to this one, through Fetch-metadata protection (/lab/cors?protect=fetch-metadata)',
  predicted:
    "A form submission is a navigation, not a CORS request: no preflight, no Access-Control header is asked for, and the page never reads the answer. Both POSTs reach the server. The protection refuses the one from the other origin (403), because the browser says Sec-Fetch-Site: cross-site (over plain HTTP, which gets no Fetch Metadata, because its Origin names another host), and lets this origin's through (200). Not CORS: the server refuses the request itself.",
  async run() {
    const observed: Record<
      string,
      { status: number | null; preflight: boolean; site: string | null; mode: string | null; dest: string | null }
    > = {};
    for (const [key, origin] of [
      ['other', ctx.other()],
      ['self', ctx.site.self],
    ] as const) {
      const mark = marker('form-post');
      await submitIntoFrame(tagUrl(markedUrl(`${origin}/lab/cors?protect=fetch-metadata`, mark), [origin]));
      const seen = await serverEvidence(ctx.journal, mark, ARRIVAL_WAIT_MS);
      observed[key] = {
        status: seen.request?.status ?? null,
        preflight: seen.preflight !== null,
        site: seen.request?.secFetch.site ?? null,
        mode: seen.request?.secFetch.mode ?? null,
        dest: seen.request?.secFetch.dest ?? null,
      };
    }
    const line = (key: string, what: string) => {
      const row = observed[key]!;
      return `${what}: ${row.status === null ? 'never arrived' : `answered ${row.status}`}${row.preflight ? ', after a preflight' : ''} (Sec-Fetch-Site: ${row.site ?? 'not sent'}, Sec-Fetch-Mode: ${row.mode ?? 'not sent'})`;
    };
    return {
      observed,
      summary: `${line('other', 'To the other origin')}\n${line('self', 'To this origin')}`,
      agrees:
        observed.other!.status === 403 &&
        observed.self!.status === 200 &&
        !observed.other!.preflight &&
        !observed.self!.preflight,
    };
  },
});

const jsonTable = h('table', { id: 'json-table' });
experiment(box, {
  id: 'json-stringify',
  title: 'What JSON.stringify does to values, computed in this browser',
  predicted:
    'Date becomes an ISO 8601 UTC string; undefined, functions and symbols drop the key in an object and become null in an array; Infinity, -Infinity and NaN become null; Map and Set become {}; BigInt and a self-referencing object throw TypeError. JSON.stringify(undefined) returns undefined, not a string, and a date read back with JSON.parse is still a string.',
  async run() {
    const rows = computeJsonTable();
    const bare = stringifyOutcome(() => undefined);
    const parsedDate = JSON.parse(JSON.stringify({ at: new Date(0) })) as { at: unknown };
    const observed = {
      rows,
      bareUndefined: bare,
      bareUndefinedType: typeof JSON.stringify(undefined),
      dateAfterParse: typeof parsedDate.at,
    };
    jsonTable.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Value', 'As property: {v: value}', 'As element: [value]', 'Spec', ''].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.map((row, i) =>
          h(
            'tr',
            {},
            h('td', {}, row.label),
            h('td', {}, h('code', {}, row.asProperty)),
            h('td', {}, h('code', {}, row.asElement)),
            h('td', {}, `${JSON_CASES[i]!.asProperty} / ${JSON_CASES[i]!.asElement}`),
            h('td', {}, row.agrees ? '\u2714' : '\u2718'),
          ),
        ),
      ),
    );
    return {
      observed,
      summary: `${rows.filter((r) => r.agrees).length} of ${rows.length} rows as the spec says (table below); JSON.stringify(undefined) is ${observed.bareUndefinedType}; a date after JSON.parse is a ${observed.dateAfterParse}`,
      agrees:
        rows.every((r) => r.agrees) &&
        observed.bareUndefinedType === 'undefined' &&
        observed.dateAfterParse === 'string',
    };
  },
});
box.append(scrollBox('What JSON.stringify does', jsonTable));
