import type { Middleware } from 'koa';
import type { BeaconJournal, BeaconJournalEntry } from '@origin-lab/contract';
import type { ApiConfig } from '../config.js';
import { readBody } from '../http/read-body.js';

export interface BeaconHandlers {
  /** POST: takes a beacon of any type and answers 202 with an empty body. */
  receive: Middleware;
  /** GET: the last few beacons received, so a page (or a test) can see what an exit beacon delivered. */
  list: Middleware;
}

export function beacon(config: ApiConfig): BeaconHandlers {
  const journal: BeaconJournalEntry[] = [];
  return {
    list: (ctx) => {
      ctx.body = { beacons: journal } satisfies BeaconJournal;
    },
    receive: async (ctx) => {
      const body = await readBody(ctx, config.limits.bodyBytes);
      if (config.beaconJournal > 0) {
        journal.unshift({
          receivedAt: new Date().toISOString(),
          contentType: ctx.get('Content-Type') || null,
          bytes: body.length,
          body: body.subarray(0, 2048).toString('utf8'),
          origin: ctx.get('Origin') || null,
        });
        journal.length = Math.min(journal.length, config.beaconJournal);
      }
      ctx.status = 202;
      ctx.body = '';
      ctx.remove('Content-Type');
    },
  };
}
