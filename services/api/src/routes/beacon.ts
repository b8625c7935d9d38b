import type { Middleware } from 'koa';
import type { BeaconJournal, BeaconJournalEntry } from '@origin-lab/contract';
import type { ApiConfig } from '../config.js';
import { methodNotAllowed } from '../http/api-error.js';
import { readBody } from '../http/read-body.js';


/**
 * POST takes a beacon of any type and answers 202 with an empty body. GET lists the last few
 * beacons received, so a page (or a test) can see after the fact what an exit beacon delivered.
 */
export function beacon(config: ApiConfig): Middleware {
  const journal: BeaconJournalEntry[] = [];
  return async (ctx) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      ctx.body = { beacons: journal } satisfies BeaconJournal;
      return;
    }
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx.method, ctx.path, ['GET', 'HEAD', 'POST', 'OPTIONS']);
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
  };
}
