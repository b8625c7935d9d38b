/** Readable descriptions of FormData entries, for the forms page and its tests. */

export interface FileLike {
  name: string;
  size: number;
  type: string;
}

export function describeValue(value: string | FileLike): string {
  if (typeof value === 'string') return value;
  return `File(name="${value.name}", size=${value.size}, type="${value.type}")`;
}

/** [name, description] pairs, in order. */
export function describeEntries(entries: Iterable<[string, string | FileLike]>): [string, string][] {
  return [...entries].map(([name, value]) => [name, describeValue(value)]);
}
