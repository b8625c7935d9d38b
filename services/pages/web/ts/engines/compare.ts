import type { EngineName, EngineOutcome, EngineRecord, PackedRecord } from '@origin-lab/contract';
import { unpackRecord } from '@origin-lab/contract/engine-records';

/** The engines' names as people write them (WebKit's is WebKitGTK, with libsoup: never "Safari"). */
export const ENGINE_LABELS: Record<EngineName, string> = {
  chromium: 'Chromium',
  firefox: 'Firefox',
  webkit: 'WebKit (GTK)',
};

/** The order engines are shown in, everywhere: one column or line each, recorded or not. */
export const ENGINE_ORDER: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** One engine's outcome of a case, undefined where this stack has no record of it. */
export interface EngineCase {
  engine: EngineName;
  outcome: EngineOutcome | undefined;
}

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

/**
 * One engine's outcome as phrases, each with the engines whose outcome says otherwise in that
 * part (none when they agree, or when the others have no outcome).
 */
export function describeOutcome(
  outcome: EngineOutcome,
  others: readonly EngineCase[],
): { text: string; differsFrom: EngineName[] }[] {
  return PARTS.flatMap(({ key, say }) => {
    const text = say(outcome);
    if (text === null) return [];
    const differsFrom = others.flatMap(({ engine, outcome: other }) =>
      other !== undefined && other[key] !== outcome[key] ? [engine] : [],
    );
    return [{ text, differsFrom }];
  });
}

/** Whether any two of the engines' outcomes of one case differ in anything a reader compares. */
export function outcomesDiffer(outcomes: readonly (EngineOutcome | undefined)[]): boolean {
  const recorded = outcomes.filter((outcome) => outcome !== undefined);
  return recorded.some((a, index) => recorded.slice(index + 1).some((b) => PARTS.some(({ key }) => a[key] !== b[key])));
}

/** The record of engine among one stack's records, if there is one. */
export function recordOf(records: readonly EngineRecord[], engine: EngineName): EngineRecord | undefined {
  return records.find((record) => record.engine === engine);
}

/** Each engine in ENGINE_ORDER with its outcome of caseId in one stack's records (undefined where none). */
export function casesByEngine(records: readonly EngineRecord[], caseId: string): EngineCase[] {
  return ENGINE_ORDER.map((engine) => ({ engine, outcome: recordOf(records, engine)?.cases[caseId] }));
}

/** "Firefox", "Firefox and WebKit (GTK)", "A, B and C". */
export function engineList(engines: readonly EngineName[]): string {
  const labels = engines.map((engine) => ENGINE_LABELS[engine]);
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : (labels[0] ?? '');
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

/** One stack's records, one per engine, in ENGINE_ORDER. */
export function recordsOfStack(records: readonly EngineRecord[], stack: string | undefined): EngineRecord[] {
  const rank = (record: EngineRecord) => ENGINE_ORDER.indexOf(record.engine);
  return records.filter((record) => record.stack === stack).sort((a, b) => rank(a) - rank(b));
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
 * in the records a page of scheme shows (recordsForScheme), only that case in each. None if
 * there are none.
 */
export async function loadEngineRecords(
  which: { stack: string } | { caseId: string; scheme: string },
): Promise<EngineRecord[]> {
  const packed = await readJson<PackedRecord[]>(
    'stack' in which
      ? `/engine-records/stacks/${which.stack}.json`
      : `/engine-records/${which.scheme}/${which.caseId}.json`,
    [],
  );
  return packed.map(unpackRecord);
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
