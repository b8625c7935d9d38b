/**
 * The playground's case as its address fragment: only what differs from the form's defaults, in
 * a fixed order, so a shared link is short and two links to one case are the same string (which
 * is how the page finds the ready case, and its engine records, that the form shows).
 */

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
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(kept).toString();
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
