/**
 * What /api/echo answers, and how it classifies a request body (SPEC.md, "Echo rules"): the api
 * computes it, the pages predict it, with this one function.
 */

/** The bodyKind values of SPEC.md, in its order. */
export const BODY_KINDS = ['json', 'urlencoded', 'multipart', 'other', 'none'] as const;

/** How /api/echo classifies a request body. */
export type BodyKind = (typeof BODY_KINDS)[number];

/** What /api/echo answers: the request as the server received it. */
export interface EchoReflection {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body as UTF-8 text. */
  body: string;
  /** Present only when the body is not valid UTF-8. */
  bodyBase64?: string;
  bodyBytes: number;
  bodyKind: BodyKind;
}

/** The essence of a Content-Type: the type/subtype in lower case, parameters dropped. */
export function mimeEssence(contentType: string | null | undefined): string {
  if (!contentType) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

const KIND_BY_ESSENCE: Readonly<Record<string, BodyKind>> = {
  'application/json': 'json',
  'application/x-www-form-urlencoded': 'urlencoded',
  'multipart/form-data': 'multipart',
};

/**
 * What the request claims its body is, from the Content-Type alone (the body is never parsed).
 * GET and HEAD have none; so does a request with neither a body nor a Content-Type.
 */
export function bodyKindOf(method: string, contentType: string | null | undefined, bodyBytes: number): BodyKind {
  if (method === 'GET' || method === 'HEAD') return 'none';
  if (!contentType) return bodyBytes === 0 ? 'none' : 'other';
  return KIND_BY_ESSENCE[mimeEssence(contentType)] ?? 'other';
}
