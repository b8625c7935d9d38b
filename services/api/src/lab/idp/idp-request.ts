import {
  LAB_IDP_CALLBACK_PATH,
  LAB_IDP_CLIENT,
  LAB_IDP_STATE_MAX,
  readLabIdpAuthorize,
  type LabIdpSettings,
} from '@origin-lab/contract/lab-idp';
import { HttpError } from '@origin-lab/server-kit';

/**
 * An authorize request, read and checked before the provider does anything with it: its
 * switches, the client, where the answer goes and the app's state. Anything wrong is a 400 that
 * names the parameter, and the provider never sends the browser anywhere then: a redirect target
 * is followed only when it is one of the lab's own origins and one of the answer paths.
 */
export interface AuthorizeRequest {
  settings: LabIdpSettings;
  redirectUri: string;
  state: string;
}

/** What `state` may hold: OAuth leaves it opaque; the lab takes URL-safe characters only. */
export const STATE = /^[A-Za-z0-9._~-]+$/;

const bad = (parameter: string, error: string) => new HttpError(400, error, { parameter });

/** The one value of an OAuth parameter; a missing or repeated one is a 400. */
function single(query: URLSearchParams, name: string): string {
  const values = query.getAll(name);
  if (values.length === 0 || values[0] === '') throw bad(name, `${name} is missing`);
  if (values.length > 1) throw bad(name, `${name} is given ${values.length} times`);
  return values[0]!;
}

/** The journal's tags, the only query a redirect target may carry (so the answer's request shows in the visitor's journal). */
const TAGS = new Set(['visitor', 'mark']);

/** redirect_uri, if it is the callback path on one of labOrigins (no fragment); a 400 otherwise. */
function redirectTarget(raw: string, labOrigins: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('redirect_uri', 'redirect_uri is not an absolute URL');
  }
  if (!labOrigins.includes(url.origin))
    throw bad('redirect_uri', `redirect_uri must be on one of the lab's origins (${labOrigins.join(', ')})`);
  if (url.pathname !== LAB_IDP_CALLBACK_PATH || url.hash !== '')
    throw bad('redirect_uri', `redirect_uri's path must be ${LAB_IDP_CALLBACK_PATH}, with no fragment`);
  if ([...url.searchParams.keys()].some((name) => !TAGS.has(name)))
    throw bad('redirect_uri', "redirect_uri's query may hold only the journal's visitor and mark");
  return url.href;
}

/** The authorize query, checked; throws a 400 HttpError naming what is wrong. */
export function readAuthorizeRequest(query: URLSearchParams, labOrigins: readonly string[]): AuthorizeRequest {
  const read = readLabIdpAuthorize(query);
  if (!read.ok) throw bad(read.parameter, read.error);
  const client = single(query, 'client_id');
  if (client !== LAB_IDP_CLIENT)
    throw bad('client_id', `unknown client ${client.slice(0, 64)}; the lab's is ${LAB_IDP_CLIENT}`);
  const redirectUri = redirectTarget(single(query, 'redirect_uri'), labOrigins);
  const state = single(query, 'state');
  if (state.length > LAB_IDP_STATE_MAX) throw bad('state', `state is longer than ${LAB_IDP_STATE_MAX} characters`);
  if (!STATE.test(state)) throw bad('state', 'state may hold only letters, digits and . _ ~ -');
  return { settings: read.settings, redirectUri, state };
}
