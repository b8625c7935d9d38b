/** Runs a fetch-like step and reports either its value or the name of what it threw. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: string; message: string };

export async function attempt<T>(step: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await step() };
  } catch (err) {
    const error = err instanceof Error || err instanceof DOMException ? err.name : typeof err;
    return {
      ok: false,
      error,
      message: err instanceof Error || err instanceof DOMException ? err.message : String(err),
    };
  }
}

/** "TypeError" or "200" for a summary line. */
export function label<T>(result: Attempt<T>, show: (value: T) => string): string {
  return result.ok ? show(result.value) : `rejected: ${result.error}`;
}
