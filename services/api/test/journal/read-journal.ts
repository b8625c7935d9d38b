import { expect } from 'vitest';
import type { JournalItem } from '@origin-lab/contract';

/**
 * Reads the visitor's journal stream at baseUrl until `count` entries arrived (within timeoutMs), parsing the event
 * stream by its own grammar: records of field lines ended by a blank line.
 */
export async function readJournalOf(
  baseUrl: string,
  visitor: string,
  count: number,
  headers: Record<string, string> = {},
  timeoutMs = 5_000,
): Promise<JournalItem[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const delivered: JournalItem[] = [];
  try {
    const response = await fetch(`${baseUrl}/lab/journal?visitor=${visitor}`, { headers, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (delivered.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const record = text.slice(0, end);
        text = text.slice(end + 2);
        const fields = Object.fromEntries(
          record
            .split('\n')
            .filter((line) => !line.startsWith(':'))
            .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
        );
        if (fields.event === 'entry') delivered.push({ id: Number(fields.id), entry: JSON.parse(fields.data!) });
      }
    }
    return delivered;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
