import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ServerJournalEntry } from '@origin-lab/contract';
import { distinctiveKey, proxyStackForFile } from '../proxy/harness.js';

const stack = proxyStackForFile(distinctiveKey());

describe('the visitor journal of a proxied request', () => {
  it('keeps the cache state, and the upstream status when the upstream was called', async () => {
    const visitor = randomBytes(16).toString('base64url');
    const url = `${stack.api.url}/api/upstream/tags?journal=proxy&visitor=${visitor}`;
    for (const _ of [1, 2]) expect((await fetch(url)).status).toBe(200);
    const journal = await fetch(`${stack.api.url}/lab/journal?visitor=${visitor}`, {
      headers: { Accept: 'application/json' },
    });
    const { entries } = (await journal.json()) as { entries: { entry: ServerJournalEntry }[] };
    expect(entries.map((item) => item.entry.proxy)).toEqual([
      { cache: 'MISS', upstreamStatus: 200 },
      { cache: 'HIT', upstreamStatus: null },
    ]);
  });
});
