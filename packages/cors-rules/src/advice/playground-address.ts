/**
 * The playground's address, said once for the pages, `check` and `explain`: a case as its
 * fragment, only what differs from the form's defaults, sorted by name, so a shared link is short
 * and two links to one case are the same string (which is how the page finds the ready case, and
 * its engine records, that the form shows).
 */

/** The playground's page, from the lab's root. */
export const PLAYGROUND_PATH = '/playground.html';

/** The prefix of the fields that give the preflight its own answer. */
export const PREFLIGHT_PREFIX = 'preflight.';
/** The checkbox that switches those fields on. */
export const SPLIT_FIELD = 'split';

/**
 * The canonical fragment of a case: fields equal to their default left out, the preflight's own
 * fields only while split is on and only where they differ from the answer's, sorted by name.
 */
export function canonicalCase(values: URLSearchParams, defaults: URLSearchParams): string {
  const split = values.get(SPLIT_FIELD) === 'on';
  const kept: [string, string][] = [];
  for (const [name, value] of values) {
    if (name.startsWith(PREFLIGHT_PREFIX)) {
      const answerField = name.slice(PREFLIGHT_PREFIX.length);
      const answerValue = values.get(answerField) ?? defaults.get(answerField);
      if (split && value !== answerValue) kept.push([name, value]);
    } else if (value !== defaults.get(name)) kept.push([name, value]);
  }
  return playgroundFragment(new URLSearchParams(kept));
}

/** A case's fields as the playground's fragment: sorted by name, as the playground writes a shared link. */
export function playgroundFragment(fields: Record<string, string> | URLSearchParams): string {
  const sorted = new URLSearchParams(fields);
  sorted.sort();
  return sorted.toString();
}

/** The playground's address for a case's fields: base is where the lab runs (none: the page's own origin). */
export function playgroundAddress(fields: Record<string, string> | URLSearchParams, base = ''): string {
  return `${base.replace(/\/+$/, '')}${PLAYGROUND_PATH}#${playgroundFragment(fields)}`;
}

/**
 * The full field values a fragment stands for: the defaults, the fragment's answer fields, then
 * the preflight's fields copied from the answer's unless the fragment names them.
 */
export function expandCase(fragment: URLSearchParams, defaults: URLSearchParams): URLSearchParams {
  const values = new URLSearchParams(defaults);
  for (const [name, value] of fragment) if (!name.startsWith(PREFLIGHT_PREFIX)) values.set(name, value);
  for (const name of [...values.keys()].filter((key) => key.startsWith(PREFLIGHT_PREFIX)))
    values.set(name, fragment.get(name) ?? values.get(name.slice(PREFLIGHT_PREFIX.length)) ?? '');
  return values;
}
