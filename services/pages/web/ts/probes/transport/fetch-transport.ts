import { transportOver } from './contract.js';

/** The transport over fetch. Reads the body as text once, then parses it, so an empty body is data null. */
export const fetchTransport = transportOver(async (url, request) => {
  const response = await fetch(url, request);
  return { status: response.status, text: await response.text() };
});
