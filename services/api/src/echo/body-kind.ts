import type { BodyKind } from '@origin-lab/contract';
import { mimeEssence } from '../http/content-type.js';

const KIND_BY_ESSENCE: Record<string, BodyKind> = {
  'application/json': 'json',
  'application/x-www-form-urlencoded': 'urlencoded',
  'multipart/form-data': 'multipart',
};

/**
 * What the request claims its body is, from the Content-Type alone (the body is never parsed).
 * GET and HEAD have none; so does a request with neither a body nor a Content-Type.
 */
export function bodyKind(method: string, contentType: string | undefined, bodyBytes: number): BodyKind {
  if (method === 'GET' || method === 'HEAD') return 'none';
  if (!contentType) return bodyBytes === 0 ? 'none' : 'other';
  return KIND_BY_ESSENCE[mimeEssence(contentType)] ?? 'other';
}
