import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/http/http-error.js';
import { queryInt } from '../../src/http/query-int.js';
import { oneOf } from '../../src/http/one-of.js';

const withQuery = (query: Record<string, string | string[]>) => ({ query }) as unknown as Context;
const BOUNDS = { min: 1, max: 50, default: 10 };

/** The HttpError fn throws, as { status, error, ...fields }. */
function thrown(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, error: err.message, ...err.fields };
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe('queryInt', () => {
  it('reads a whole number within bounds, and the default when the parameter is absent', () => {
    expect(queryInt(withQuery({ n: '7' }), 'n', BOUNDS)).toBe(7);
    expect(queryInt(withQuery({ n: '1' }), 'n', BOUNDS)).toBe(1);
    expect(queryInt(withQuery({ n: '50' }), 'n', BOUNDS)).toBe(50);
    expect(queryInt(withQuery({}), 'n', BOUNDS)).toBe(10);
  });

  it('refuses anything else with a 400 naming the parameter and what came', () => {
    const rule = 'n must be a whole number from 1 to 50';
    expect(thrown(() => queryInt(withQuery({ n: '0' }), 'n', BOUNDS))).toEqual({
      status: 400,
      error: rule,
      parameter: 'n',
      detail: 'got 0',
    });
    expect(thrown(() => queryInt(withQuery({ n: 'x' }), 'n', BOUNDS))).toEqual({
      status: 400,
      error: rule,
      parameter: 'n',
      detail: 'got "x"',
    });
    expect(thrown(() => queryInt(withQuery({ n: '-1' }), 'n', BOUNDS))).toMatchObject({ status: 400, error: rule });
    expect(thrown(() => queryInt(withQuery({ n: '1.5' }), 'n', BOUNDS))).toMatchObject({ status: 400 });
    expect(thrown(() => queryInt(withQuery({ n: '' }), 'n', BOUNDS))).toMatchObject({ status: 400 });
    expect(thrown(() => queryInt(withQuery({ n: ['1', '2'] }), 'n', BOUNDS))).toEqual({
      status: 400,
      error: 'n was given more than once',
      parameter: 'n',
      detail: rule,
    });
  });

  it('repeats at most 40 characters of a wrong value', () => {
    const detail = thrown(() => queryInt(withQuery({ n: 'y'.repeat(100) }), 'n', BOUNDS)).detail;
    expect(detail).toBe(`got "${'y'.repeat(40)}"`);
  });
});

describe('oneOf', () => {
  it('returns the matching choice, typed as the choice', () => {
    expect(oneOf('mode', 'off', ['on', 'off'])).toBe('off');
    expect(oneOf('status', '204', [200, 204])).toBe(204);
  });

  it('refuses another word with a 400 naming the parameter, the choices and at most 64 characters of it', () => {
    expect(thrown(() => oneOf('mode', 'maybe', ['on', 'off']))).toEqual({
      status: 400,
      error: 'mode must be one of on, off',
      parameter: 'mode',
      detail: 'got "maybe"',
    });
    expect(thrown(() => oneOf('mode', 'z'.repeat(100), ['on']))).toMatchObject({ detail: `got "${'z'.repeat(64)}"` });
  });
});
