import type { Context, Middleware } from 'koa';
import { isUtf8 } from 'node:buffer';
import { bodyKindOf, type EchoReflection } from '@origin-lab/contract';
import { declaresNoBody, NO_BODY, readSentBody } from '../http/read-body.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export interface EchoOptions {
  /** Largest body read (413 past it). */
  bodyBytes: number;
}

/**
 * Reflects the request: method, path, query, every header, the raw body as text, and bodyKind.
 * Bytes that are not valid UTF-8 are also given as base64, so the text never hides what arrived.
 */
export function echo({ bodyBytes: limit }: EchoOptions): Middleware {
  // Not async: a request without a body (most GETs) is answered without a promise or a tick.
  return (ctx) => {
    if (declaresNoBody(ctx.req)) return reflect(ctx, NO_BODY);
    return readSentBody(ctx.req, limit).then((body) => reflect(ctx, body));
  };
}

function reflect(ctx: Context, body: Buffer): void {
  // Serialised here, once, with the header Koa would set for an object body: saves Koa's type lookup.
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = JSON.stringify(reflection(ctx, body));
}

/** The request as it arrived: what /api/echo answers (and the CORS lab, beside its scenario). */
export function reflection(ctx: Context, body: Buffer): EchoReflection {
  const { req } = ctx;
  const valid = isUtf8(body);
  return {
    method: ctx.method,
    path: ctx.path,
    query: ctx.query,
    headers: req.headers,
    body: body.toString('utf8'),
    ...(valid ? {} : { bodyBase64: body.toString('base64') }),
    bodyBytes: body.length,
    bodyKind: bodyKindOf(ctx.method, req.headers['content-type'], body.length),
  };
}
