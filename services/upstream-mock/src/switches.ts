/**
 * Misbehaviours a test (or the demonstration page) asks for with ?mock=a,b on one request.
 * They travel in the query string, so through the proxy they also become part of its cache key.
 */
export const SWITCHES = {
  slow: 'answer after delayMs milliseconds (default 2000)',
  hold: 'answer only after POST /_admin/release (or the longest allowed delay)',
  fail: 'answer 500 with a JSON error',
  forbidden: 'answer 403, as a third party that knows the key but refuses it',
  close: 'close the connection without answering',
  private: 'answer with Cache-Control: private, max-age=60',
  'no-store': 'answer with Cache-Control: no-store',
  'no-cache': 'answer with Cache-Control: no-cache',
  cookie: 'answer with a Set-Cookie header',
  'vary-star': 'answer with Vary: *',
  reflect: 'misbehave: copy the request headers, Authorization included, into the body',
  redirect: 'answer 302 pointing at another host',
  big: 'pad the body with padBytes bytes (default 65536)',
} as const;

export type Switch = keyof typeof SWITCHES;

export function isSwitch(name: string): name is Switch {
  return Object.hasOwn(SWITCHES, name);
}
