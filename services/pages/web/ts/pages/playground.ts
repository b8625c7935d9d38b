// The playground page: wiring only. The form and what it describes (playground/case-form.ts),
// the request a case sends (plan-case.ts), running it (run-case.ts, loaded at the first press of
// "Predict and send", with the prediction and the explanation it brings), explaining what
// happened (explain-case.ts) and each engine's record of the ready cases (engine-row.ts).
import { byId, h, marker } from '../frame/dom.js';
import { setupPage } from '../page/setup-page.js';
import { SPLIT_FIELD } from '@origin-lab/cors-rules/playground-address';
import { CaseForm } from '../playground/case-form.js';
import { engineRow } from '../playground/engine-row.js';
import { planCase } from '../playground/plan-case.js';
import { PRESETS } from '../playground/presets.js';

const ctx = setupPage();
const form = new CaseForm(byId<HTMLFormElement>('scenario'));
const showEngineRow = engineRow(form);

/** The case into the address (and the share link), and its engines' row. */
function rememberCase(): void {
  const fragment = `#${form.fragment()}`;
  history.replaceState(null, '', fragment);
  byId<HTMLAnchorElement>('share').href = fragment;
  void showEngineRow();
}

async function run(): Promise<void> {
  rememberCase();
  const mark = marker('playground');
  const origins = {
    self: ctx.site.self,
    other: () => ctx.other(),
    third: () => {
      if (!ctx.site.third)
        throw new Error('this server has no third name (SITE_C=none): no redirect to a third origin');
      return ctx.site.third;
    },
  };
  // Sending, predicting and explaining load on the first press: the page opens without them.
  const { runCase } = await import('../playground/run-case.js');
  await runCase(ctx, planCase(form, origins, mark));
}

const presetSelect = byId<HTMLSelectElement>('preset');
const groups = [...new Set(PRESETS.map((preset) => preset.group))];
presetSelect.append(
  ...groups.map((group) =>
    h(
      'optgroup',
      { label: group },
      ...PRESETS.filter((preset) => preset.group === group).map((preset) =>
        h('option', { value: preset.id }, preset.name),
      ),
    ),
  ),
);
presetSelect.addEventListener('change', () => {
  const preset = PRESETS.find((candidate) => candidate.id === presetSelect.value);
  if (!preset) return;
  form.fill(new URLSearchParams(preset.fragment));
  rememberCase();
});
form.field(SPLIT_FIELD).addEventListener('change', () => form.splitChanged());
form.element.addEventListener('change', rememberCase);
form.element.addEventListener('submit', (event) => {
  event.preventDefault();
  const button = byId<HTMLButtonElement>('send');
  button.disabled = true;
  void run()
    .catch((err: unknown) => {
      // e.g. no other origin configured for this host: say so where the result would be.
      byId('result-empty').hidden = false;
      byId('result-empty').textContent = `Could not send: ${(err as Error).message}`;
    })
    .finally(() => (button.disabled = false));
});
/** A link to another case opened on this page (only the fragment changed): the form follows it. */
window.addEventListener('hashchange', () => {
  form.fill(new URLSearchParams(location.hash.slice(1)));
  rememberCase();
});
/**
 * A link whose fragment says `send` sends its case on opening, and says the verdict in the
 * console when it is in: a browser that no driver automates (WebKit's console, recorded by the
 * e2e suite) is read from its console alone.
 */
const opening = new URLSearchParams(location.hash.slice(1));
form.fill(opening);
rememberCase();
if (opening.has('send'))
  void run()
    .catch((err: unknown) => console.error(`origin-lab playground: could not send: ${(err as Error).message}`))
    .finally(() => console.info(`origin-lab playground: verdict ${byId('agreement').dataset.state ?? 'none'}`));
