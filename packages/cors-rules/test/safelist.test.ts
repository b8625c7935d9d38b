import { describe, expect, it } from 'vitest';
import {
  hasCorsUnsafeByte,
  isSafelistedRequestHeader,
  isSafelistedResponseHeader,
  needsPreflight,
} from '../src/rules/safelist.js';

describe('CORS rules', () => {
  it('lists the seven safelisted response headers', () => {
    for (const name of [
      'Cache-Control',
      'Content-Language',
      'Content-Length',
      'Content-Type',
      'Expires',
      'Last-Modified',
      'Pragma',
    ])
      expect(isSafelistedResponseHeader(name)).toBe(true);
    expect(isSafelistedResponseHeader('X-Cache')).toBe(false);
    expect(isSafelistedResponseHeader('Vary')).toBe(false);
  });

  it('finds CORS-unsafe bytes', () => {
    expect(hasCorsUnsafeByte('text/plain')).toBe(false);
    expect(hasCorsUnsafeByte('a\tb')).toBe(false);
    for (const ch of ['"', '(', ')', ':', '<', '>', '?', '@', '[', '\\', ']', '{', '}', '\x7f', '\x01'])
      expect(hasCorsUnsafeByte(`a${ch}b`), ch).toBe(true);
  });

  it('applies the safelisted request header table', () => {
    expect(isSafelistedRequestHeader('Content-Type', 'text/plain; charset=utf-8')).toBe(true);
    expect(isSafelistedRequestHeader('Content-Type', 'application/json')).toBe(false);
    expect(isSafelistedRequestHeader('Content-Type', 'text/plain; charset="utf-8"')).toBe(false);
    expect(isSafelistedRequestHeader('Content-Language', 'a'.repeat(128))).toBe(true);
    expect(isSafelistedRequestHeader('Content-Language', 'a'.repeat(129))).toBe(false);
    expect(isSafelistedRequestHeader('Accept-Language', 'en (GB)')).toBe(false);
    expect(isSafelistedRequestHeader('Range', 'bytes=0-99')).toBe(true);
    expect(isSafelistedRequestHeader('Range', 'bytes=-99')).toBe(false);
    expect(isSafelistedRequestHeader('X-Requested-With', 'x')).toBe(false);
  });

  it('predicts preflights', () => {
    expect(needsPreflight('GET', [])).toBe(false);
    expect(needsPreflight('POST', [['Content-Type', 'text/plain']])).toBe(false);
    expect(needsPreflight('PUT', [])).toBe(true);
    expect(needsPreflight('POST', [['Content-Type', 'application/json']])).toBe(true);
    expect(needsPreflight('POST', [], true)).toBe(true);
    const nine = Array.from({ length: 9 }, (): [string, string] => ['Accept-Language', 'a'.repeat(120)]);
    expect(needsPreflight('POST', nine)).toBe(true);
    expect(needsPreflight('POST', nine.slice(0, 8))).toBe(false);
  });
});
