import type { Middleware } from 'koa';
import { pageAddresses } from './page-addresses.js';

/**
 * Cross-origin isolation is decided by the headers of the document itself (COOP and COEP), so
 * the isolation page is served under three addresses, each with its own headers, fixed here and
 * never taken from the query: as is, isolated with COEP require-corp, and isolated with COEP
 * credentialless. Beside them, one small image served twice, without and with
 * Cross-Origin-Resource-Policy, for the page to embed from the other origin.
 */
export const ISOLATION_PAGE = '/isolation.html';

const COOP = { 'Cross-Origin-Opener-Policy': 'same-origin' };

/** Each address of the isolation page and the headers it is served with. */
export const ISOLATION_ADDRESSES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [ISOLATION_PAGE]: {},
  '/isolation-require-corp.html': { ...COOP, 'Cross-Origin-Embedder-Policy': 'require-corp' },
  '/isolation-credentialless.html': { ...COOP, 'Cross-Origin-Embedder-Policy': 'credentialless' },
};

/** The image, and the headers of each of its two addresses. */
export const ISOLATION_IMAGES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '/isolation/image.svg': {},
  '/isolation/image-corp.svg': { 'Cross-Origin-Resource-Policy': 'cross-origin' },
};

const IMAGE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#36c"/></svg>\n';

/**
 * Serves the isolation page's other addresses (the built isolation.html, with their headers)
 * and the two images. GET and HEAD only reach here: the router answers other methods.
 */
export function isolation(): Middleware {
  const addresses = pageAddresses(ISOLATION_PAGE, ISOLATION_ADDRESSES);
  return async (ctx, next) => {
    const image = Object.hasOwn(ISOLATION_IMAGES, ctx.path) ? ISOLATION_IMAGES[ctx.path] : undefined;
    if (image && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.set({ ...image, 'Cache-Control': 'no-store' });
      ctx.type = 'image/svg+xml';
      ctx.body = IMAGE;
      return;
    }
    return addresses(ctx, next);
  };
}
