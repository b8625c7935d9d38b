// What the provider and the app's callback received during one sign-in experiment, from this
// visitor's journal: each request with the fetch metadata the browser sent and the names of the
// cookies that came (never a value). The page can see none of it itself: a cookie held back, or
// a frame's Sec-Fetch-Storage-Access, shows only on the server's side.
import type { ServerJournalEntry } from '@origin-lab/contract';
import { h, sleep, stackable } from '../frame/dom.js';
import type { JournalFeed } from '../server-view/journal-feed.js';
import { FILING_LAG_MS, serverEntries } from '../probes/journal.js';

/** One request as the table shows it, and as the page hands it to tests (data-rows). */
export interface SawRow {
  request: string;
  site: string | null;
  mode: string | null;
  dest: string | null;
  storageAccess: string | null;
  cookies: string[];
  /** The answer: its status, its opener policy, the cookies it set (by name). */
  status: number;
  openerPolicy: { enforced: string | null; reportOnly: string | null } | null;
  setCookies: string[];
}

/** How long a mark's first request may still take to reach the journal (one that never came costs this). */
const FILING_WAIT_MS = 2_000;

const rowOf = (entry: ServerJournalEntry): SawRow => ({
  request: `${entry.method} ${entry.path}`,
  site: entry.secFetch.site,
  mode: entry.secFetch.mode,
  dest: entry.secFetch.dest,
  storageAccess: entry.secFetch.storageAccess,
  cookies: entry.credentials.cookieNames,
  status: entry.status,
  openerPolicy: entry.openerPolicy ?? null,
  setCookies: entry.setCookies ?? [],
});

/** The answer in a few words: status, opener policy, cookies set. */
function answerOf(row: SawRow): string {
  const policy = row.openerPolicy;
  return [
    String(row.status),
    ...(policy?.enforced ? [`Cross-Origin-Opener-Policy: ${policy.enforced}`] : []),
    ...(policy?.reportOnly ? [`Cross-Origin-Opener-Policy-Report-Only: ${policy.reportOnly}`] : []),
    ...(row.setCookies.length > 0 ? [`sets ${row.setCookies.join(', ')}`] : []),
  ].join(' · ');
}

/**
 * Every request the journal filed under these marks, in the order they arrived. The page has its
 * answer once the last request is answered; its entry may reach the journal a moment later.
 */
export async function sawUnder(journal: JournalFeed, marks: readonly string[]): Promise<SawRow[]> {
  await sleep(FILING_LAG_MS);
  const rows: { at: number; row: SawRow }[] = [];
  for (const mark of marks)
    for (const entry of await serverEntries(journal, mark, 1, FILING_WAIT_MS))
      rows.push({ at: Date.parse(entry.at), row: rowOf(entry) });
  return rows.sort((a, b) => a.at - b.at).map(({ row }) => row);
}

const cell = (value: string | null) => h('td', {}, value === null ? h('i', {}, 'not sent') : h('code', {}, value));

/** The rows as a table (stacked on a phone): one line per request, its Sec-Fetch-* headers, cookies by name and the answer. */
export function sawTable(rows: readonly SawRow[]): HTMLElement {
  const head = [
    'Request',
    'Sec-Fetch-Site',
    'Sec-Fetch-Mode',
    'Sec-Fetch-Dest',
    'Sec-Fetch-Storage-Access',
    'Cookies',
    'Answer',
  ];
  const body = rows.map((row) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, h('code', {}, row.request)),
      cell(row.site),
      cell(row.mode),
      cell(row.dest),
      cell(row.storageAccess),
      h('td', {}, row.cookies.length === 0 ? 'none' : row.cookies.join(', ')),
      h('td', {}, answerOf(row)),
    ),
  );
  const table = h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...head.map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, ...body),
  );
  return h(
    'div',
    { class: 'server-saw', 'data-rows': JSON.stringify(rows) },
    rows.length === 0 ? 'Nothing reached the provider or the callback under this experiment.' : stackable(table),
  );
}
