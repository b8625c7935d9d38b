import { sendXhr } from '../xhr.js';
import { transportOver } from './contract.js';

/**
 * The transport over XMLHttpRequest, on the same XHR wrapper the pages use raw. The same
 * signals drive it: either one aborts the request, and the failure is named by asking them,
 * because XHR says status 0 for every failure and its events alone cannot tell a deadline
 * from a cancel. A request cancelled before it starts is never sent.
 */
export const xhrTransport = transportOver(async (url, { method, signal, ...request }) => {
  if (signal?.aborted) throw signal.reason;
  const outcome = await sendXhr(method, url, { ...request, signal });
  if (outcome.failure) throw outcome.failure;
  return { status: outcome.status, text: outcome.responseText };
});
