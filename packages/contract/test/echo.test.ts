import { describe, expect, it } from 'vitest';
import { bodyKindOf, mimeEssence } from '../src/index.js';

// Independent oracle: SPEC.md's echo rules, written out by hand.
describe('bodyKindOf (SPEC.md, echo rules 1-4)', () => {
  it.each([
    ['POST', 'application/json', 5, 'json'],
    ['POST', 'application/json; charset=utf-8', 5, 'json'],
    ['PUT', 'Application/JSON', 5, 'json'],
    ['POST', 'application/x-www-form-urlencoded;charset=UTF-8', 5, 'urlencoded'],
    ['POST', 'multipart/form-data', 5, 'multipart'],
    ['POST', 'multipart/form-data; boundary=x', 5, 'multipart'],
    ['POST', 'text/plain', 5, 'other'],
    ['POST', 'application/jsonx', 5, 'other'],
    ['POST', undefined, 5, 'other'],
    ['POST', null, 0, 'none'],
    ['POST', '', 0, 'none'],
    ['POST', 'text/plain', 0, 'other'],
    ['GET', 'application/json', 5, 'none'],
    ['HEAD', 'application/json', 0, 'none'],
  ] as const)('%s with Content-Type %s and %d bytes: %s', (method, contentType, bytes, kind) => {
    expect(bodyKindOf(method, contentType, bytes)).toBe(kind);
  });

  // Moved from the pages' helpers test, when the pages' own copy (which answered "none-or-other"
  // for no Content-Type, a value SPEC.md lacks) gave way to bodyKindOf.
  it('names the bodyKind echo reports for what fetch writes', () => {
    expect(bodyKindOf('POST', 'application/json; charset=utf-8', 1)).toBe('json');
    expect(bodyKindOf('POST', 'application/x-www-form-urlencoded;charset=UTF-8', 1)).toBe('urlencoded');
    expect(bodyKindOf('POST', 'multipart/form-data', 1)).toBe('multipart');
    expect(bodyKindOf('POST', 'text/plain', 1)).toBe('other');
  });

  it('reads the essence of a Content-Type', () => {
    expect(mimeEssence(' Text/HTML ; charset=utf-8')).toBe('text/html');
    expect(mimeEssence(undefined)).toBe('');
  });
});
