import { describe, expect, it } from 'vitest';
import { fixedCase } from '../src/advice/fixed-case.js';

// The smallest change that lets a refused case read, written from the Fetch standard's rules:
// methods compare byte for byte, header names whatever their case, * never holds with credentials.

const fields = (entries: Record<string, string>) => new URLSearchParams(entries);

describe('the fixed case', () => {
  it('names a method exactly as the request sends it: patch is not PATCH', () => {
    const fixed = fixedCase(
      fields({ method: 'patch', 'allow-methods': 'PATCH' }),
      { rule: 'method-not-allowed', stage: 'preflight' },
      { method: 'patch', headers: [] },
    );
    expect(fixed.get('allow-methods')).toBe('PATCH, patch');
  });

  it('adds a header name once, whatever its case, and drops the * that failed with credentials', () => {
    const fixed = fixedCase(
      fields({ 'allow-headers': '*, x-demo', credentials: 'include' }),
      { rule: 'header-not-allowed', stage: 'preflight' },
      { method: 'GET', headers: ['X-Demo', 'X-Other'] },
    );
    expect(fixed.get('allow-headers')).toBe('x-demo, X-Other');
  });

  it('changes the preflight’s own policy when the case gives the preflight one', () => {
    const fixed = fixedCase(
      fields({ split: 'on', 'allow-credentials': 'on', 'preflight.allow-credentials': 'off' }),
      { rule: 'credentials-not-allowed', stage: 'preflight' },
      { method: 'PUT', headers: [] },
    );
    expect(fixed.get('preflight.allow-credentials')).toBe('on');
  });

  it('names the origin for * with credentials, and allows credentials', () => {
    const fixed = fixedCase(
      fields({ 'allow-origin': '*', credentials: 'include' }),
      { rule: 'wildcard-with-credentials', stage: 'actual' },
      { method: 'GET', headers: [] },
    );
    expect(Object.fromEntries(fixed)).toMatchObject({ 'allow-origin': 'origin', 'allow-credentials': 'on' });
  });
});
