import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiForFile } from '../start-api.js';

// JOURNAL_VISITORS=0: the journal is switched off.
const api = apiForFile({
  journal: { entriesPerVisitor: 50, visitors: 0, idleSeconds: 600, streamBufferBytes: 4_096, keepAliveMs: 15_000 },
});

describe('with the journal switched off (JOURNAL_VISITORS=0)', () => {
  it('requests with a visitor token are answered as usual, and reading the journal says it is off', async () => {
    const visitor = randomBytes(16).toString('base64url');
    expect((await fetch(`${api.url}/api/posts?visitor=${visitor}`)).status).toBe(200);

    for (const accept of ['text/event-stream', 'application/json']) {
      const answer = await fetch(`${api.url}/lab/journal?visitor=${visitor}`, { headers: { Accept: accept } });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answer.json()).toEqual({
        error: 'the journal is switched off on this server (JOURNAL_VISITORS=0)',
        path: '/lab/journal',
      });
    }
  });
});
