/**
 * What a signed-in session (--session) did, as the terminal and Markdown reports say it: per
 * engine, whether your origins and the attacker origins sent the cookies and read the signed-in
 * answer, and why an engine held them back. Only cookie names, hashes and lengths: never a value.
 */
import { originLabel } from './not-tried.js';
import type { CellRun } from './run-check.js';

export interface SessionLine {
  engine: string;
  said: string;
  /** Whether an attacker origin read the signed-in answer in this engine. */
  leak: boolean;
}

/** The heading, with the session's cookies by name. */
export const sessionHeading = (names: readonly string[]) =>
  `Signed in (--session: ${names.join(', ')}), each engine with its own default cookie policy`;

/** Whether the run carried the session's cookies (the engine said so, or the signed-in answer came back). */
export const carried = (run: CellRun) => run.session?.signedInRead === true || run.session?.cookieSent === true;

const listed = (origins: readonly string[]) =>
  origins.length > 4 ? `${origins.slice(0, 4).join(', ')} and ${origins.length - 4} more` : origins.join(', ');

/** What one group of runs (yours, or the attacker origins') did in one engine. */
function groupText(runs: readonly CellRun[], who: string): string | null {
  if (runs.length === 0) return null;
  const origins = (filter: (run: CellRun) => boolean) => [...new Set(runs.filter(filter).map(originLabel))];
  const sent = origins(carried);
  const held = origins((run) => run.session?.cookieSent === false);
  const unknown = origins((run) => !carried(run) && run.session?.cookieSent !== false);
  const body = runs.find((run) => run.session?.signedInRead === true)?.session?.body;
  const parts = [
    sent.length > 0 &&
      `sent from ${listed(sent)}${body ? `, the signed-in answer read (${body.length} bytes, SHA-256 ${body.sha256.slice(0, 12)}…)` : ''}`,
    held.length > 0 &&
      `held back from ${listed(held)}: ${runs.find((run) => run.session?.cookieSent === false)!.session!.withheld}`,
    unknown.length > 0 &&
      `cannot tell for ${listed(unknown)} (the engine does not say, and the answers do not show it)`,
  ].filter(Boolean);
  return `${who}: ${parts.join('; ')}`;
}

/** Per engine, a line of what the cookies did on the credentialed reads of the target (not --also-url's). */
export function sessionLines(results: readonly CellRun[]): SessionLine[] {
  const shown = results.filter((run) => run.session && run.couldNot === null && run.cell.url === undefined);
  const engines = [...new Set(shown.map((run) => run.engine))];
  return engines.map((engine) => {
    const mine = shown.filter((run) => run.engine === engine);
    const yours = mine.filter((run) => run.origin.kind === 'yours');
    const others = mine.filter((run) => run.origin.kind !== 'yours');
    const said = [groupText(yours, 'yours'), groupText(others, 'attacker origins')].filter(Boolean).join('. ');
    return { engine, said, leak: others.some((run) => run.readable && carried(run)) };
  });
}
