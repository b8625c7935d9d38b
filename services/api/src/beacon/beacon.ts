import type { Middleware } from 'koa';
import type { BeaconJournal } from '@origin-lab/contract';
import { readBody } from '../http/read-body.js';
import type { BeaconStore } from './beacon-store.js';

export interface BeaconHandlers {
  /** POST: takes a beacon of any type and answers 202 with an empty body. */
  receive: Middleware;
  /** GET: the last few beacons received, so a page (or a test) can see what an exit beacon delivered. */
  list: Middleware;
}

export interface BeaconOptions {
  /** Largest beacon body read (413 past it). */
  bodyBytes: number;
}

export function beacon({ bodyBytes }: BeaconOptions, store: BeaconStore): BeaconHandlers {
  return {
    list: async (ctx) => {
      ctx.body = { beacons: [...(await store.list())] } satisfies BeaconJournal;
    },
    receive: async (ctx) => {
      const body = await readBody(ctx, bodyBytes);
      // Stored before the 202, so an acknowledged beacon is never lost to a Redis that is down.
      await store.add({
        receivedAt: new Date().toISOString(),
        contentType: ctx.get('Content-Type') || null,
        bytes: body.length,
        body: body.subarray(0, 2048).toString('utf8'),
        origin: ctx.get('Origin') || null,
      });
      ctx.status = 202;
      ctx.body = '';
      ctx.remove('Content-Type');
    },
  };
}
