import type { EngineName, EngineOutcome, EngineRecord } from '@origin-lab/contract';

/** The engines' names as people write them. */
export const ENGINE_LABELS: Record<EngineName, string> = {
  chromium: 'Chromium',
  firefox: 'Firefox',
  webkit: 'WebKit (GTK)',
};

/** The parts of an outcome a reader compares, in reading order, each as a short phrase. */
const PARTS: { key: keyof EngineOutcome; say: (outcome: EngineOutcome) => string | null }[] = [
  { key: 'preflight', say: (o) => (o.preflight ? 'preflight sent' : 'no preflight') },
  { key: 'sent', say: (o) => (o.sent ? 'request arrived' : 'request never sent') },
  { key: 'readable', say: (o) => (o.readable ? 'answer read' : 'answer not readable') },
  { key: 'status', say: (o) => (o.status === null ? 'fetch rejected' : `status ${o.status}`) },
  {
    key: 'extraVisible',
    say: (o) => (o.extraVisible === null ? null : o.extraVisible ? 'X-Lab-Extra visible' : 'X-Lab-Extra hidden'),
  },
  {
    key: 'cookieReturned',
    say: (o) => (o.cookieReturned === null ? null : o.cookieReturned ? 'cookie came back' : 'cookie not sent back'),
  },
];

/** One outcome as phrases, the ones that differ from other's marked. */
export function describeOutcome(
  outcome: EngineOutcome,
  other: EngineOutcome | undefined,
): { text: string; differs: boolean }[] {
  return PARTS.flatMap(({ key, say }) => {
    const text = say(outcome);
    return text === null ? [] : [{ text, differs: other !== undefined && other[key] !== outcome[key] }];
  });
}

/** Whether two engines' outcomes of one case differ in anything a reader compares. */
export function outcomesDiffer(a: EngineOutcome, b: EngineOutcome): boolean {
  return PARTS.some(({ key }) => a[key] !== b[key]);
}

/** The stacks records exist for, the TLS ones (as a class uses it) first. */
export function recordedStacks(records: readonly EngineRecord[]): string[] {
  return inShowingOrder(records.map((record) => record.stack));
}

/** Stack names without repeats, the TLS ones first, then the plain-HTTP ones, then any other. */
export function inShowingOrder(stacks: readonly string[]): string[] {
  const order = ['caddy', 'compose', 'embedded', 'lan'];
  const rank = (stack: string) => (order.includes(stack) ? order.indexOf(stack) : order.length);
  return [...new Set(stacks)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** One stack's records, one per engine, in a fixed order. */
export function recordsOfStack(records: readonly EngineRecord[], stack: string | undefined): EngineRecord[] {
  return records.filter((record) => record.stack === stack).sort((a, b) => a.engine.localeCompare(b.engine));
}

/**
 * The records to show for a page served over scheme: one per engine, from the first stack (in
 * recordedStacks order) that has that scheme, else from the first stack at all.
 */
export function recordsForScheme(records: readonly EngineRecord[], scheme: string): EngineRecord[] {
  const stacks = recordedStacks(records);
  const stack =
    stacks.find((name) => records.some((record) => record.stack === name && record.scheme === scheme)) ?? stacks[0];
  return recordsOfStack(records, stack);
}

/**
 * The records the build published beside the pages: one stack's, or one ready case (by its id)
 * with only that case in each record. None if there are none.
 */
export function loadEngineRecords(which: { stack: string } | { caseId: string }): Promise<EngineRecord[]> {
  return readJson(
    'stack' in which ? `/engine-records/stacks/${which.stack}.json` : `/engine-records/${which.caseId}.json`,
    [],
  );
}

/** The stacks the build published records of, in showing order. */
export async function loadRecordedStacks(): Promise<string[]> {
  return inShowingOrder(await readJson<string[]>('/engine-records/stacks.json', []));
}

async function readJson<T>(path: string, none: T): Promise<T> {
  try {
    const answer = await fetch(path);
    return answer.ok ? ((await answer.json()) as T) : none;
  } catch {
    return none;
  }
}
