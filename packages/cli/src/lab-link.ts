/**
 * Where the playground links of `check` and `explain` point: the lab's pages, which `npm start`
 * serves at http://localhost:8080 unless PORT says otherwise. The commands cannot see where a lab
 * runs without asking the network (and `explain` promises to ask nothing), so a link made from
 * the default says how to change it.
 */

/** Where `npm start` serves the lab by default. */
export const DEFAULT_LAB = 'http://localhost:8080';

/** The words before a playground link: with the default address, how to set another. */
export function seeItHappen(labGiven: boolean): string {
  return labGiven ? 'See it happen' : `See it happen (--lab <url> if your lab does not run at ${DEFAULT_LAB})`;
}
