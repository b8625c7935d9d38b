/**
 * Runs each item through fn, at most atOnce at a time, in the items' order; once every started
 * one has settled, fails with the first failure (nothing is left running behind a failure).
 */
export async function inTurns<T>(items: readonly T[], atOnce: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.max(1, atOnce) }, worker));
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
