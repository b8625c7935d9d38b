import type { JournalItem, JournalPage } from '@origin-lab/contract';
import { pollUntil } from '@origin-lab/test-kit';

/** Answers a GET of path with these headers, as parsed JSON: over fetch, or over an HTTP/2 session. */
export type GetJson = (path: string, headers: Record<string, string>) => Promise<unknown>;

/** The visitor's journal (/lab/journal, as JSON) once at least one entry is in it; the journal records after the answer. */
export function journalOnceRecorded(getJson: GetJson, visitor: string): Promise<JournalItem[]> {
  return pollUntil(
    "an entry in the visitor's journal",
    async () =>
      ((await getJson(`/lab/journal?visitor=${visitor}`, { accept: 'application/json' })) as JournalPage).entries,
    { timeoutMs: 5_000, done: (found) => found.length > 0 },
  );
}
