/** A deliberate error answer of the third party: a status and a JSON { error, detail } body. */
export class MockError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Reads an optional whole-number query parameter within bounds; anything else is a 400 naming it. */
export function queryInt(
  query: Record<string, string | string[] | undefined>,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (Array.isArray(raw) || !/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new MockError(
      400,
      `${name} must be a whole number from ${min} to ${max}`,
      `got ${JSON.stringify(raw).slice(0, 60)}`,
    );
  }
  return Number(raw);
}
