/**
 * Ready cases for the playground, each a form state as the page's address fragment holds it
 * (fields left out keep their defaults). One per rule worth seeing on its own.
 */
export interface Preset {
  name: string;
  fragment: string;
}

export const PRESETS: readonly Preset[] = [
  { name: 'A simple GET, origin allowed: readable', fragment: 'method=GET' },
  { name: 'A simple GET, no Access-Control-Allow-Origin: sent, not readable', fragment: 'allow-origin=none' },
  { name: 'Allow-Origin names another origin', fragment: 'allow-origin=other' },
  { name: 'Allow-Origin with two values', fragment: 'allow-origin=two' },
  { name: 'Allow-Origin * without credentials: readable', fragment: 'allow-origin=*' },
  {
    name: 'Allow-Origin * with credentials: refused',
    fragment: 'allow-origin=*&credentials=include&allow-credentials=on',
  },
  { name: 'Credentials without Allow-Credentials: refused', fragment: 'credentials=include' },
  {
    name: 'Credentials with the origin and Allow-Credentials: readable',
    fragment: 'credentials=include&allow-credentials=on',
  },
  {
    name: 'JSON POST: preflighted, Content-Type allowed',
    fragment: 'method=POST&body=json&allow-headers=Content-Type',
  },
  { name: 'JSON POST, Content-Type not allowed: the preflight fails', fragment: 'method=POST&body=json' },
  { name: 'A custom header under Allow-Headers: *', fragment: 'headers=X-Demo%3A+1&allow-headers=*' },
  {
    name: 'Authorization is not covered by Allow-Headers: *',
    fragment: 'headers=Authorization%3A+Bearer+demo&allow-headers=*',
  },
  {
    name: 'Authorization named in Allow-Headers',
    fragment: 'headers=Authorization%3A+Bearer+demo&allow-headers=Authorization',
  },
  { name: 'PUT under Allow-Methods: *', fragment: 'method=PUT&allow-methods=*' },
  {
    name: 'PUT under Allow-Methods: * with credentials: refused',
    fragment: 'method=PUT&allow-methods=*&credentials=include&allow-credentials=on',
  },
  { name: 'Content-Language of 128 bytes: still simple', fragment: `headers=Content-Language%3A+${'a'.repeat(128)}` },
  { name: 'Content-Language of 129 bytes: preflighted', fragment: `headers=Content-Language%3A+${'a'.repeat(129)}` },
  { name: 'A 401 preflight', fragment: 'method=PUT&allow-methods=PUT&preflight-status=401' },
  { name: 'A redirected (301) preflight', fragment: 'method=PUT&allow-methods=PUT&preflight-status=301' },
  { name: 'A header hidden, then exposed', fragment: 'extra-header=hello&expose-headers=X-Lab-Extra' },
  { name: 'no-cors: sent, opaque', fragment: 'mode=no-cors&allow-origin=none' },
  { name: 'XMLHttpRequest, origin not allowed: status 0', fragment: 'api=xhr&allow-origin=none' },
  {
    name: 'A cookie with SameSite=None; Secure, credentials included',
    fragment: 'credentials=include&allow-credentials=on&cookie=none&cookie-secure=on',
  },
  { name: 'A cookie with SameSite=Strict', fragment: 'credentials=include&allow-credentials=on&cookie=strict' },
];
