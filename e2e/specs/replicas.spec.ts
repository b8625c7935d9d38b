import type { JournalPage, ServerJournalEntry } from '@origin-lab/contract';
import { test, expect } from '../fixtures.js';

// docker compose with two api replicas behind Caddy, sharing Redis (docs/scaling.md): whichever
// replica answers, a visitor sees one server. Each request carries a visitor token, so the
// visitor's journal says which replica handled it. On the compose stack only (coverage.ts).

const REQUESTS = 24;
/**
 * The spread is shown with waits of SPREAD_WAIT_MS that are all in progress together, fewer than a
 * visitor's share of waits (VISITOR_MAX_SLOW, 16): least_conn then has to use both replicas even
 * when other tests running beside this one hold event streams on one of them. Echo answers finish
 * too fast to be in progress together, so they could all go to the replica with fewer streams.
 */
const SPREAD_REQUESTS = 12;
const SPREAD_WAIT_MS = 500;
/** How long the journal may take to hold every request once their answers are in. */
const JOURNAL_WAIT_MS = 10_000;

/** What the page read of one answer. */
interface Answer {
  status: number;
  cache: string | null;
  body: string;
}

interface Seen {
  firstAnswer: Answer | null;
  answers: Answer[];
  journal: ServerJournalEntry[];
}

/**
 * In the page, with a fresh visitor token: the first request, then `count` requests to path all at
 * once, then that visitor's journal. At once, because Caddy gives each request to the replica with
 * the fewest in progress (least_conn): one after another, they would all go to whichever replica
 * does not hold the page's own journal stream. With `alongsideWaits`, SPREAD_REQUESTS waits are in
 * progress on the replicas first (least_conn spreads them, as the first test shows), so the two
 * replicas carry about as much when the requests come, even when tests beside this one hold event
 * streams on one of them. The browser's HTTP cache is bypassed, so every request reaches the server.
 */
async function requestsAndJournal(
  page: import('@playwright/test').Page,
  first: { method: 'GET' | 'POST'; path: string; form?: Record<string, string> } | null,
  path: string,
  count: number,
  alongsideWaits = false,
): Promise<Seen> {
  const waits = alongsideWaits ? { count: SPREAD_REQUESTS, ms: SPREAD_WAIT_MS, headStartMs: 100 } : null;
  return page.evaluate(
    async ({ first, path, count, waits, journalWaitMs }) => {
      const visitor = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => (b % 36).toString(36)).join('');
      const withVisitor = (p: string) => `${p}${p.includes('?') ? '&' : '?'}visitor=${visitor}`;
      const read = async (response: Response): Promise<Answer> => ({
        status: response.status,
        cache: response.headers.get('x-cache'),
        body: await response.text(),
      });
      let firstAnswer: Answer | null = null;
      if (first) {
        const init: RequestInit = first.form
          ? { method: first.method, body: new URLSearchParams(first.form), cache: 'no-store' }
          : { method: first.method, cache: 'no-store' };
        firstAnswer = await read(await fetch(withVisitor(first.path), init));
      }
      const waiting = Array.from({ length: waits?.count ?? 0 }, async () =>
        read(await fetch(withVisitor(`/api/slow?ms=${waits!.ms}`), { cache: 'no-store' })),
      );
      // A head start, so the waits have reached the replicas before the requests are given out.
      if (waits) await new Promise((resolve) => setTimeout(resolve, waits.headStartMs));
      const answers = await Promise.all(
        Array.from({ length: count }, async () => read(await fetch(withVisitor(path), { cache: 'no-store' }))),
      );
      await Promise.all(waiting);
      // Each replica records an answer once it has left, so an answer can reach the page before
      // the replica that sent it has stored its entry where the other replica reads: the journal
      // is read until it holds every request, for at most journalWaitMs.
      const expected = (first ? 1 : 0) + count + (waits?.count ?? 0);
      const until = performance.now() + journalWaitMs;
      for (;;) {
        const journal = (await (
          await fetch(`/lab/journal?visitor=${visitor}`, { headers: { Accept: 'application/json' } })
        ).json()) as JournalPage;
        if (journal.entries.length >= expected || performance.now() > until)
          return { firstAnswer, answers, journal: journal.entries.map((stored) => stored.entry) };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    { first, path, count, waits, journalWaitMs: JOURNAL_WAIT_MS },
  );
}

const replicasOf = (entries: ServerJournalEntry[]) => new Set(entries.map((entry) => entry.replica));

test('requests spread over both replicas, and one visitor’s journal shows what each of them handled', async ({
  page,
  origins,
}) => {
  await page.goto(`${origins.self}/`);
  const { answers, journal } = await requestsAndJournal(page, null, `/api/slow?ms=${SPREAD_WAIT_MS}`, SPREAD_REQUESTS);
  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  expect(journal).toHaveLength(SPREAD_REQUESTS);
  expect(replicasOf(journal).size).toBe(2);
});

test('a post created through one replica is listed by the other', async ({ page, origins }) => {
  await page.goto(`${origins.self}/`);
  const title = `Made on one replica ${Date.now()}`;
  const { firstAnswer, answers, journal } = await requestsAndJournal(
    page,
    { method: 'POST', path: '/api/posts', form: { title, author: 'Replica e2e' } },
    '/api/posts',
    REQUESTS,
    true,
  );
  expect(firstAnswer?.status).toBe(201);
  for (const answer of answers) expect(answer.body).toContain(title);
  const createdBy = journal.find((entry) => entry.method === 'POST')!.replica;
  const listedBy = replicasOf(journal.filter((entry) => entry.method === 'GET' && entry.path === '/api/posts'));
  expect([...listedBy].filter((replica) => replica !== createdBy)).toHaveLength(1);
});

test('a proxy answer fetched by one replica is served from the shared cache by the other', async ({
  page,
  origins,
}) => {
  await page.goto(`${origins.self}/`);
  // A page of the upstream no other test asks for, so the first request is a miss.
  const path = `/api/upstream/posts?perPage=1&tag=replicas-${Date.now()}-${Math.floor(Math.random() * 1e9)}`;
  const { firstAnswer, answers, journal } = await requestsAndJournal(
    page,
    { method: 'GET', path },
    path,
    REQUESTS,
    true,
  );
  expect(firstAnswer?.cache).toBe('MISS');
  expect(answers.map((answer) => answer.cache)).toEqual(answers.map(() => 'HIT'));
  const missedBy = journal.find((entry) => entry.proxy?.cache === 'MISS')!.replica;
  const hitsElsewhere = journal.filter((entry) => entry.proxy?.cache === 'HIT' && entry.replica !== missedBy);
  expect(hitsElsewhere.length).toBeGreaterThan(0);
});
