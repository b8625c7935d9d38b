import { isLoopbackHost } from '@origin-lab/cors-rules';

/**
 * A potentially trustworthy origin (Secure Contexts): https, or http on a loopback name. Browsers
 * send Fetch Metadata (Sec-Fetch-*) only to such URLs: on lan's plain-HTTP names they send none.
 */
export const trustworthy = (origin: string): boolean =>
  /^https:/.test(origin) || isLoopbackHost(new URL(origin).hostname);
