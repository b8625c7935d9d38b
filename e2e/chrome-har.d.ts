// chrome-har ships no types: the one function the suite calls (e2e/specs/support/recorders.ts).
declare module 'chrome-har' {
  export function harFromMessages(
    messages: { method: string; params: unknown }[],
    options?: { includeResourcesFromDiskCache?: boolean; includeTextFromResponseBody?: boolean },
  ): unknown;
}
