export interface PollOptions<T> {
  /** Required: every wait has an end. */
  timeoutMs: number;
  /** Pause between attempts; 25 ms unless told. */
  intervalMs?: number;
  /** When the result is good enough; truthiness unless told. */
  done?: (result: T) => boolean;
}

/**
 * Calls attempt until done(result) holds (by default: until it returns something truthy) and
 * resolves with that result. After timeoutMs it rejects with "timed out after N ms waiting for
 * <what>" and the last result seen, so the failure says what was there instead. An attempt that
 * throws ends the wait with that error.
 */
export async function pollUntil<T>(what: string, attempt: () => T | Promise<T>, options: PollOptions<T>): Promise<T> {
  const { timeoutMs, intervalMs = 25, done = (result: T) => Boolean(result) } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt();
    if (done(result)) return result;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${lastSeen(result)})`);
    await sleep(intervalMs);
  }
}

function lastSeen(result: unknown): string {
  try {
    return (JSON.stringify(result) ?? String(result)).slice(0, 500);
  } catch {
    return String(result).slice(0, 500);
  }
}

/** A pause that is part of what a test does (let requests reach a handler), not a wait for a condition. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
