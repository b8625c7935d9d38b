import { LAB_REDIRECT_USERINFO } from '@origin-lab/contract';
import { fileURLToPath } from 'node:url';

/**
 * The console corpus: what each engine printed for each ready case of the playground, recorded by
 * the e2e suite (playground.spec.ts, on the embedded stack) and explained by the unit tests of
 * @origin-lab/cors-rules (test/corpus.test.ts). Re-recorded with `npm run engines:record`.
 */
export interface ConsoleCorpus {
  engine: string;
  version: string;
  recordedAt: string;
  cases: Record<
    string,
    {
      /** The CORS lines, the stack's origins written {self} and {other}, per-run marks left out. */
      messages: string[];
      /** The rule the case was built to show (the page's prediction), null where the spec lets it read. */
      failureRule: string | null;
      /** Whether the engine let the page read it. */
      readable: boolean;
    }
  >;
}

export const CORPUS = fileURLToPath(new URL('../../../packages/cors-rules/test/corpus/', import.meta.url));

/** Lines about CORS, mixed content or a blocked read (not the page's own logging). */
export function corsLines(lines: readonly string[]): string[] {
  return lines.filter((line) =>
    /CORS|Cross-Origin Request|access control checks|Access-Control-Allow|Mixed Content|address space/i.test(line),
  );
}

/** A line with this run's origins and per-run values (marks, visitor tokens) put aside. */
export function normalizeLine(line: string, origins: { self: string; other: string; third: string }): string {
  // A redirect's Location with a user name and password in it (the lab's redirect-userinfo).
  const withUser = (origin: string) => origin.replace('://', `://${LAB_REDIRECT_USERINFO}@`);
  const names = ['self', 'other', 'third'] as const;
  let normal = line;
  for (const name of names)
    normal = normal.split(withUser(origins[name])).join(`{${name} with ${LAB_REDIRECT_USERINFO}@}`);
  for (const name of names)
    for (const written of [origins[name], encodeURIComponent(origins[name])])
      normal = normal.split(written).join(`{${name}}`);
  return normal.replace(/([?&](?:mark|visitor)=)[^&'’\s)]*/g, '$1…');
}
