import { h, show } from './dom.js';
import { addCounter, type Counter } from './strip.js';

/** What a run produced: the raw facts (also exposed to tests as JSON) and whether they match the spec. */
export interface Outcome {
  observed: Record<string, unknown>;
  /** One line a class can read. */
  summary: string;
  agrees: boolean;
  /** When it does not agree for a reason measured and documented for this engine: that reason. */
  knownDifference?: string | null;
  /** What the server saw of the run, where the page shows it beside what the browser did. */
  serverSaw?: HTMLElement;
}

export interface ExperimentSpec {
  id: string;
  title: string;
  /** What SPEC.md says will happen (naming the engine family where engines differ). */
  predicted: string;
  run: () => Promise<Outcome>;
  /** Why it is left out of "Run all" (e.g. it leaves the page), shown beside its Run button. */
  manual?: string;
}

interface Registered {
  spec: ExperimentSpec;
  start: () => Promise<void>;
}

const registry: Registered[] = [];
let runCounter: Counter | null = null;
let agreeCounter: Counter | null = null;

/**
 * Adds an experiment section: title, prediction, a Run button, what happened, and the verdict.
 * Returns what the Run button does, for a page that must start it itself.
 */
export function experiment(parent: HTMLElement, spec: ExperimentSpec): () => Promise<void> {
  runCounter ??= addCounter('runs', 'Experiments run');
  agreeCounter ??= addCounter('agree', 'Agree with the spec');
  const button = h('button', { type: 'button' }, 'Run');
  const observed = h('output', { class: 'observed' }, 'not run yet');
  const verdict = h('span', { class: 'verdict' }, '');
  const facts = h(
    'dl',
    {},
    h('dt', {}, 'The spec predicts'),
    h('dd', {}, spec.predicted),
    h('dt', {}, 'This browser did'),
    h('dd', {}, observed),
  );
  const section = h(
    'section',
    { class: 'experiment', id: spec.id, 'data-state': 'idle', 'data-manual': spec.manual ? 'true' : undefined },
    h('h3', {}, spec.title),
    facts,
    h('p', {}, button, ' ', verdict),
    spec.manual ? h('p', { class: 'manual' }, `Not part of "Run all": ${spec.manual}.`) : null,
  );
  parent.append(section);

  const start = async () => {
    button.disabled = true;
    section.dataset.state = 'running';
    verdict.textContent = 'running\u2026';
    try {
      const outcome = await spec.run();
      for (const old of Array.from(facts.querySelectorAll('.saw'))) old.remove();
      if (outcome.serverSaw)
        facts.append(h('dt', { class: 'saw' }, 'The server saw'), h('dd', { class: 'saw' }, outcome.serverSaw));
      observed.textContent = outcome.summary;
      observed.dataset.observed = JSON.stringify(outcome.observed);
      const known = !outcome.agrees && outcome.knownDifference ? outcome.knownDifference : null;
      section.dataset.state = outcome.agrees ? 'agree' : known ? 'known-difference' : 'disagree';
      verdict.textContent = outcome.agrees
        ? '\u2714 agrees with the spec'
        : known
          ? `\u2718 differs from the spec, a known engine difference: ${known}`
          : '\u2718 differs from the spec';
      runCounter?.add();
      if (outcome.agrees) agreeCounter?.add();
    } catch (err) {
      observed.textContent = `the experiment itself failed: ${show(String(err))}`;
      observed.dataset.observed = JSON.stringify({ experimentError: String(err) });
      section.dataset.state = 'error';
      verdict.textContent = '\u26a0 could not run';
    } finally {
      button.disabled = false;
    }
  };
  button.addEventListener('click', () => void start());
  registry.push({ spec, start });
  return start;
}

/** A "Run all" button that runs every automatic experiment, one after another. */
export function runAllButton(parent: HTMLElement): void {
  const button = h('button', { type: 'button', id: 'run-all' }, 'Run all experiments');
  const runAll = async () => {
    button.disabled = true;
    for (const item of registry) if (!item.spec.manual) await item.start();
    button.disabled = false;
    document.body.dataset.ranAll = 'true';
  };
  button.addEventListener('click', () => void runAll());
  parent.append(h('h2', {}, 'Experiments'), h('p', {}, button));
}
