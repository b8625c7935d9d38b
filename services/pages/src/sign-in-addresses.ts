import type { Middleware } from 'koa';
import { pageAddresses } from './page-addresses.js';

/**
 * The sign-in page is the app: whether a popup to the provider can answer it depends on the
 * app's own Cross-Origin-Opener-Policy too, a header of the document. So the page is served at
 * two more addresses, each sending one policy an app may send; /sign-in.html sends none.
 */
export const SIGN_IN_PAGE = '/sign-in.html';

export const SIGN_IN_ADDRESSES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '/sign-in-coop-same-origin-allow-popups.html': { 'Cross-Origin-Opener-Policy': 'same-origin-allow-popups' },
  '/sign-in-coop-same-origin.html': { 'Cross-Origin-Opener-Policy': 'same-origin' },
};

export const signInAddresses = (): Middleware => pageAddresses(SIGN_IN_PAGE, SIGN_IN_ADDRESSES);
